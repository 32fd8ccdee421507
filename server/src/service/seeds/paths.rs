//! Where a seed sits in its published batch: its place and audit path (RFC 9162), served from
//! the tree that gives the batch's signed root. A tree not kept is built on a blocking thread
//! (a batch of 100,000 seeds takes a core for a tenth of a second), once however many ask, and
//! one build at a time: readers of old rounds take at most one core, and this instance's latest
//! batches, which its commits and plays use, are never dropped (`SeedBook::pin`).

use std::sync::Arc;

use super::batches::SeedBatches;
use super::error::SeedBatchError;
use super::house::Shape;
use crate::proofs::BatchKey;
use crate::service::error::ServiceError;
use crate::service::receipts::wire::BatchPlace;
use arcade_core::merkle::Tree;

impl SeedBatches {
    /// Where seed `index` of a batch sits: the batch's size and the audit path.
    pub(in crate::service) async fn seed_place(
        &self,
        batch_id: i64,
        index: i64,
    ) -> Result<BatchPlace, SeedBatchError> {
        let shape = self.shape(batch_id).await?;
        Ok(BatchPlace {
            batch_id,
            index,
            size: shape.size,
            audit_path: path_in(
                self.published_tree(batch_id, &shape, None)
                    .await?
                    .as_deref(),
                index,
            ),
        })
    }

    /// The tree that gives the batch's published root (`None` if no tree does: its audit paths
    /// are then empty, and a verifier finds the seed outside it): `held`, a tree the caller
    /// already has (a read priced on the tree being kept serves from that very tree, even if
    /// the book has dropped it since), else the book's, built off the async threads if it is
    /// not kept.
    async fn published_tree(
        &self,
        batch_id: i64,
        shape: &Shape,
        held: Option<&Arc<Tree>>,
    ) -> Result<Option<Arc<Tree>>, SeedBatchError> {
        let kept = || self.seeds.book.kept(batch_id);
        if let Some(tree) = held.cloned().or_else(kept)
            && tree.root() == shape.root
        {
            return Ok(Some(tree));
        }
        let _one_build = self
            .seeds
            .building
            .acquire()
            .await
            .map_err(ServiceError::internal)?;
        let (seeds, shape) = (self.seeds.clone(), shape.clone());
        tokio::task::spawn_blocking(move || {
            let key = BatchKey {
                id: batch_id,
                salt: shape.salt.as_deref(),
            };
            seeds.book.published_tree(key, shape.size, &shape.root)
        })
        .await
        .map_err(|failed| ServiceError::internal(failed).into())
    }

    /// The audit paths of several indices of one batch, from `held` when it is the batch's tree.
    pub(in crate::service) async fn audit_paths(
        &self,
        batch_id: i64,
        indices: impl Iterator<Item = i64>,
        held: Option<&Arc<Tree>>,
    ) -> Result<Vec<Vec<String>>, SeedBatchError> {
        let shape = self.shape(batch_id).await?;
        let tree = self.published_tree(batch_id, &shape, held).await?;
        Ok(indices
            .map(|index| path_in(tree.as_deref(), index))
            .collect())
    }
}

/// Seed `index`'s audit path in `tree`, as hex; empty without a tree.
fn path_in(tree: Option<&Tree>, index: i64) -> Vec<String> {
    match (tree, usize::try_from(index)) {
        (Some(tree), Ok(index)) => tree
            .audit_path(index)
            .iter()
            .map(|hash| arcade_core::hex::encode(hash))
            .collect(),
        _ => Vec::new(),
    }
}
