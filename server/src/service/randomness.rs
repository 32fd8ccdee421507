//! The service's one source of randomness: bytes from the operating system's CSPRNG, for
//! round ids, seed batches' ids and salts, and first-generation nonces.

use super::error::ServiceError;

/// The operating system's random generator failed.
#[derive(Debug, thiserror::Error)]
#[error("the operating system's random generator failed: {0}")]
pub struct NoRandomness(String);

/// Bytes from the operating system's CSPRNG.
pub(super) fn random_bytes<const N: usize>() -> Result<[u8; N], ServiceError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| ServiceError::internal(NoRandomness(e.to_string())))?;
    Ok(bytes)
}
