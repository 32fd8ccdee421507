//! Tool arguments. Each tool publishes the schema of a typed struct (with descriptions that
//! teach an agent how to play) but receives the raw JSON object, which the REST edge's own
//! parsers then check: one set of rules, and malformed arguments come back with the same
//! detailed problems as a REST 422, as a tool error the model can correct.

use std::borrow::Cow;

use rmcp::schemars::{self, JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde_json::{Map, Value};

/// The arguments exactly as sent, published under `S`'s schema.
macro_rules! arguments {
    ($name:ident, $schema:ty) => {
        #[derive(Debug, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub Map<String, Value>);

        impl $name {
            /// The arguments as a JSON body, for the REST parsers.
            pub fn bytes(&self) -> Vec<u8> {
                serde_json::to_vec(&self.0).unwrap_or_default()
            }
        }

        impl JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                <$schema>::schema_name()
            }

            fn json_schema(generator: &mut SchemaGenerator) -> Schema {
                <$schema>::json_schema(generator)
            }
        }
    };
}

arguments!(FreeArguments, FreeSchema);
arguments!(CommitArguments, CommitSchema);
arguments!(FlipArguments, FlipSchema);
arguments!(DiceArguments, DiceSchema);
arguments!(RouletteArguments, RouletteSchema);
arguments!(VerifyArguments, VerifySchema);
arguments!(BalanceArguments, BalanceSchema);
arguments!(CashoutArguments, CashoutSchema);

/// Tools that take nothing.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct NoArguments {}

#[allow(dead_code)] // schema only
#[derive(JsonSchema)]
pub struct FreeSchema {
    /// Your wallet address, 0x + 40 hex characters (any case). It gets 100 chips, once.
    address: String,
    /// Optional: the signature of your auth statement (see arcade_balance), proving the address
    /// is yours.
    signature: Option<String>,
}

#[allow(dead_code)] // schema only
#[derive(JsonSchema)]
pub struct CommitSchema {
    /// Your wallet address, 0x + 40 hex characters.
    address: String,
    /// Required: your EIP-191 personal_sign signature (0x + 130 hex) of the exact `auth_statement`
    /// text that arcade_balance returns for your address (also at GET
    /// /api/arcade/auth-statement/{address}). It proves the address is yours.
    signature: String,
}

#[allow(dead_code)] // schema only
#[derive(JsonSchema)]
pub struct FlipSchema {
    /// The round_id from arcade_commit; each round is played once.
    round_id: String,
    /// Your own seed, 1 to 256 printable characters. Pick a fresh random one every round: the
    /// house committed to its seed before seeing yours, so it cannot choose your outcome.
    client_seed: String,
    /// Chips to wager: at least 1, at most 1000, and the potential profit at most 500.
    wager: i64,
    /// "heads" or "tails". A win returns 1.98x the wager.
    call: String,
    /// Optional: your auth-statement signature; if given it must be the round owner's.
    signature: Option<String>,
}

#[allow(dead_code)] // schema only
#[derive(JsonSchema)]
pub struct DiceSchema {
    /// The round_id from arcade_commit.
    round_id: String,
    /// Your own fresh random seed, 1 to 256 printable characters.
    client_seed: String,
    /// Chips to wager (the longer the odds, the smaller the largest wager: profit is capped).
    wager: i64,
    /// 1 to 99. The roll is 0.00 to 100.00; "under" wins below the target, "over" above it.
    target: i64,
    /// "under" (default) or "over". The payout is 99% of the fair odds of your call.
    direction: Option<String>,
    /// Optional: your auth-statement signature.
    signature: Option<String>,
}

#[allow(dead_code)] // schema only
#[derive(JsonSchema)]
pub struct RouletteSchema {
    /// The round_id from arcade_commit.
    round_id: String,
    /// Your own fresh random seed, 1 to 256 printable characters.
    client_seed: String,
    /// Chips to wager.
    wager: i64,
    /// European roulette (pockets 0 to 36): straight (needs number, pays 36x), red, black, odd,
    /// even, low, high (2x), dozen1, dozen2, dozen3, column1, column2, column3 (3x).
    bet: String,
    /// 0 to 36, for a straight bet only.
    number: Option<i64>,
    /// Optional: your auth-statement signature.
    signature: Option<String>,
}

#[allow(dead_code)] // schema only
#[derive(JsonSchema)]
pub struct VerifySchema {
    /// The bet_id of a played round (from its receipt or arcade_house's floor).
    bet_id: i64,
}

#[allow(dead_code)] // schema only
#[derive(JsonSchema)]
pub struct BalanceSchema {
    /// A wallet address, 0x + 40 hex characters.
    address: String,
}

#[allow(dead_code)] // schema only
#[derive(JsonSchema)]
pub struct CashoutSchema {
    /// Your wallet address; the tokens are sent there.
    address: String,
    /// 100 to 250000 chips (100 chips = 0.01 USD). Requires a past purchase.
    chips: i64,
    /// Required: your auth-statement signature (see arcade_commit).
    signature: String,
}
