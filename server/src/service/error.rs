//! The failures every service area can meet: the database out of reach, a defect (internal),
//! the chain, a missing chain configuration, and a client's rate limit. Each area's own error
//! (`PlayError`, `CashoutError`, ...) wraps this one; the edge turns both into its answers.

use crate::rate_limits::RateLimited;
use crate::refusal::{self, DATABASE_RETRY_AFTER_S, ErrorKind, Refusal};
use crate::store::DbErr;

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// A defect or the database: the cause is logged, the caller hears nothing of it.
    #[error("internal error")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The database cannot be reached now (`store::outage`); the cause is logged. Nothing a
    /// request changes is committed without it, so the caller may simply retry.
    #[error(
        "the database cannot be reached now; retry after {DATABASE_RETRY_AFTER_S} s. What was done before it failed stays done and is never done twice: a play sent again replays its round, a cashout sent again under its Idempotency-Key answers the first (without one it would be a second cashout: read GET /api/arcade/cashout/{{id}} or the balance first), a payment sent again with the same authorization is counted once"
    )]
    DatabaseUnavailable(String),
    /// The chain did not answer; nothing was charged, credited or debited.
    #[error("the chain cannot be reached; nothing was charged or credited ({0})")]
    ChainUnavailable(String),
    /// No chain is configured.
    #[error("chip purchases are not available: no chain is configured")]
    PaymentsUnavailable,
    #[error(transparent)]
    RateLimited(#[from] RateLimited),
}

impl ServiceError {
    /// A failure: the outage it is when the database could not be reached (anywhere among its
    /// causes), else a defect.
    pub fn internal(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self::from_cause(Box::new(error))
    }

    /// A failure with `cause`: the outage it is when the database could not be reached
    /// (anywhere among its causes), else internal.
    pub fn from_cause(cause: Box<dyn std::error::Error + Send + Sync>) -> Self {
        if crate::store::outage::is_unavailable_cause(cause.as_ref()) {
            Self::DatabaseUnavailable(cause.to_string())
        } else {
            Self::Internal(cause)
        }
    }
}

impl Refusal for ServiceError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Internal(_) => refusal::INTERNAL,
            Self::DatabaseUnavailable(_) => refusal::DATABASE_UNAVAILABLE,
            Self::ChainUnavailable(_) => refusal::CHAIN_UNAVAILABLE,
            Self::PaymentsUnavailable => refusal::PAYMENTS_UNAVAILABLE,
            Self::RateLimited(limited) => limited.kind(),
        }
    }

    fn retry_after_s(&self) -> Option<u64> {
        match self {
            Self::DatabaseUnavailable(_) => Some(DATABASE_RETRY_AFTER_S),
            Self::RateLimited(limited) => limited.retry_after_s(),
            _ => None,
        }
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
