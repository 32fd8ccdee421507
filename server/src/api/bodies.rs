//! Request bodies: parsed by hand from JSON so every malformed request gets the interface's 422
//! body, and described for the OpenAPI document by the same structs.

use alloy::primitives::Address;
use arcade_core::{
    BetKind, Call, ClientSeed, DiceCall, Direction, MAX_CLIENT_SEED_CHARS, RouletteBet, Side,
};
use salvo::oapi::ToSchema;
use serde_json::{Value, json};

use crate::address;
use crate::error::ApiError;
use crate::housebots::message::AgentMessage;
use crate::service::play::Play;
use crate::validation::{FieldError, Fields, ValidationError, json_object};

const MAX_ROUND_ID_CHARS: usize = 64;
const MAX_SIGNATURE_CHARS: usize = 256;
const MAX_ADDRESS_CHARS: usize = 64;

/// `{address, signature?}`: commit (signature required) and free (signature optional).
#[derive(Debug, ToSchema)]
pub struct AddressBody {
    /// Wallet address, `0x` + 40 hex characters, any case.
    #[salvo(schema(value_type = String))]
    pub address: Address,
    /// Hex signature (65 bytes) of the statement from `GET /api/arcade/auth-statement/{address}`,
    /// made with `personal_sign` (EIP-191).
    pub signature: Option<String>,
}

/// `POST /api/arcade/flip`.
#[allow(dead_code)] // Describes the body for OpenAPI; `flip` below reads it.
#[derive(Debug, ToSchema)]
pub struct FlipBody {
    /// From `POST /api/arcade/commit`.
    pub round_id: String,
    /// Your own seed, 1 to 256 characters without control characters. Pick a fresh random one
    /// per round: it is what makes the house unable to choose your outcome.
    pub client_seed: String,
    /// Chips; at least 1, at most 1000, and the potential profit at most 500.
    pub wager: i64,
    /// `heads` or `tails`.
    pub call: String,
    /// Optional: your signature of the auth statement; when given it must be the round owner's.
    pub signature: Option<String>,
}

/// `POST /api/arcade/dice`: the roll is 0.00 to 100.00; win if it is under (or over) `target`.
#[allow(dead_code)] // Describes the body for OpenAPI; `dice` below reads it.
#[derive(Debug, ToSchema)]
pub struct DiceBody {
    pub round_id: String,
    pub client_seed: String,
    pub wager: i64,
    /// 1 to 99.
    pub target: i64,
    /// `under` (default) or `over`.
    pub direction: Option<String>,
    pub signature: Option<String>,
}

/// `POST /api/arcade/roulette`: European wheel, pockets 0 to 36.
#[allow(dead_code)] // Describes the body for OpenAPI; `roulette` below reads it.
#[derive(Debug, ToSchema)]
pub struct RouletteBody {
    pub round_id: String,
    pub client_seed: String,
    pub wager: i64,
    /// straight, red, black, odd, even, low, high, dozen1, dozen2, dozen3, column1, column2, column3.
    pub bet: String,
    /// 0 to 36, for straight bets only.
    pub number: Option<i64>,
    pub signature: Option<String>,
}

impl AddressBody {
    pub fn parse(bytes: &[u8]) -> Result<Self, ValidationError> {
        let object = json_object(bytes)?;
        let mut fields = Fields::new(&object, "body");
        let address = address_field(&mut fields, "address");
        let signature = fields.optional_string("signature", MAX_SIGNATURE_CHARS);
        fields.finish()?;
        Ok(Self {
            address: address.unwrap_or_default(),
            signature,
        })
    }
}

/// `POST /api/arcade/cashout`.
#[derive(Debug, ToSchema)]
pub struct CashoutBody {
    /// The address whose chips are redeemed, and where the tokens go.
    #[salvo(schema(value_type = String))]
    pub address: Address,
    /// Chips to redeem, 100 to 250000 (100 base units of the token each); outside that range
    /// the answer is 400 `cashout_out_of_range`.
    pub chips: i64,
    /// Required: the signature of the address's auth statement (as for commit).
    pub signature: Option<String>,
}

impl CashoutBody {
    pub fn parse(bytes: &[u8]) -> Result<Self, ValidationError> {
        let object = json_object(bytes)?;
        let mut fields = Fields::new(&object, "body");
        let address = address_field(&mut fields, "address");
        let chips = fields.integer("chips", i64::MIN, i64::MAX);
        let signature = fields.optional_string("signature", MAX_SIGNATURE_CHARS);
        fields.finish()?;
        Ok(Self {
            address: address.unwrap_or_default(),
            chips,
            signature,
        })
    }
}

/// `POST /api/housebot/message`: the interface's inbound `AgentMessage`.
#[allow(dead_code)] // Describes the body for OpenAPI; `agent_message` below reads it.
#[derive(Debug, ToSchema)]
pub struct AgentMessageBody {
    /// Who is writing (1 to 128 characters).
    pub from_id: String,
    pub from_name: Option<String>,
    /// The message, 1 to 2000 characters.
    pub message: String,
    /// Anything that helps, up to 4000 characters.
    pub context: Option<String>,
    /// Also run the read-only tool the message asks for (games, house, recent, balance of an
    /// address). Default false.
    pub use_tools: Option<bool>,
}

