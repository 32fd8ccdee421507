//! Re-deriving a receipt and reporting each check (fairness v1, "Receipts").

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::call::Call;
use crate::error::ReceiptError;
use crate::game::GameRules;
use crate::mismatch::{Check, Mismatch, push_if_differs};
use crate::round::{GameResult, Round, Settlement};
use crate::seed::{ClientSeed, Commitment, ServerSeed};

/// The only fairness version there is.
pub const FAIRNESS_VERSION: u32 = 1;

/// A settled round as a receipt presents it: the inputs that decide it and what was claimed.
#[derive(Debug, Clone, PartialEq)]
pub struct Receipt {
    /// Must be [`FAIRNESS_VERSION`].
    pub fairness_version: u32,
    /// The commitment published before play.
    pub commitment: String,
    /// The revealed server seed.
    pub server_seed: String,
    /// The player's seed.
    pub client_seed: String,
    /// 0 for arcade rounds.
    pub nonce: u64,
    /// Chips wagered.
    pub wager: u64,
    /// The game and its parameters.
    pub call: Call,
    /// What the receipt says happened.
    pub claimed: Claimed,
}

/// The claimed settlement of a receipt.
#[derive(Debug, Clone, PartialEq)]
pub struct Claimed {
    /// The claimed result object.
    pub result: ClaimedResult,
    /// Claimed win or loss.
    pub won: bool,
    /// Claimed payout.
    pub payout: u64,
    /// Claimed profit.
    pub profit: i64,
}

macro_rules! claimed_results {
    ($($(#[$doc:meta])* $module:ident :: $Rules:ident,)*) => {
        /// A receipt's result object as claimed: every game's fields, each game's under its
        /// own names at the top of the object; the receipt's game reads its own (its outcome
        /// is required, the rest is checked when present).
        #[derive(Debug, Clone, PartialEq, Default)]
        #[cfg_attr(feature = "serde", derive(serde::Deserialize))]
        pub struct ClaimedResult {
            $(
                #[doc = concat!(
                    "The fields of [`", stringify!($module), "`](crate::", stringify!($module), ")."
                )]
                #[cfg_attr(feature = "serde", serde(flatten))]
                pub $module: <crate::$module::$Rules as GameRules>::Claimed,
            )*
        }

        impl ClaimedResult {
            /// The result this claim names for `call`, read as `call`'s game reads it (see
            /// [`GameRules::result_of`]).
            pub fn result_for(&self, call: &Call) -> Result<GameResult, ReceiptError> {
                Ok(match call {
                    $(Call::$Rules(call) => GameResult::$Rules(
                        <crate::$module::$Rules as GameRules>::result_of(call, &self.$module)?,
                    ),)*
                })
            }
        }

        /// Compares the claimed result with the derived one, by the derived result's game.
        fn compare_result(
            derived: &GameResult,
            claimed: &ClaimedResult,
            out: &mut Vec<Mismatch>,
        ) -> Result<(), ReceiptError> {
            match derived {
                $(GameResult::$Rules(result) => {
                    <crate::$module::$Rules as GameRules>::compare(result, &claimed.$module, out)
                })*
            }
        }
    };
}

for_each_game!(claimed_results);

/// Which checks passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Checks {
    /// `sha256(server_seed) == commitment`.
    pub commitment: bool,
    /// The result re-derives.
    pub outcome: bool,
    /// The payout re-derives.
    pub payout: bool,
}

/// The report of [`verify`].
#[derive(Debug, Clone, PartialEq)]
pub struct Verification {
    /// SHA-256 of the revealed server seed.
    pub commitment: Commitment,
    /// The HMAC message of block 0, `client_seed:nonce:0`.
    pub message: String,
    /// The round as re-derived.
    pub settlement: Settlement,
    /// Which checks passed.
    pub checks: Checks,
    /// Every differing field, in check order.
    pub mismatches: Vec<Mismatch>,
}

impl Verification {
    /// All three checks passed.
    pub fn verified(&self) -> bool {
        self.checks.commitment && self.checks.outcome && self.checks.payout
    }
}

/// Re-derives `receipt` from its seeds, call and wager and compares every claimed field.
///
/// `Err` means the receipt cannot be re-derived at all (malformed seeds, call or wager, or an
/// unknown version); a receipt that re-derives to something else is `Ok` with failed checks.
pub fn verify(receipt: &Receipt) -> Result<Verification, ReceiptError> {
    if receipt.fairness_version != FAIRNESS_VERSION {
        return Err(ReceiptError::UnsupportedVersion {
            version: receipt.fairness_version,
        });
    }
    let server_seed = ServerSeed::parse(&receipt.server_seed)?;
    let client_seed = ClientSeed::parse(&receipt.client_seed)?;
    let round = Round::new(
        server_seed,
        client_seed,
        receipt.nonce,
        receipt.call,
        receipt.wager,
    )?;
    let settlement = round.settle();
    let commitment = server_seed.commitment();

    let mismatches = mismatches(receipt, &commitment, &settlement)?;
    let passed = |check: Check| !mismatches.iter().any(|m| m.check == check);
    let checks = Checks {
        commitment: passed(Check::Commitment),
        outcome: passed(Check::Outcome),
        payout: passed(Check::Payout),
    };
    Ok(Verification {
        commitment,
        message: round.stream().message(0),
        settlement,
        checks,
        mismatches,
    })
}

/// Every claimed field of `receipt` that differs from the re-derived one, in check order;
/// `Err` when the claimed result lacks its game's outcome.
fn mismatches(
    receipt: &Receipt,
    commitment: &Commitment,
    settlement: &Settlement,
) -> Result<Vec<Mismatch>, ReceiptError> {
    let mut out = Vec::new();
    if !commitment.matches(&receipt.commitment) {
        out.push(Mismatch {
            check: Check::Commitment,
            field: "commitment",
            derived: commitment.as_str().to_string(),
            claimed: receipt.commitment.clone(),
        });
    }
    let claimed = &receipt.claimed;
    compare_result(&settlement.result, &claimed.result, &mut out)?;
    push_if_differs(&mut out, Check::Outcome, "won", settlement.won, claimed.won);
    let (payout, profit) = (settlement.payout, settlement.profit);
    push_if_differs(&mut out, Check::Payout, "payout", payout, claimed.payout);
    push_if_differs(&mut out, Check::Payout, "profit", profit, claimed.profit);
    Ok(out)
}
