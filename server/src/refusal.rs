//! Refusals, written once: the error table (every `code` a client can receive, with its status
//! and what it means) and [`Refusal`], by which each domain error names its own row, its
//! sentence and the fields that help its caller. The edges (`crate::error`) render a refusal
//! from these alone; nothing here knows HTTP or MCP.

use arcade_core::LimitError;
use serde_json::{Map, Value};

/// One row: what a client sees and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorKind {
    pub status: u16,
    pub code: &'static str,
    pub meaning: &'static str,
}

macro_rules! error_table {
    ($($name:ident: $status:literal $code:literal $meaning:literal,)*) => {
        $(pub const $name: ErrorKind = ErrorKind { status: $status, code: $code, meaning: $meaning };)*
        /// Every row, in the order written.
        pub const TABLE: &[ErrorKind] = &[$($name),*];
    };
}

error_table! {
    VALIDATION: 422 "validation_error" "the request is not valid (FastAPI's HTTPValidationError, every problem at once)",
    INSUFFICIENT_CHIPS: 400 "insufficient_chips" "the balance cannot cover the wager or cashout",
    WAGER_BELOW_MINIMUM: 400 "wager_below_minimum" "wagers start at 1 chip",
    WAGER_ABOVE_LIMIT: 400 "wager_above_limit" "above the largest wager (with max_wager)",
    PAYOUT_ABOVE_LIMIT: 400 "payout_above_limit" "a win would pay more profit than the payout limit (with max_wager)",
    DAILY_WIN_CAP: 400 "daily_win_cap" "a win would take today's net winnings above the daily cap",
    PLAY_SIGNATURE_INVALID: 400 "play_signature_invalid" "play_signature is not a 65-byte hex signature",
    BUY_IN_REQUIRED: 400 "buy_in_required" "a cashout needs a purchase first",
    PAYMENT_IDENTIFIER_INVALID: 400 "payment_identifier_invalid" "the payment's payment-identifier is not 16 to 128 of A-Z, a-z, 0-9, - and _",
    IDEMPOTENCY_KEY_INVALID: 400 "idempotency_key_invalid" "the cashout's Idempotency-Key is not 1 to 255 visible ASCII characters",
    CASHOUT_EXCEEDS_CASHABLE: 400 "cashout_exceeds_cashable" "free chips cannot be cashed out (with cashable)",
    SIGNATURE_REQUIRED: 401 "signature_required" "a signature of the auth statement is required",
    SIGNATURE_INVALID: 401 "signature_invalid" "the signature is not a 65-byte hex signature",
    SIGNATURE_REVOKED: 401 "signature_revoked" "a signature of a statement its owner rotated away from",
    PAYMENT_REQUIRED: 402 "payment_required" "pay: the x402 challenge",
    INVALID_PAYLOAD: 402 "invalid_payload" "the payment header does not parse",
    PAYMENT_ALREADY_USED: 402 "payment_already_used" "this authorization was presented before",
    PAYMENT_REFUSED: 402 "payment_refused" "the payment was refused (the x402 reason in error)",
    SIGNATURE_MISMATCH: 403 "signature_mismatch" "the signature does not sign the address's current statement",
    PLAY_SIGNATURE_MISMATCH: 403 "play_signature_mismatch" "play_signature is not the owner's signature of this play",
    ROUND_NOT_YOURS: 403 "round_not_yours" "the round was opened by another address",
    ORIGIN_FORBIDDEN: 403 "origin_forbidden" "requests from this browser origin are not allowed",
    ROUND_NOT_FOUND: 404 "round_not_found" "no such round",
    SEED_BATCH_NOT_FOUND: 404 "seed_batch_not_found" "no such seed batch",
    SEED_ROW_NOT_FOUND: 404 "seed_row_not_found" "no commit took this index of the seed batch",
    BET_NOT_FOUND: 404 "bet_not_found" "no such settled bet",
    CASHOUT_NOT_FOUND: 404 "cashout_not_found" "no such cashout",
    NOT_FOUND: 404 "not_found" "no such resource",
    METHOD_NOT_ALLOWED: 405 "method_not_allowed" "the path does not take this method",
    ROUND_SPENT: 409 "round_spent" "the round was played (with the bet_id that settled it)",
    ROUND_EXPIRED: 409 "round_expired" "the round expired unplayed",
    FREE_ALREADY_CLAIMED: 409 "free_already_claimed" "the address claimed its free chips",
    PAYMENT_IDENTIFIER_CONFLICT: 409 "payment_identifier_conflict" "the payment-identifier was sent before with another payment",
    IDEMPOTENCY_KEY_CONFLICT: 409 "idempotency_key_conflict" "the Idempotency-Key was sent before with another cashout",
    PAYLOAD_TOO_LARGE: 413 "payload_too_large" "the request body is too large",
    RATE_LIMITED: 429 "rate_limited" "too many requests (with retry_after_s and Retry-After)",
    TOO_MANY_OPEN_ROUNDS: 429 "too_many_open_rounds" "the address holds its most open rounds (with max_open_rounds)",
    INTERNAL: 500 "internal" "the cause is logged, the body says nothing",
    CASHOUT_FAILED: 502 "cashout_failed" "the transfer could not be sent; the chips were refunded",
    CHAIN_UNAVAILABLE: 503 "chain_unavailable" "the chain cannot be reached; nothing was charged, credited or debited",
    PAYMENTS_UNAVAILABLE: 503 "payments_unavailable" "no chain is configured",
    HOUSE_UNDERFUNDED: 503 "house_underfunded" "the house cannot pay this cashout now; nothing debited",
    BOOKS_BEHIND: 503 "books_behind_chain" "the books are matching the house's transactions on the chain (after a restore of the database); no play is taken and no cashout is debited or sent until they do (with retry_after_s and Retry-After)",
    WASM_NOT_BUILT: 503 "wasm_not_built" "the verifier page's wasm is not built",
    NOT_READY: 503 "not_ready" "a dependency is failing (readiness)",
    DATABASE_UNAVAILABLE: 503 "database_unavailable" "the database cannot be reached now; retry (with retry_after_s and Retry-After): nothing done is done twice",
}

