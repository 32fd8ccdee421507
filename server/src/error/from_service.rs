//! Each service area's domain error as the edge answers it: one `From` per area, so the REST
//! and MCP edges reach an `ApiError` through `?`. The status, code and detail of each answer
//! come from the `ApiError` variant chosen here.

use super::ApiError;
use crate::service::auth::AuthError;
use crate::service::cashouts::CashoutError;
use crate::service::error::ServiceError;
use crate::service::play::PlayError;
use crate::service::purchases::PurchaseError;
use crate::service::receipts::ReceiptError;
use crate::service::rounds::RoundError;
use crate::service::seed_batches::SeedBatchError;
use crate::service::wallets::WalletError;

impl From<ServiceError> for ApiError {
    fn from(error: ServiceError) -> Self {
        match error {
            ServiceError::Internal(cause) => Self::Internal(cause),
            ServiceError::ChainUnavailable(why) => Self::ChainUnavailable(why),
            ServiceError::PaymentsUnavailable => Self::PaymentsUnavailable,
            ServiceError::RateLimited(limited) => Self::RateLimited(limited),
        }
    }
}

impl From<AuthError> for ApiError {
    fn from(error: AuthError) -> Self {
        match error {
            AuthError::Signature(signature) => Self::Signature(signature),
            AuthError::Service(error) => error.into(),
        }
    }
}

impl From<SeedBatchError> for ApiError {
    fn from(error: SeedBatchError) -> Self {
        match error {
            SeedBatchError::NotFound(batch_id) => Self::SeedBatchNotFound(batch_id),
            SeedBatchError::Service(error) => error.into(),
        }
    }
}

impl From<WalletError> for ApiError {
    fn from(error: WalletError) -> Self {
        match error {
            WalletError::FreeAlreadyClaimed(address) => Self::FreeAlreadyClaimed(address),
            WalletError::Auth(error) => error.into(),
            WalletError::Service(error) => error.into(),
        }
    }
}

impl From<RoundError> for ApiError {
    fn from(error: RoundError) -> Self {
        match error {
            RoundError::TooManyOpenRounds { max } => Self::TooManyOpenRounds { max },
            RoundError::NotFound(round_id) => Self::RoundNotFound(round_id),
            RoundError::Auth(error) => error.into(),
            RoundError::SeedBatch(error) => error.into(),
            RoundError::Service(error) => error.into(),
        }
    }
}

impl From<PlayError> for ApiError {
    fn from(error: PlayError) -> Self {
        match error {
            PlayError::RoundNotFound(round_id) => Self::RoundNotFound(round_id),
            PlayError::RoundExpired(round_id) => Self::RoundExpired(round_id),
            PlayError::RoundSpent { round_id, bet_id } => Self::RoundSpent { round_id, bet_id },
            PlayError::RoundNotYours(round_id) => Self::RoundNotYours(round_id),
            PlayError::InsufficientChips { balance, wager } => {
                Self::InsufficientChips { balance, wager }
            }
            PlayError::Limit(limit) => Self::Limit(limit),
            PlayError::PlaySignature(signature) => Self::PlaySignature(signature),
            PlayError::Auth(error) => error.into(),
            PlayError::SeedBatch(error) => error.into(),
            PlayError::Service(error) => error.into(),
        }
    }
}

impl From<ReceiptError> for ApiError {
    fn from(error: ReceiptError) -> Self {
        match error {
            ReceiptError::BetNotFound(bet_id) => Self::BetNotFound(bet_id),
            ReceiptError::SeedBatch(error) => error.into(),
            ReceiptError::Service(error) => error.into(),
        }
    }
}

impl From<CashoutError> for ApiError {
    fn from(error: CashoutError) -> Self {
        match error {
            CashoutError::BuyInRequired(address) => Self::BuyInRequired(address),
            CashoutError::AboveBalance { balance, chips } => {
                Self::CashoutAboveBalance { balance, chips }
            }
            CashoutError::ExceedsCashable {
                chips,
                cashable,
                balance,
            } => Self::CashoutExceedsCashable {
                chips,
                cashable,
                balance,
            },
            CashoutError::NotFound(id) => Self::CashoutNotFound(id),
            CashoutError::NotSent {
                chain_down,
                receipt,
            } => Self::CashoutNotSent {
                chain_down,
                receipt,
            },
            CashoutError::HouseUnderfunded(why) => Self::HouseUnderfunded(why),
            CashoutError::Auth(error) => error.into(),
            CashoutError::Service(error) => error.into(),
        }
    }
}

impl From<PurchaseError> for ApiError {
    /// Outside a purchase request (the offer is not at hand), a purchase error has no 402 to
    /// answer with: only its failures apply.
    fn from(error: PurchaseError) -> Self {
        ServiceError::from(error).into()
    }
}
