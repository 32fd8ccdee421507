//! The failures every service area can meet: the database out of reach, a defect (internal),
//! the chain, a missing chain configuration, and a client's rate limit. Each area's own error
//! (`PlayError`, `CashoutError`, ...) wraps this one; the edge turns both into its answers.

use crate::rate_limits::RateLimited;
use crate::service::purchases::PurchaseError;
use crate::store::DbErr;

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// A defect or the database: the cause is logged, the caller hears nothing of it.
    #[error("internal error")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The database cannot be reached now (`store::outage`); the cause is logged. Nothing a
    /// request changes is committed without it, so the caller may simply retry.
    #[error("the database cannot be reached now")]
    DatabaseUnavailable(String),
    /// The chain did not answer; nothing was charged, credited or debited.
    #[error("the chain cannot be reached ({0})")]
    ChainUnavailable(String),
    /// No chain is configured.
    #[error("no chain is configured")]
    PaymentsUnavailable,
    #[error(transparent)]
    RateLimited(#[from] RateLimited),
}

impl ServiceError {
    pub fn internal(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self::Internal(Box::new(error))
    }
}

impl From<crate::chain::ChainError> for ServiceError {
    /// A read the chain did not answer (or refused to answer).
    fn from(error: crate::chain::ChainError) -> Self {
        Self::ChainUnavailable(error.to_string())
    }
}

impl From<DbErr> for ServiceError {
    fn from(error: DbErr) -> Self {
        if crate::store::outage::is_unavailable(&error) {
            Self::DatabaseUnavailable(error.to_string())
        } else {
            Self::internal(error)
        }
    }
}

impl From<PurchaseError> for ServiceError {
    /// Outside a purchase (a cashout's chain checks) only a purchase's failures apply.
    fn from(error: PurchaseError) -> Self {
        match error {
            PurchaseError::Unavailable => Self::PaymentsUnavailable,
            PurchaseError::ChainDown(error) => Self::ChainUnavailable(error),
            other => Self::internal(other),
        }
    }
}

/// `From` the database error and the rate limit for an area error with a
/// `Service(ServiceError)` variant, so `?` works on both inside the area.
macro_rules! wraps_service_error {
    ($area:ty) => {
        impl From<$crate::store::DbErr> for $area {
            fn from(error: $crate::store::DbErr) -> Self {
                Self::Service(error.into())
            }
        }

        impl From<$crate::rate_limits::RateLimited> for $area {
            fn from(error: $crate::rate_limits::RateLimited) -> Self {
                Self::Service(error.into())
            }
        }
    };
}

pub(crate) use wraps_service_error;
