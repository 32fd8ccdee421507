//! Why a seed batch (or a seed's place in one) could not be read, and the row of the error table
//! each refusal is.

use crate::service::error::{ServiceError, wraps_service_error};

/// Why a seed batch (or a seed's place in one) could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SeedBatchError {
    #[error("no seed batch {0}")]
    NotFound(i64),
    #[error(
        "no commit took index {index} of seed batch {batch_id}: rows run from 0 to the batch's `used` - 1"
    )]
    NoRow { batch_id: i64, index: i64 },
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl crate::refusal::Refusal for SeedBatchError {
    fn kind(&self) -> crate::refusal::ErrorKind {
        match self {
            Self::NotFound(_) => crate::refusal::SEED_BATCH_NOT_FOUND,
            Self::NoRow { .. } => crate::refusal::SEED_ROW_NOT_FOUND,
            Self::Service(failed) => failed.kind(),
        }
    }

    fn retry_after_s(&self) -> Option<u64> {
        match self {
            Self::Service(failed) => failed.retry_after_s(),
            _ => None,
        }
    }
}

wraps_service_error!(SeedBatchError);

impl From<SeedBatchError> for ServiceError {
    /// Where a missing batch is not the caller's to name (a round's own batch): internal.
    fn from(error: SeedBatchError) -> Self {
        match error {
            SeedBatchError::Service(error) => error,
            missing @ (SeedBatchError::NotFound(_) | SeedBatchError::NoRow { .. }) => {
                ServiceError::internal(missing)
            }
        }
    }
}
