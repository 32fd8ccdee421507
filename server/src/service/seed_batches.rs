//! Pre-committed seeds: publishing batches (signed Merkle roots) before they are needed, one
//! instance at a time, and showing them with every index accounted for.

use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};

use super::{Arcade, now_ms, rfc3339};
use crate::address;
use crate::error::ApiError;
use crate::proofs::typed::{self, TypedData};
use crate::proofs::{HouseSigner, SeedBook, SigningThread};
use crate::store;
use crate::store::entities::round::RoundState;
use crate::store::entities::seed_batch;

/// The house's seeds: the signer, the batches' secret and their size.
#[derive(Debug)]
pub struct Seeds {
    pub signer: HouseSigner,
    /// Signs half of a large batch's receipts beside the play writer.
    pub receipt_signer: SigningThread,
    pub book: SeedBook,
    pub batch_size: i64,
    /// Held while this instance publishes a batch.
    publishing: tokio::sync::Mutex<()>,
    /// Each batch's size (fixed once published).
    sizes: std::sync::Mutex<std::collections::HashMap<i64, i64>>,
}

impl Seeds {
    pub fn new(signer: HouseSigner, book: SeedBook, batch_size: u64) -> Self {
        Self {
            receipt_signer: SigningThread::new(signer.clone()),
            signer,
            book,
            batch_size: i64::try_from(batch_size.max(1)).unwrap_or(i64::MAX),
            publishing: tokio::sync::Mutex::new(()),
            sizes: std::sync::Mutex::default(),
        }
    }

    /// Indices left below which the next batch is published.
    fn low_water(&self) -> i64 {
        (self.batch_size / 4).max(1)
    }
}

/// A published batch, as `GET /api/arcade/seed-batches` lists it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeedBatchView {
    pub batch_id: i64,
    pub size: i64,
    /// Indices commits have taken so far.
    pub used: i64,
    /// RFC 9162 tree head over the seeds' commitments (64 hex).
    pub merkle_root: String,
    pub created_at: String,
    /// The house's EIP-712 signature of `typed_data` (a `SeedBatch`).
    pub signature: String,
    #[salvo(schema(value_type = Object))]
    pub typed_data: TypedData,
    /// Every used index (`GET /api/arcade/seed-batches/{batch_id}` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<Vec<SeedUse>>,
}

/// One used index of a batch.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeedUse {
    pub index: i64,
    pub round_id: String,
    /// `open` (seed still secret), `settled` or `expired` (seed revealed).
    pub state: String,
    pub commitment: String,
    pub server_seed: Option<String>,
    pub bet_id: Option<i64>,
    /// Opened by the house's own agents.
    pub house_agent: bool,
    /// Sibling hashes from the leaf up (RFC 9162).
    pub audit_path: Vec<String>,
}

impl Arcade {
    /// Publishes the next batch if the batches have fewer than a quarter batch left (on
    /// start, and when a commit sees its batch running low). Instances race on the next id;
    /// one wins, the others' insert changes nothing.
    pub async fn ensure_seed_room(&self) -> Result<(), ApiError> {
        let _publishing = self.seeds.publishing.lock().await;
        let (last_id, left) = store::seed_batches::room(&self.db).await?;
        if left >= self.seeds.low_water() {
            return Ok(());
        }
        let batch = self.new_batch(last_id + 1)?;
        if store::seed_batches::publish(&self.db, batch).await? {
            tracing::info!(batch_id = last_id + 1, "published a seed batch");
        }
        Ok(())
    }

    fn new_batch(&self, batch_id: i64) -> Result<seed_batch::Model, ApiError> {
        let size = self.seeds.batch_size;
        let root = arcade_core::hex::encode(&self.seeds.book.tree(batch_id, size).root());
        let created_at = now_ms();
        let typed = typed::seed_batch(
            &self.seeds.signer.domain(),
            batch_id,
            size,
            &root,
            created_at / 1000,
        );
        Ok(seed_batch::Model {
            id: batch_id,
            size,
            next_index: 0,
            merkle_root: root,
            created_at,
            signature: self
                .seeds
                .signer
                .sign(&typed.to_value())
                .map_err(ApiError::internal)?,
        })
    }

    /// A published batch's size.
    pub(super) async fn batch_size(&self, batch_id: i64) -> Result<i64, ApiError> {
        let known = |sizes: &std::sync::Mutex<std::collections::HashMap<i64, i64>>| {
            sizes
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&batch_id)
                .copied()
        };
        if let Some(size) = known(&self.seeds.sizes) {
            return Ok(size);
        }
        let batch = store::seed_batches::find(&self.db, batch_id)
            .await?
            .ok_or(ApiError::SeedBatchNotFound(batch_id))?;
        self.seeds
            .sizes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(batch_id, batch.size);
        Ok(batch.size)
    }

    /// The audit path of seed `index` of a batch, as hex.
    pub(super) fn audit_path(&self, batch_id: i64, size: i64, index: i64) -> Vec<String> {
        let tree = self.seeds.book.tree(batch_id, size);
        usize::try_from(index)
            .map(|index| tree.audit_path(index))
            .unwrap_or_default()
            .iter()
            .map(|hash| arcade_core::hex::encode(hash))
            .collect()
    }

    pub async fn seed_batches(&self) -> Result<Vec<SeedBatchView>, ApiError> {
        let batches = store::seed_batches::all(&self.db).await?;
        Ok(batches.into_iter().map(|b| self.batch_view(b)).collect())
    }

    pub async fn seed_batch(&self, batch_id: i64) -> Result<SeedBatchView, ApiError> {
        let batch = store::seed_batches::find(&self.db, batch_id)
            .await?
            .ok_or(ApiError::SeedBatchNotFound(batch_id))?;
        let now = now_ms();
        let rounds = store::seed_batches::rounds_of(&self.db, batch_id).await?;
        let uses = rounds
            .into_iter()
            .map(|(round, bet_id)| {
                let state = self.state_of(&round, now);
                let index = round.seed_index.unwrap_or_default();
                SeedUse {
                    index,
                    state: state.into(),
                    server_seed: (round.state == RoundState::Spent || state == "expired")
                        .then(|| round.server_seed.clone()),
                    house_agent: self.house_wallets.contains(&round.address),
                    audit_path: self.audit_path(batch_id, batch.size, index),
                    round_id: round.id,
                    commitment: round.commitment,
                    bet_id,
                }
            })
            .collect();
        let mut view = self.batch_view(batch);
        view.rounds = Some(uses);
        Ok(view)
    }

    fn batch_view(&self, batch: seed_batch::Model) -> SeedBatchView {
        let typed = typed::seed_batch(
            &self.seeds.signer.domain(),
            batch.id,
            batch.size,
            &batch.merkle_root,
            batch.created_at / 1000,
        );
        SeedBatchView {
            batch_id: batch.id,
            size: batch.size,
            used: batch.next_index,
            merkle_root: batch.merkle_root,
            created_at: rfc3339(batch.created_at),
            signature: batch.signature,
            typed_data: typed,
            rounds: None,
        }
    }
}

/// The signer's address as published (EIP-55).
pub fn signer_address(signer: &HouseSigner) -> String {
    address::display(&signer.address())
}
