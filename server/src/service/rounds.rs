//! Opening a round (the house commits to a fresh secret seed before it sees the client seed)
//! and showing one: open, settled (with its receipt) or expired.

use std::sync::Arc;

use alloy::primitives::Address;
use arcade_core::{Commitment, FAIRNESS_VERSION};
use salvo::oapi::ToSchema;
use sea_orm::DbErr;
use serde::{Deserialize, Serialize};

use super::auth::{AddressProof, Auth, AuthError};
use super::proofs::{CommitProofs, Signed};
use super::receipts::{BetReceipt, Receipts};
use super::round_clock::RoundClock;
use super::round_ids::{is_issued_form, new_round_id};
use super::seed_batches::{SeedBatchError, SeedBatches};
use super::{now_ms, rfc3339};
use crate::address;
use crate::proofs::typed::{self, CommitmentMessage, TypedData};
use crate::proofs::{BatchKey, hashes};
use crate::rate_limits::{Caller, Operation, RateLimits};
use crate::service::error::{ServiceError, wraps_service_error};
use crate::store;
use crate::store::Db;
use crate::store::entities::round::RoundState;
use crate::store::rounds::{NewRound, Opened, Sealed};
use crate::store::seed_batches::Taken;

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

/// No seed batch could be published in time for a commit.
#[derive(Debug, thiserror::Error)]
#[error("no seed batch has an index left, and publishing one did not make room")]
struct NoSeeds;

/// A round was opened without its commitment sealed (a defect of `open_round`).
#[derive(Debug, thiserror::Error)]
#[error("a round was opened without its commitment sealed")]
struct NotSealed;

fn db_error(error: impl std::fmt::Display) -> DbErr {
    DbErr::Custom(error.to_string())
}

/// Opening rounds and showing them.
#[derive(Clone)]
pub struct Rounds {
    pub(super) db: Db,
    pub(super) rate_limits: Arc<RateLimits>,
    /// How many rounds one address may hold open.
    pub(super) max_open: i64,
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
        self.auth.verify_proof(address, proof).await?;
        let round_id = new_round_id()?;
        let player = address::display(address);
        let now = now_ms();
        let new = NewRound {
            round_id: &round_id,
            address: &address::key(address),
            now,
        };
        let cap = self.max_open;
        let mut sealed_typed = None;
        let seal = |taken: &Taken| {
            if self.seed_batches.seeds.taken_before(taken) {
                return Ok(None);
            }
            let (sealed, typed) = self.seal(&round_id, &player, taken, now)?;
            sealed_typed = Some(typed);
            Ok(Some(sealed))
        };
        let (taken, sealed) = match self.open_round(new, cap, seal).await? {
            Opened::Opened { taken, sealed } => (taken, sealed),
            Opened::AtCap => return Err(RoundError::TooManyOpenRounds { max: cap }),
            Opened::NoSeed | Opened::Refused { .. } => {
                return Err(ServiceError::internal(NoSeeds).into());
            }
        };
        let typed_data = sealed_typed.ok_or_else(|| ServiceError::internal(NotSealed))?;
        if taken.left < self.seed_batches.seeds.low_water() {
            self.seed_batches.ensure_seed_room().await?;
        }
        Ok(Committed {
            round_id,
            address: player,
            commitment: sealed.commitment,
            fairness_version: FAIRNESS_VERSION,
            created_at: rfc3339(now),
            expires_at: rfc3339(self.clock.expires_at(now)),
            proofs: CommitProofs {
                batch: self
                    .seed_batches
                    .seed_place(taken.batch_id, taken.index)
                    .await?,
                commitment: Signed {
                    signature: sealed.signature,
                    typed_data,
                },
            },
        })
    }

    /// Seed `taken` for a round: the seed, its commitment and the house's signature of the
    /// commitment, with the typed data signed.
    fn seal(
        &self,
        round_id: &str,
        player: &str,
        taken: &Taken,
        now: i64,
    ) -> Result<(Sealed, TypedData), DbErr> {
        let batch = BatchKey {
            id: taken.batch_id,
            salt: taken.salt.as_deref(),
        };
        let server_seed = self.seed_batches.seeds.book.seed(batch, taken.index);
        let commitment = Commitment::of(&server_seed).as_str().to_owned();
        let message = CommitmentMessage {
            round_id,
            player,
            commitment: &commitment,
            batch_id: taken.batch_id,
            index: taken.index,
            fairness_version: FAIRNESS_VERSION,
            created_at: now / 1000,
        };
        let signer = &self.seed_batches.seeds.signer;
        let hash = hashes::commitment(signer.eip712_domain(), &message).map_err(db_error)?;
        let signature = signer.sign_hash(&hash).map_err(db_error)?;
        let typed = typed::commitment(&signer.domain(), &message);
        let sealed = Sealed {
            server_seed,
            commitment,
            signature,
        };
        Ok((sealed, typed))
    }

    /// Opens a round, publishing a batch first when every batch of this instance is used up,
    /// or when its batch went back under it (then the round is opened on a new batch).
    async fn open_round(
        &self,
        new: NewRound<'_>,
        cap: i64,
        mut seal: impl FnMut(&Taken) -> Result<Option<Sealed>, DbErr>,
    ) -> Result<Opened, ServiceError> {
        let owner = &self.seed_batches.seeds.instance;
        for _ in 0..10 {
            match store::rounds::open(&self.db, new, cap, owner, &mut seal).await? {
                Opened::NoSeed => self.seed_batches.ensure_seed_room().await?,
                Opened::Refused { taken } => {
                    self.seed_batches.abandon_rewound(&taken).await?;
                    self.seed_batches.ensure_seed_room().await?;
                }
                Opened::Opened { taken, sealed } => {
                    self.seed_batches.seeds.committed(&taken);
                    return Ok(Opened::Opened { taken, sealed });
                }
                Opened::AtCap => return Ok(Opened::AtCap),
            }
        }
        Ok(Opened::NoSeed)
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
