//! Why a cashout was refused, not sent, or cannot be shown, in domain terms: the edge
//! (`error/`) turns each into its answer.

use super::CashoutReceipt;
use crate::service::auth::AuthError;
use crate::service::error::{ServiceError, wraps_service_error};
use crate::service::purchases::PurchaseError;

#[derive(Debug, thiserror::Error)]
pub enum CashoutError {
    /// The address never bought chips.
    #[error("{0} never bought chips")]
    BuyInRequired(String),
    #[error("{balance} chips cannot cover a cashout of {chips}")]
    AboveBalance { balance: i64, chips: i64 },
    /// The paid pocket is short: the rest of the balance is free chips.
    #[error("only {cashable} of the {balance} chips can be cashed out")]
    ExceedsCashable {
        chips: i64,
        cashable: i64,
        balance: i64,
    },
    #[error("no cashout {0}")]
    NotFound(i64),
    /// Debited, then refunded: the transfer was not sent.
    #[error("the transfer was not sent; the chips are back in the balance")]
    NotSent {
        /// The chain did not answer, rather than refusing the transfer.
        chain_down: bool,
        receipt: Box<CashoutReceipt>,
    },
    /// The house cannot pay this cashout now; nothing was debited.
    #[error("the house cannot pay this cashout now ({0})")]
    HouseUnderfunded(String),
    /// The books do not match the house's transactions on the chain yet (`service::books`),
    /// with how many are not matched; nothing was debited.
    #[error("{0} house transactions on the chain are not in the books yet")]
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

wraps_service_error!(CashoutError);

impl From<PurchaseError> for CashoutError {
    fn from(error: PurchaseError) -> Self {
        Self::Service(error.into())
    }
}
