//! The seed batches as the public sees them, every used index accounted for. One clock decides
//! when a seed is shown: the database's. A round past its time is first marked expired there (a
//! conditional update, after which no instance can spend it, whatever its own clock says), and
//! only a round marked settled or expired shows its seed and its id; an open round shows its
//! index and commitment alone, since its id is what lets a caller play it. A batch's detail
//! comes in pages of rows; one row comes with its batch's signed root, all a verifier needs to
//! place a round's seed in the batch, whatever the batch's size.

use std::sync::Arc;

use arcade_core::merkle::Tree;
use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};

use super::batches::SeedBatches;
use super::error::SeedBatchError;
use super::reads::BatchRead;
use crate::proofs::typed::{self, TypedData};
use crate::service::error::ServiceError;
use crate::service::{now_ms, rfc3339};
use crate::store;
use crate::store::entities::round::{self, RoundState};
use crate::store::entities::seed_batch;

/// A published batch, as `GET /api/arcade/seed-batches` lists it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeedBatchView {
    pub batch_id: i64,
    pub size: i64,
    /// Indices commits have taken so far.
    pub used: i64,
    /// RFC 9162 tree head over the seeds' commitments (64 hex).
    pub merkle_root: String,
    /// 32 random bytes (64 hex) drawn when the batch was created: with `seeds.secret` they
    /// derive every seed of the batch (`/docs/proofs.md`). Null for batches from before salts.
    pub salt: Option<String>,
    pub created_at: String,
    /// The house's EIP-712 signature of `typed_data` (a `SeedBatch`).
    pub signature: String,
    #[salvo(schema(value_type = Object))]
    pub typed_data: TypedData,
    /// A page of used indices, from `from` (`GET /api/arcade/seed-batches/{batch_id}` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<Vec<SeedUse>>,
    /// The `from` of the next page of used indices, null on the last page (the detail only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_from: Option<Option<i64>>,
}

/// One used index with its batch's signed root (`GET
/// /api/arcade/seed-batches/{batch_id}/rows/{index}`): the row's commitment and audit path lead
/// to `batch.merkle_root`, which `batch.signature` signs.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeedRowView {
    pub batch: SeedBatchView,
    pub row: SeedUse,
}

/// Which used indices of a batch to show: from index `from`, at most `limit`.
#[derive(Debug, Clone, Copy)]
pub struct RowsPage {
    pub from: i64,
    pub limit: u64,
}

/// One used index of a batch.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeedUse {
    pub index: i64,
    /// The round, once settled or expired; null while it is open (its id lets a caller play
    /// it, so only its owner holds it).
    pub round_id: Option<String>,
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

impl SeedBatches {
    pub async fn all(&self) -> Result<Vec<SeedBatchView>, ServiceError> {
        let batches = store::seed_batches::all(&self.db).await?;
        Ok(batches.into_iter().map(|b| self.batch_view(b)).collect())
    }

    /// A page of a batch's used indices, under the read [`SeedBatches::begin_page`] started.
    pub async fn one(
        &self,
        read: BatchRead<'_>,
        batch_id: i64,
        page: RowsPage,
    ) -> Result<SeedBatchView, SeedBatchError> {
        let batch = self.find(batch_id).await?;
        // One row past the page tells whether another page follows.
        let mut rounds = self
            .rounds_marked(batch_id, page.from, page.limit.saturating_add(1))
            .await?;
        let next_from = usize::try_from(page.limit)
            .ok()
            .filter(|&limit| rounds.len() > limit)
            .map(|limit| {
                let next = rounds[limit].0.seed_index;
                rounds.truncate(limit);
                next
            });
        let mut view = self.batch_view(batch);
        view.rounds = Some(self.seed_uses(batch_id, rounds, read.tree.as_ref()).await?);
        view.next_from = Some(next_from.flatten());
        Ok(view)
    }

    /// One used index of a batch, with the batch, under the read [`SeedBatches::begin_row`]
    /// started.
    pub async fn row(
        &self,
        read: BatchRead<'_>,
        batch_id: i64,
        index: i64,
    ) -> Result<SeedRowView, SeedBatchError> {
        let batch = self.find(batch_id).await?;
        let row = self
            .rounds_marked(batch_id, index, 1)
            .await?
            .into_iter()
            .find(|(round, _)| round.seed_index == Some(index))
            .ok_or(SeedBatchError::NoRow { batch_id, index })?;
        let row = self
            .seed_uses(batch_id, vec![row], read.tree.as_ref())
            .await?
            .remove(0);
        Ok(SeedRowView {
            batch: self.batch_view(batch),
            row,
        })
    }

    async fn find(&self, batch_id: i64) -> Result<seed_batch::Model, SeedBatchError> {
        store::seed_batches::find(&self.db, batch_id)
            .await?
            .ok_or(SeedBatchError::NotFound(batch_id))
    }

    /// Rounds as shown: their seeds once revealed, their audit paths (from `held`, when it is
    /// the batch's tree).
    async fn seed_uses(
        &self,
        batch_id: i64,
        rounds: Vec<(round::Model, Option<i64>)>,
        held: Option<&Arc<Tree>>,
    ) -> Result<Vec<SeedUse>, SeedBatchError> {
        let indices = rounds.iter().map(|(r, _)| r.seed_index.unwrap_or_default());
        let paths = self.audit_paths(batch_id, indices, held).await?;
        let mut uses = Vec::with_capacity(rounds.len());
        for ((mut round, bet_id), audit_path) in rounds.into_iter().zip(paths) {
            if round.state == RoundState::Spent || round.expired_at.is_some() {
                self.fill_server_seed(&self.db, &mut round).await?;
            }
            uses.push(self.seed_use(round, bet_id, audit_path));
        }
        Ok(uses)
    }

    /// Up to `limit` of the batch's rounds from index `from`, those past their time (by this
    /// instance's clock) first marked expired in the database.
    async fn rounds_marked(
        &self,
        batch_id: i64,
        from: i64,
        limit: u64,
    ) -> Result<Vec<(round::Model, Option<i64>)>, ServiceError> {
        let rounds = store::seed_batches::rounds_of(&self.db, batch_id, from, limit).await?;
        let now = now_ms();
        let cutoff = self.clock.opened_after(now);
        let past: Vec<&str> = rounds
            .iter()
            .map(|(round, _)| round)
            .filter(|r| r.state == RoundState::Open && r.expired_at.is_none())
            .filter(|r| r.created_at <= cutoff)
            .map(|r| r.id.as_str())
            .collect();
        if past.is_empty() {
            return Ok(rounds);
        }
        store::rounds::expire_past(&self.db, &past, cutoff, now).await?;
        Ok(store::seed_batches::rounds_of(&self.db, batch_id, from, limit).await?)
    }

    fn seed_use(
        &self,
        round: round::Model,
        bet_id: Option<i64>,
        audit_path: Vec<String>,
    ) -> SeedUse {
        let state = match (round.state, round.expired_at) {
            (RoundState::Spent, _) => "settled",
            (RoundState::Open, Some(_)) => "expired",
            (RoundState::Open, None) => "open",
        };
        let revealed = state != "open";
        SeedUse {
            index: round.seed_index.unwrap_or_default(),
            state: state.into(),
            server_seed: revealed.then(|| round.server_seed.clone()),
            house_agent: self.house_wallets.contains(&round.address),
            audit_path,
            round_id: revealed.then_some(round.id),
            commitment: round.commitment,
            bet_id,
        }
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
            salt: batch.salt,
            created_at: rfc3339(batch.created_at),
            signature: batch.signature,
            typed_data: typed,
            rounds: None,
            next_from: None,
        }
    }
}
