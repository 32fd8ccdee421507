//! Opening a round: the house commits to a fresh secret seed before it sees the client seed.

use alloy::primitives::Address;
use arcade_core::{Commitment, FAIRNESS_VERSION, server_seed_from_bytes};
use salvo::oapi::ToSchema;
use sea_orm::{ActiveValue::Set, EntityTrait};
use serde::Serialize;

use super::{Arcade, now_ms, rfc3339};
use crate::address;
use crate::entities::round;
use crate::error::ApiError;

#[derive(Debug, Serialize, ToSchema)]
pub struct Committed {
    /// Pass it to one game call; it can be played once, by this address.
    pub round_id: String,
    pub address: String,
    /// SHA-256 (hex) of the secret server seed, revealed when the round is played.
    pub commitment: String,
    pub fairness_version: u32,
    pub created_at: String,
}

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
        let row = round::ActiveModel {
            id: Set(round_id.clone()),
            address: Set(address::key(address)),
            server_seed: Set(server_seed),
            commitment: Set(commitment.as_str().to_owned()),
            state: Set(round::OPEN.to_owned()),
            created_at: Set(now),
            spent_at: Set(None),
        };
        round::Entity::insert(row)
            .exec_without_returning(&self.db)
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
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::internal(std::io::Error::other(e.to_string())))?;
    Ok(bytes)
}
