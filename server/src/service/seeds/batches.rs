//! Pre-committed seeds: publishing batches (signed Merkle roots) before they are needed, and
//! where a seed sits in its batch. Each running instance publishes its own batches and takes
//! seeds only from them (`Seeds::instance`), and every batch draws a fresh salt: an instance
//! started on a restored database never hands out a seed revealed after the backup, and one
//! whose database went back under it notices and moves to a new batch.

use std::sync::Arc;

use sea_orm::ConnectionTrait;

use super::error::SeedBatchError;
use super::house::{Seeds, Shape};
use crate::address;
use crate::proofs::typed;
use crate::proofs::{BatchKey, HouseSigner};
use crate::rate_limits::RateLimits;
use crate::service::error::ServiceError;
use crate::service::randomness::random_bytes;
use crate::service::rounds::clock::RoundClock;
use crate::service::{HouseWallets, now_ms};
use crate::store;
use crate::store::Db;
use crate::store::entities::{round, seed_batch};
use crate::store::seed_batches::Taken;
use arcade_core::Commitment;

/// Batch ids are drawn at random below this, so they stay exact in JSON numbers (and apart
/// after a restore, where counting up from the largest would repeat published ids).
const BATCH_IDS: u64 = 1 << 53;

/// Publishing seed batches, and where a seed sits in its batch.
#[derive(Clone)]
pub struct SeedBatches {
    pub(in crate::service) db: Db,
    pub(in crate::service) seeds: Arc<Seeds>,
    /// Seed uses shown of the house's own rounds say so.
    pub(in crate::service) house_wallets: HouseWallets,
    /// Batch views mark rounds past their time expired.
    pub(in crate::service) clock: RoundClock,
    /// What reading rows draws from (`reads.rs`).
    pub(in crate::service) rate_limits: Arc<RateLimits>,
}

impl SeedBatches {
    pub fn new(
        db: Db,
        seeds: Arc<Seeds>,
        house_wallets: HouseWallets,
        clock: RoundClock,
        rate_limits: Arc<RateLimits>,
    ) -> Self {
        Self {
            db,
            seeds,
            house_wallets,
            clock,
            rate_limits,
        }
    }

    /// The house's signing key.
    pub fn signer(&self) -> &HouseSigner {
        &self.seeds.signer
    }

    /// Seeds per batch.
    pub fn batch_size(&self) -> i64 {
        self.seeds.batch_size
    }

    /// Seed batch trees built since start (each three hashes per seed).
    pub fn tree_builds(&self) -> u64 {
        self.seeds.book.builds()
    }

    /// This running instance: the owner of the batches it publishes.
    pub fn instance(&self) -> &str {
        &self.seeds.instance
    }

    /// After a round opened on `taken`: publishes the next batch when its batch runs low.
    pub(in crate::service) async fn keep_room(&self, taken: &Taken) -> Result<(), ServiceError> {
        if taken.left < self.seeds.low_water() {
            self.ensure_seed_room().await?;
        }
        Ok(())
    }

    /// Publishes this instance's next batch if its batches have fewer than a quarter batch
    /// left (on start, and when a commit sees its batch running low).
    pub async fn ensure_seed_room(&self) -> Result<(), ServiceError> {
        self.ensure_room_for(0).await
    }

    /// Publishes batches until this instance's have at least a quarter batch left, and at
    /// least `wanted` (a batch of commits that found fewer).
    pub(in crate::service) async fn ensure_room_for(
        &self,
        wanted: i64,
    ) -> Result<(), ServiceError> {
        let _publishing = self.seeds.publishing.lock().await;
        let mut left = store::seed_batches::room(&self.db, &self.seeds.instance).await?;
        while left < self.seeds.low_water().max(wanted) {
            self.publish_one().await?;
            left += self.seeds.batch_size;
        }
        Ok(())
    }

    /// Publishes one batch.
    async fn publish_one(&self) -> Result<(), ServiceError> {
        // An id already taken (a chance of one in millions per batch) is drawn again.
        for _ in 0..8 {
            let batch = self.new_batch().await?;
            let batch_id = batch.id;
            if store::seed_batches::publish(&self.db, batch).await? {
                tracing::info!(batch_id, "published a seed batch");
                return Ok(());
            }
            // Its tree is not that id's published batch's.
            self.seeds.book.forget(batch_id);
        }
        Err(ServiceError::internal(NoBatchId))
    }

    /// A new batch: a random id and salt, its tree's root signed (the tree built on a blocking
    /// thread, beside the commits it is published ahead of).
    async fn new_batch(&self) -> Result<seed_batch::Model, ServiceError> {
        let id = u64::from_be_bytes(random_bytes::<8>()?) % (BATCH_IDS - 1) + 1;
        let id = i64::try_from(id).map_err(ServiceError::internal)?;
        let salt = alloy::hex::encode(random_bytes::<32>()?);
        let size = self.seeds.batch_size;
        let (seeds, key_salt) = (self.seeds.clone(), salt.clone());
        let root = tokio::task::spawn_blocking(move || {
            let key = BatchKey {
                id,
                salt: Some(&key_salt),
            };
            seeds.book.pin(key, size).root()
        })
        .await
        .map_err(ServiceError::internal)?;
        let root = arcade_core::hex::encode(&root);
        let created_at = now_ms();
        let domain = self.seeds.signer.domain();
        let typed = typed::seed_batch(&domain, id, size, &root, created_at / 1000);
        let signature = self
            .seeds
            .signer
            .sign(&typed.to_value())
            .map_err(ServiceError::internal)?;
        Ok(seed_batch::Model {
            id,
            size,
            next_index: 0,
            merkle_root: root,
            created_at,
            signature,
            salt: Some(salt),
            owner: Some(self.seeds.instance.clone()),
        })
    }

