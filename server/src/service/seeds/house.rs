//! The house's seeds: its signing key (and a second thread that signs beside a writer), the
//! secret that derives every batch's seeds, the batches' size, this running instance's name,
//! and what it remembers of the batches it published and the indices it committed.

use std::collections::HashMap;
use std::sync::Mutex;

use alloy::primitives::B256;

use crate::proofs::{HouseSigner, SeedBook, SigningThread, sign_all};
use crate::service::error::ServiceError;
use crate::store::seed_batches::Taken;

/// The fewest hashes a batch signs on two threads (`Seeds::sign_hashes`): below it, handing
/// half to the other thread (a wake-up and a reply) saves less than it costs.
const SIGN_IN_TWO_FROM: usize = 4;

/// The house's seeds: the signer, the batches' secret and their size.
#[derive(Debug)]
pub struct Seeds {
    pub signer: HouseSigner,
    /// Signs half of a large batch's receipts or commitments beside its writer.
    pub receipt_signer: SigningThread,
    pub book: SeedBook,
    pub batch_size: i64,
    /// This running instance, drawn at start: the owner of the batches it publishes, the only
    /// ones it takes seeds from.
    pub instance: String,
    /// Held while this instance publishes a batch.
    pub(in crate::service) publishing: tokio::sync::Mutex<()>,
    /// One build at a time of a tree not kept (an old batch's, asked for by a reader): such
    /// builds take at most one core, and their callers wait here, not on blocking threads.
    pub(in crate::service) building: tokio::sync::Semaphore,
    /// Each batch's size and salt (fixed once published).
    pub(in crate::service) shapes: Mutex<HashMap<i64, Shape>>,
    /// Per batch, the highest index this instance committed: taking one at or below it means
    /// the database went back under the running instance (a restore).
    issued: Mutex<HashMap<i64, i64>>,
}

/// What a batch's audit paths need besides its id.
#[derive(Debug, Clone)]
pub(in crate::service) struct Shape {
    pub(in crate::service) size: i64,
    pub(in crate::service) salt: Option<String>,
    /// The published root the paths lead to.
    pub(in crate::service) root: [u8; 32],
}

impl Seeds {
    pub fn new(signer: HouseSigner, book: SeedBook, batch_size: u64, instance: String) -> Self {
        Self {
            receipt_signer: SigningThread::new(signer.clone()),
            signer,
            book,
            batch_size: i64::try_from(batch_size.max(1)).unwrap_or(i64::MAX),
            instance,
            publishing: tokio::sync::Mutex::new(()),
            building: tokio::sync::Semaphore::new(1),
            shapes: Mutex::default(),
            issued: Mutex::default(),
        }
    }

    /// Indices left below which the next batch is published.
    pub(in crate::service) fn low_water(&self) -> i64 {
        (self.batch_size / 4).max(1)
    }

    /// Whether this instance already committed `taken`'s index of its batch, or a later one.
    pub(in crate::service) fn taken_before(&self, taken: &Taken) -> bool {
        let issued = self.issued.lock().unwrap_or_else(|e| e.into_inner());
        issued
            .get(&taken.batch_id)
            .is_some_and(|&highest| taken.index <= highest)
    }

    /// Signs a batch's hashes (its receipts, its commitments), in order: from
    /// `SIGN_IN_TWO_FROM` on, the second half on the signing thread beside this one, so the
    /// writer's transaction waits about half as long for them.
    pub(in crate::service) fn sign_hashes(
        &self,
        hashes: &[B256],
    ) -> Result<Vec<String>, ServiceError> {
        let here = if hashes.len() < SIGN_IN_TWO_FROM {
            hashes.len()
        } else {
            hashes.len() / 2
        };
        let (first, second) = hashes.split_at(here);
        let handed = (!second.is_empty()).then(|| self.receipt_signer.hand(second.to_vec()));
        let mut signatures = sign_all(&self.signer, first).map_err(ServiceError::internal)?;
        if let Some(handed) = handed {
            signatures.extend(handed.signatures().map_err(ServiceError::internal)?);
        }
        Ok(signatures)
    }

    /// Notes a committed index.
    pub(in crate::service) fn committed(&self, taken: &Taken) {
        let mut issued = self.issued.lock().unwrap_or_else(|e| e.into_inner());
        let highest = issued.entry(taken.batch_id).or_insert(taken.index);
        *highest = (*highest).max(taken.index);
    }
}
