//! Opening a round (the house commits to a fresh secret seed before it sees the client seed)
//! and showing one: open, settled (with its receipt) or expired.

pub mod batch;
pub mod clock;
pub mod expiry;
pub mod ids;
pub mod opening;

use std::sync::Arc;

use alloy::primitives::Address;
use arcade_core::FAIRNESS_VERSION;
use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};

use super::auth::{AddressProof, Auth, AuthError};
use super::group_commit::GroupWriter;
use super::receipts::Receipts;
use super::receipts::receipt::BetReceipt;
use super::receipts::wire::{CommitProofs, Signed};
use super::seeds::batches::SeedBatches;
use super::seeds::error::SeedBatchError;
use super::{now_ms, rfc3339};
use crate::address;
use crate::identity::SignatureError;
use crate::proofs::typed;
use crate::rate_limits::{Caller, Operation, RateLimits};
use crate::service::error::{ServiceError, wraps_service_error};
use crate::store;
use crate::store::Db;
use crate::store::entities::round::{self, RoundState};
use batch::{CommitBatches, CommitOutcome, QueuedCommit};
use clock::RoundClock;
use ids::{is_issued_form, new_round_id};
use opening::{NewRound, commitment_message};

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Committed {
    /// Pass it to one game call; it can be played once, by this address.
    pub round_id: String,
    pub address: String,
    /// SHA-256 (hex) of the secret server seed, revealed when the round is played.
    pub commitment: String,
    pub fairness_version: u32,
    pub created_at: String,
    /// Unplayed by then, the round expires (nothing is owed: no chips were taken at commit).
    pub expires_at: String,
    /// The seed's place in its published batch and the house's signed commitment.
    pub proofs: CommitProofs,
}

/// A round as `GET /api/arcade/rounds/{round_id}` shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoundView {
    pub round_id: String,
    pub address: String,
    /// `open` (playable), `settled` (played once: see `receipt`) or `expired` (never played).
    pub state: String,
    /// SHA-256 (hex) of the server seed, fixed at commit.
    pub commitment: String,
    pub fairness_version: u32,
    pub created_at: String,
    /// When an open round expires.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expired_at: Option<String>,
    /// The settled round's receipt, server seed included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub receipt: Option<BetReceipt>,
}

