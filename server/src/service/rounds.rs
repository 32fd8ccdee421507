//! Opening a round: the house commits to a fresh secret seed before it sees the client seed.

use alloy::primitives::Address;
use arcade_core::{Commitment, FAIRNESS_VERSION, server_seed_from_bytes};
use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};

use super::{Arcade, now_ms, rfc3339};
use crate::address;
use crate::error::ApiError;
use crate::store;

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Committed {
    /// Pass it to one game call; it can be played once, by this address.
    pub round_id: String,
    pub address: String,
    /// SHA-256 (hex) of the secret server seed, revealed when the round is played.
    pub commitment: String,
    pub fairness_version: u32,
    pub created_at: String,
}

/// The operating system's random generator failed.
#[derive(Debug, thiserror::Error)]
#[error("the operating system's random generator failed: {0}")]
pub struct NoRandomness(String);

impl Arcade {
    pub async fn commit(
        &self,
        address: &Address,
        signature: Option<&str>,
    ) -> Result<Committed, ApiError> {
        self.identity.verify(address, signature)?;
        let server_seed = server_seed_from_bytes(&random_bytes()?);
        let commitment = Commitment::of(&server_seed);
        let round_id = format!("r_{}", alloy::hex::encode(random_bytes::<16>()?));
        let now = now_ms();
        store::rounds::open(
            &self.db,
            &round_id,
            &address::key(address),
            &server_seed,
            commitment.as_str(),
            now,
        )
        .await?;
        Ok(Committed {
            round_id,
            address: address::display(address),
            commitment: commitment.as_str().to_owned(),
            fairness_version: FAIRNESS_VERSION,
            created_at: rfc3339(now),
        })
    }
}

/// Bytes from the operating system's CSPRNG.
fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::internal(NoRandomness(e.to_string())))?;
    Ok(bytes)
}