pub fn agent_message(bytes: &[u8]) -> Result<AgentMessage, ValidationError> {
    let object = json_object(bytes)?;
    let mut fields = Fields::new(&object, "body");
    let from_id = non_empty(&mut fields, "from_id", 128);
    let from_name = fields.optional_string("from_name", 128);
    let message = non_empty(&mut fields, "message", 2000);
    let context = fields.optional_string("context", 4000);
    let use_tools = fields.optional_bool("use_tools").unwrap_or(false);
    fields.finish()?;
    Ok(AgentMessage {
        from_id,
        from_name,
        message,
        context,
        use_tools,
    })
}

fn non_empty(fields: &mut Fields<'_>, name: &str, max_chars: usize) -> String {
    let text = fields.string(name, max_chars);
    if fields_has_value(fields, name) && text.is_empty() {
        let loc = fields.loc(name);
        fields.push(
            FieldError::new(
                &loc,
                "string_too_short",
                "String should have at least 1 character",
                Some(json!("")),
            )
            .with_ctx(json!({ "min_length": 1 })),
        );
    }
    text
}

fn fields_has_value(fields: &Fields<'_>, name: &str) -> bool {
    fields.has(name)
}

/// `{address}` alone (the MCP balance tool; REST takes it from the path).
pub fn address_only(bytes: &[u8]) -> Result<Address, ValidationError> {
    let object = json_object(bytes)?;
    let mut fields = Fields::new(&object, "body");
    let address = address_field(&mut fields, "address");
    fields.finish()?;
    Ok(address.unwrap_or_default())
}

/// `{bet_id}` alone (the MCP verify tool; REST takes it from the path).
pub fn bet_id_only(bytes: &[u8]) -> Result<i64, ValidationError> {
    let object = json_object(bytes)?;
    let mut fields = Fields::new(&object, "body");
    let bet_id = fields.integer("bet_id", 1, i64::MAX);
    fields.finish()?;
    Ok(bet_id)
}

fn address_field(fields: &mut Fields<'_>, name: &str) -> Option<Address> {
    let text = fields.string(name, MAX_ADDRESS_CHARS);
    if text.is_empty() {
        return None;
    }
    let parsed = address::parse(&text);
    if parsed.is_none() {
        let loc = fields.loc(name);
        fields.push(FieldError::value_error(
            &loc,
            address::ADDRESS_RULE,
            json!(text),
        ));
    }
    parsed
}

/// The fields every game call shares.
struct Common {
    round_id: String,
    client_seed: String,
    wager: i64,
    signature: Option<String>,
}

fn common(fields: &mut Fields<'_>) -> Common {
    let round_id = fields.string("round_id", MAX_ROUND_ID_CHARS);
    let client_seed = fields.checked_string("client_seed", MAX_CLIENT_SEED_CHARS);
    // The core's rules (not empty, no control characters) on a seed that is a string at all.
    if let Some(Err(rule)) = client_seed.as_deref().map(ClientSeed::parse) {
        let loc = fields.loc("client_seed");
        let input = Value::String(client_seed.clone().unwrap_or_default());
        fields.push(FieldError::value_error(&loc, rule, input));
    }
    let wager = fields.integer("wager", 1, i64::MAX);
    let signature = fields.optional_string("signature", MAX_SIGNATURE_CHARS);
    Common {
        round_id,
        client_seed: client_seed.unwrap_or_default(),
        wager,
        signature,
    }
}

impl Common {
    fn into_play(self, call: Call) -> Play {
        Play {
            round_id: self.round_id,
            client_seed: self.client_seed,
            wager: u64::try_from(self.wager).unwrap_or(0),
            call,
            signature: self.signature,
        }
    }
}

pub fn flip(bytes: &[u8]) -> Result<Play, ApiError> {
    let object = json_object(bytes)?;
    let mut fields = Fields::new(&object, "body");
    let common = common(&mut fields);
    let side = fields.choice(
        "call",
        &[("heads", Side::Heads), ("tails", Side::Tails)],
        None,
    );
    fields.finish()?;
    let side = side.ok_or_else(unreachable_validation)?;
    Ok(common.into_play(Call::Coinflip(side)))
}

pub fn dice(bytes: &[u8]) -> Result<Play, ApiError> {
    let object = json_object(bytes)?;
    let mut fields = Fields::new(&object, "body");
    let common = common(&mut fields);
    let target = fields.integer("target", 1, 99);
    let directions = [("under", Direction::Under), ("over", Direction::Over)];
    let direction = fields.choice("direction", &directions, Some(Direction::Under));
    fields.finish()?;
    let direction = direction.ok_or_else(unreachable_validation)?;
    let target = u32::try_from(target).map_err(ApiError::internal)?;
    let call = Call::Dice(DiceCall::new(target, direction)?);
    Ok(common.into_play(call))
}

pub fn roulette(bytes: &[u8]) -> Result<Play, ApiError> {
    let object = json_object(bytes)?;
    let mut fields = Fields::new(&object, "body");
    let common = common(&mut fields);
    let kinds = BetKind::ALL.map(|k| (k.as_str(), k));
    let kind = fields.choice("bet", &kinds, None);
    let number = fields.optional_integer("number", 0, 36);
    fields.finish()?;
    let kind = kind.ok_or_else(unreachable_validation)?;
    let number = number
        .map(u32::try_from)
        .transpose()
        .map_err(ApiError::internal)?;
    let call = Call::Roulette(RouletteBet::new(kind, number)?);
    Ok(common.into_play(call))
}

/// `Fields::finish` refuses a request whenever a getter recorded an error, so a required choice
/// is always present after it.
fn unreachable_validation() -> ApiError {
    ApiError::internal(std::io::Error::other("validated field missing"))
}