/// Seconds a client is told to wait after `database_unavailable` or `books_behind_chain`.
pub const DATABASE_RETRY_AFTER_S: u64 = 2;

/// A domain error as its callers are answered: its sentence is its `Display` (the `detail`), and
/// a failure's cause (a 500, the database out of reach) is in its `Debug` alone, which the
/// edges log and never show.
pub trait Refusal: std::fmt::Display + std::fmt::Debug + Send + Sync + 'static {
    /// Its row of the error table.
    fn kind(&self) -> ErrorKind;
    /// Fields that help the caller act on it, beside `detail` and `code` (`max_wager`, ...).
    fn details(&self) -> Map<String, Value> {
        Map::new()
    }
    /// Seconds the caller should wait before sending again, if it says (`retry_after_s` and
    /// `Retry-After`).
    fn retry_after_s(&self) -> Option<u64> {
        None
    }
}

/// `{name: value}` pairs as the fields of [`Refusal::details`].
pub fn fields<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value))
        .collect()
}

impl Refusal for LimitError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::WagerBelowMinimum { .. } => WAGER_BELOW_MINIMUM,
            Self::WagerAboveLimit { .. } => WAGER_ABOVE_LIMIT,
            Self::PayoutAboveLimit { .. } => PAYOUT_ABOVE_LIMIT,
            Self::DailyWinCap { .. } => DAILY_WIN_CAP,
        }
    }

    fn details(&self) -> Map<String, Value> {
        match self.max_wager() {
            Some(max) => fields([("max_wager", max.into())]),
            None => Map::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn each_code_has_one_row() {
        let codes: HashSet<&str> = TABLE.iter().map(|kind| kind.code).collect();
        assert_eq!(codes.len(), TABLE.len());
    }

    /// The table of errors in docs/api.md is this table, row for row.
    #[test]
    fn docs_api_lists_every_row_and_no_other() {
        let document = include_str!("../../docs/api.md");
        let listed: Vec<&str> = document
            .lines()
            .filter(|line| line.starts_with("| 4") || line.starts_with("| 5"))
            .filter(|line| line.contains(" | `"))
            .collect();
        let rows: Vec<String> = TABLE
            .iter()
            .map(|kind| format!("| {} | `{}` | {} |", kind.status, kind.code, kind.meaning))
            .collect();
        assert_eq!(listed, rows);
    }

    #[test]
    fn the_core_names_its_refusals_as_the_table_does() {
        let limits = [
            LimitError::WagerBelowMinimum { wager: 0 },
            LimitError::WagerAboveLimit {
                wager: 2,
                max_wager: 1,
            },
            LimitError::PayoutAboveLimit {
                wager: 2,
                potential_profit: 2,
                max_payout: 1,
                max_wager: 1,
            },
            LimitError::DailyWinCap {
                net_today: 0,
                potential_profit: 2,
                cap: 1,
            },
        ];
        for limit in limits {
            assert_eq!(limit.kind().code, limit.code());
        }
    }
}