    /// Stops taking seeds from a batch whose index went back under this instance: the seeds
    /// it handed out after the database's restore point may have been revealed.
    pub(in crate::service) async fn abandon_rewound(
        &self,
        taken: &Taken,
    ) -> Result<(), ServiceError> {
        tracing::warn!(
            batch_id = taken.batch_id,
            index = taken.index,
            "a seed batch's next index went back under this instance (was the database restored?): it is abandoned and a new batch published"
        );
        store::seed_batches::disown(&self.db, taken.batch_id).await?;
        Ok(())
    }

    /// Fills in a round's server seed, read from the database without one: none is stored (a
    /// backup reveals no seed), it is derived from the round's batch and index with the seeds
    /// secret. Rounds from before salted batches keep theirs stored (their seeds were not
    /// secret). `conn` reads the batch's salt when it is not known yet (inside the caller's
    /// transaction, where there is one).
    pub(in crate::service) async fn fill_server_seed(
        &self,
        conn: &impl ConnectionTrait,
        round: &mut round::Model,
    ) -> Result<(), SeedBatchError> {
        let (Some(batch_id), Some(index)) = (round.batch_id, round.seed_index) else {
            return Ok(());
        };
        if !round.server_seed.is_empty() {
            return Ok(());
        }
        let shape = self.shape_on(conn, batch_id).await?;
        let key = BatchKey {
            id: batch_id,
            salt: shape.salt.as_deref(),
        };
        let seed = self.seeds.book.seed(key, index);
        if Commitment::of(&seed).as_str() != round.commitment {
            // Another seeds secret than the batch's: never settle or show a seed that is not
            // the one committed to.
            return Err(ServiceError::internal(NotCommitted(round.id.clone())).into());
        }
        round.server_seed = seed;
        Ok(())
    }

    /// Erases the seeds an older version stored for rounds still open, each once its
    /// derivation gives the seed committed to (a backup then reveals none of them); a round
    /// whose stored seed the secret does not derive keeps it (warned). How many were erased.
    pub async fn seal_open(&self) -> Result<u64, ServiceError> {
        let mut erased = 0;
        for (mut round, salt) in store::rounds::open_with_stored_seed(&self.db).await? {
            let stored = std::mem::take(&mut round.server_seed);
            let (Some(batch_id), Some(index)) = (round.batch_id, round.seed_index) else {
                continue;
            };
            let key = BatchKey {
                id: batch_id,
                salt: salt.as_deref(),
            };
            if self.seeds.book.seed(key, index) != stored {
                tracing::warn!(round = %round.id, "an open round's stored seed is not the one the seeds secret derives: it stays stored until the round is played or expires");
                continue;
            }
            erased += u64::from(store::rounds::erase_seed(&self.db, &round.id, &stored).await?);
        }
        if erased > 0 {
            tracing::info!(
                erased,
                "open rounds' stored seeds erased: they derive from the seeds secret"
            );
        }
        Ok(erased)
    }

    /// A published batch's own size (read once, then kept); `NotFound` if it was never published.
    pub(in crate::service) async fn size_of(&self, batch_id: i64) -> Result<i64, SeedBatchError> {
        Ok(self.shape(batch_id).await?.size)
    }

    /// A published batch's size and salt.
    pub(in crate::service) async fn shape(&self, batch_id: i64) -> Result<Shape, SeedBatchError> {
        self.shape_on(&self.db, batch_id).await
    }

    /// [`Self::shape`], read through `conn` when not known yet.
    async fn shape_on(
        &self,
        conn: &impl ConnectionTrait,
        batch_id: i64,
    ) -> Result<Shape, SeedBatchError> {
        let known = self
            .seeds
            .shapes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&batch_id)
            .cloned();
        if let Some(shape) = known {
            return Ok(shape);
        }
        let batch = store::seed_batches::find(conn, batch_id)
            .await?
            .ok_or(SeedBatchError::NotFound(batch_id))?;
        let shape = Shape {
            size: batch.size,
            salt: batch.salt,
            root: arcade_core::hex::decode32(&batch.merkle_root).unwrap_or_default(),
        };
        self.seeds
            .shapes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(batch_id, shape.clone());
        Ok(shape)
    }
}

/// No unused batch id was found in several draws (the random generator is broken).
#[derive(Debug, thiserror::Error)]
#[error("no unused seed batch id in several random draws")]
struct NoBatchId;

/// The signer's address as published (EIP-55).
pub fn signer_address(signer: &HouseSigner) -> String {
    address::display(&signer.address())
}

/// A round whose batch's seed is not the one its commitment names.
#[derive(Debug, thiserror::Error)]
#[error("round {0}: the seeds secret does not derive the seed it committed to")]
struct NotCommitted(String);
