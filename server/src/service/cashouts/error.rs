//! Why a cashout was refused, not sent, or cannot be shown, in domain terms: the edge
//! (`error/`) turns each into its answer.

use super::receipt::CashoutReceipt;
use crate::service::auth::AuthError;
use crate::service::error::{ServiceError, wraps_service_error};
use crate::service::purchases::error::PurchaseError;

#[derive(Debug, thiserror::Error)]
pub enum CashoutError {
    /// The address never bought chips.
    #[error(
        "{0} never bought chips; free chips can be played but a buy-in is required before a cashout"
    )]
    BuyInRequired(String),
    #[error("{balance} chips cannot cover a cashout of {chips}")]
    AboveBalance { balance: i64, chips: i64 },
    /// The paid pocket is short: the rest of the balance is free chips.
    #[error(
        "only {cashable} of the {balance} chips can be cashed out: the rest are free chips (play money: the free grant and what free chips won back), which can be played but not cashed out"
    )]
    ExceedsCashable {
        chips: i64,
        cashable: i64,
        balance: i64,
    },
    #[error("no cashout {0}")]
    NotFound(i64),
    /// Debited, then refunded: the transfer was not sent.
    #[error("{}; the {} chips are back in the balance", .receipt.error.as_deref().unwrap_or("the transfer was not sent"), .receipt.chips)]
    NotSent {
        /// The chain did not answer, rather than refusing the transfer.
        chain_down: bool,
        receipt: Box<CashoutReceipt>,
    },
    /// The house cannot pay this cashout now; nothing was debited.
    #[error("the house cannot pay this cashout now ({0}); nothing was debited, try again later")]
    HouseUnderfunded(String),
    /// The books do not match the house's transactions on the chain yet (`service::books`),
    /// with how many are not matched; nothing was debited.
    #[error(
        "the books are matching the house's transactions on the chain ({0} not matched yet, as after a restore of the database); nothing was taken, try again shortly"
    )]
    BooksBehind(u64),
    /// The idempotency key is malformed; nothing was debited.
    #[error("{0}")]
    IdempotencyKeyInvalid(String),
    /// The address sent the key before, with other chips; nothing was debited.
    #[error(
        "this idempotency key was sent before with a cashout of {chips} chips (cashout {cashout_id}); use a new key for a new cashout"
    )]
    IdempotencyKeyConflict { cashout_id: i64, chips: i64 },
    #[error(transparent)]
    Auth(#[from] AuthError),
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl crate::refusal::Refusal for CashoutError {
    fn kind(&self) -> crate::refusal::ErrorKind {
        match self {
            Self::BuyInRequired(_) => crate::refusal::BUY_IN_REQUIRED,
            Self::AboveBalance { .. } => crate::refusal::INSUFFICIENT_CHIPS,
            Self::ExceedsCashable { .. } => crate::refusal::CASHOUT_EXCEEDS_CASHABLE,
            Self::NotFound(_) => crate::refusal::CASHOUT_NOT_FOUND,
            Self::NotSent {
                chain_down: true, ..
            } => crate::refusal::CHAIN_UNAVAILABLE,
            Self::NotSent { .. } => crate::refusal::CASHOUT_FAILED,
            Self::HouseUnderfunded(_) => crate::refusal::HOUSE_UNDERFUNDED,
            Self::BooksBehind(_) => crate::refusal::BOOKS_BEHIND,
            Self::IdempotencyKeyInvalid(_) => crate::refusal::IDEMPOTENCY_KEY_INVALID,
            Self::IdempotencyKeyConflict { .. } => crate::refusal::IDEMPOTENCY_KEY_CONFLICT,
            Self::Auth(refused) => refused.kind(),
            Self::Service(failed) => failed.kind(),
        }
    }

    /// The refunded cashout itself (its id, status and balance) when its transfer was not sent.
    fn details(&self) -> serde_json::Map<String, serde_json::Value> {
        match self {
            Self::AboveBalance { balance, .. } => {
                crate::refusal::fields([("balance", (*balance).into())])
            }
            Self::ExceedsCashable {
                cashable, balance, ..
            } => crate::refusal::fields([
                ("cashable", (*cashable).into()),
                ("balance", (*balance).into()),
            ]),
            Self::NotSent { receipt, .. } => match serde_json::to_value(receipt) {
                Ok(serde_json::Value::Object(fields)) => fields,
                _ => serde_json::Map::new(),
            },
            _ => serde_json::Map::new(),
        }
    }

    fn retry_after_s(&self) -> Option<u64> {
        match self {
            Self::BooksBehind(_) => Some(crate::refusal::DATABASE_RETRY_AFTER_S),
            Self::Auth(refused) => refused.retry_after_s(),
            Self::Service(failed) => failed.retry_after_s(),
            _ => None,
        }
    }
}

wraps_service_error!(CashoutError);

impl From<PurchaseError> for CashoutError {
    fn from(error: PurchaseError) -> Self {
        Self::Service(error.into())
    }
}