/// Why a round was not opened or cannot be shown.
#[derive(Debug, thiserror::Error)]
pub enum RoundError {
    #[error("this address already holds {max} open rounds; play or let some expire first")]
    TooManyOpenRounds { max: i64 },
    #[error("no round {0}")]
    NotFound(String),
    #[error(transparent)]
    Auth(#[from] AuthError),
    #[error(transparent)]
    SeedBatch(#[from] SeedBatchError),
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl crate::refusal::Refusal for RoundError {
    fn kind(&self) -> crate::refusal::ErrorKind {
        match self {
            Self::TooManyOpenRounds { .. } => crate::refusal::TOO_MANY_OPEN_ROUNDS,
            Self::NotFound(_) => crate::refusal::ROUND_NOT_FOUND,
            Self::Auth(refused) => refused.kind(),
            Self::SeedBatch(refused) => refused.kind(),
            Self::Service(failed) => failed.kind(),
        }
    }

    fn details(&self) -> serde_json::Map<String, serde_json::Value> {
        match self {
            Self::TooManyOpenRounds { max } => {
                crate::refusal::fields([("max_open_rounds", (*max).into())])
            }
            _ => serde_json::Map::new(),
        }
    }

    fn retry_after_s(&self) -> Option<u64> {
        match self {
            Self::Auth(refused) => refused.retry_after_s(),
            Self::SeedBatch(refused) => refused.retry_after_s(),
            Self::Service(failed) => failed.retry_after_s(),
            _ => None,
        }
    }
}

wraps_service_error!(RoundError);

/// Opening rounds and showing them.
#[derive(Clone)]
pub struct Rounds {
    pub(super) db: Db,
    pub(super) rate_limits: Arc<RateLimits>,
    /// The queue into the writer that opens rounds in batches.
    pub writer: Arc<GroupWriter<CommitBatches>>,
    pub(super) clock: RoundClock,
    pub(super) seed_batches: SeedBatches,
    pub(super) auth: Auth,
    /// A settled round is shown with its receipt.
    pub(super) receipts: Receipts,
}

impl Rounds {
    pub async fn commit(
        &self,
        address: &Address,
        proof: AddressProof<'_>,
        caller: Caller,
    ) -> Result<Committed, RoundError> {
        self.rate_limits.operation(caller, Operation::Commit)?;
        let mut commit = QueuedCommit {
            round: NewRound {
                round_id: new_round_id()?,
                address: address::key(address),
                now: now_ms(),
                predecessor: None,
            },
            generation: self.auth.verify_proof_as_known(address, proof).await?,
        };
        let mut outcome = self.writer.settle(commit.clone()).await?;
        if matches!(outcome, CommitOutcome::Stale) {
            // The address rotated since this instance last read its generations: the proof is
            // checked again against the database's, and the commit tried once more.
            self.auth.forget(address);
            commit.generation = self.auth.verify_proof_as_known(address, proof).await?;
            outcome = self.writer.settle(commit.clone()).await?;
        }
        let opened = match outcome {
            CommitOutcome::Opened(opened) => opened,
            CommitOutcome::AtCap => {
                let max = self.writer.batches.max_open;
                return Err(RoundError::TooManyOpenRounds { max });
            }
            // Rotated again after the read: the proof is of an older generation now.
            CommitOutcome::Stale => {
                let revoked = SignatureError::Revoked(address::display(address));
                return Err(AuthError::from(revoked).into());
            }
        };
        self.seed_batches.keep_room(&opened.taken).await?;
        Ok(committed(&self.seed_batches, self.clock, &opened.round).await?)
    }

    pub async fn round(&self, caller: Caller, round_id: &str) -> Result<RoundView, RoundError> {
        let now = now_ms();
        if !is_issued_form(round_id) {
            return Err(RoundError::NotFound(round_id.to_owned()));
        }
        let opened = store::rounds::find(&self.db, round_id)
            .await?
            .ok_or_else(|| RoundError::NotFound(round_id.to_owned()))?;
        let receipt = match opened.state {
            RoundState::Spent => {
                let bet = store::rounds::bet_of_round(&self.db, round_id).await?;
                match bet {
                    Some(bet) => Some(self.receipts.read_receipt(caller, &bet, &opened).await?),
                    None => None,
                }
            }
            RoundState::Open => None,
        };
        Ok(RoundView {
            round_id: opened.id.clone(),
            address: address::display_key(&opened.address),
            state: self.clock.state_of(&opened, now).into(),
            commitment: opened.commitment.clone(),
            fairness_version: FAIRNESS_VERSION,
            created_at: rfc3339(opened.created_at),
            expires_at: (self.clock.state_of(&opened, now) == "open")
                .then(|| rfc3339(self.clock.expires_at(opened.created_at))),
            expired_at: (self.clock.state_of(&opened, now) == "expired").then(|| {
                rfc3339(
                    opened
                        .expired_at
                        .unwrap_or(self.clock.expires_at(opened.created_at)),
                )
            }),
            receipt,
        })
    }
}

/// A round just opened (by a commit, or by the play before it) as its owner is shown it: its
/// commitment, the house's signed Commitment and the seed's place in its published batch.
pub(super) async fn committed(
    seed_batches: &SeedBatches,
    clock: RoundClock,
    round: &round::Model,
) -> Result<Committed, SeedBatchError> {
    let player = address::display_key(&round.address);
    let (Some(message), Some(signature)) = (
        commitment_message(round, &player),
        round.commitment_signature.clone(),
    ) else {
        return Err(ServiceError::internal(Unsigned(round.id.clone())).into());
    };
    let typed_data = typed::commitment(&seed_batches.signer().domain(), &message);
    let batch = seed_batches
        .seed_place(message.batch_id, message.index)
        .await?;
    Ok(Committed {
        round_id: round.id.clone(),
        address: player.clone(),
        commitment: round.commitment.clone(),
        fairness_version: FAIRNESS_VERSION,
        created_at: rfc3339(round.created_at),
        expires_at: rfc3339(clock.expires_at(round.created_at)),
        proofs: CommitProofs {
            batch,
            commitment: Signed {
                signature,
                typed_data,
            },
        },
    })
}

/// A round opened without its batch or its signed Commitment (a defect of opening it).
#[derive(Debug, thiserror::Error)]
#[error("round {0} was opened without its seed batch or its signed commitment")]
struct Unsigned(String);
