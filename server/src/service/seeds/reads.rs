//! What reading a seed batch's rows draws from the rate limits, for REST and MCP alike. A page
//! of the detail is a heavy read of its rows; one row is a proof read (its own bucket: a few
//! queries and a path from the kept tree). A read that must first build the batch's tree (not
//! kept: an old batch, or one asked for after many others) also counts the batch's own seeds.
//! A batch that was never published is refused before anything is drawn. A row priced on its
//! tree being kept is served from that tree, held by the read, so no read builds a tree it was
//! not priced for. A reader's receipt (`/verify`, a round, the feed) is priced the same way: a
//! reader of old rounds pays for the trees its answers build.

use std::collections::BTreeSet;
use std::sync::Arc;

use arcade_core::merkle::Tree;

use super::batches::SeedBatches;
use super::error::SeedBatchError;
use crate::rate_limits::{Caller, HeavyRead, Operation};

/// A read of a batch's rows under way: the kept tree it was priced on, if it was, and the heavy
/// read a page (or a row whose tree must be built) holds until the answer is built.
#[derive(Debug)]
#[must_use = "the read is under way while this is held"]
pub struct BatchRead<'a> {
    pub(in crate::service) tree: Option<Arc<Tree>>,
    _heavy: Option<HeavyRead<'a>>,
}

impl SeedBatches {
    /// Starts a read of a page of up to `rows` rows of batch `batch_id`: a heavy read of those
    /// rows, and of the batch's seeds when its tree is not kept.
    pub async fn begin_page(
        &self,
        caller: Caller,
        batch_id: i64,
        rows: u64,
    ) -> Result<BatchRead<'_>, SeedBatchError> {
        let seeds = self.seeds_of(batch_id).await?;
        let tree = self.seeds.book.kept(batch_id);
        let cost = if tree.is_some() {
            rows
        } else {
            rows.saturating_add(seeds)
        };
        Ok(BatchRead {
            tree,
            _heavy: Some(self.rate_limits.heavy_read(caller, cost)?),
        })
    }

    /// Starts a read of one row of batch `batch_id`: a proof read when its tree is kept, else a
    /// heavy read of the batch's seeds.
    pub async fn begin_row(
        &self,
        caller: Caller,
        batch_id: i64,
    ) -> Result<BatchRead<'_>, SeedBatchError> {
        let seeds = self.seeds_of(batch_id).await?;
        if let Some(tree) = self.seeds.book.kept(batch_id) {
            self.rate_limits.operation(caller, Operation::ProofRead)?;
            return Ok(BatchRead {
                tree: Some(tree),
                _heavy: None,
            });
        }
        Ok(BatchRead {
            tree: None,
            _heavy: Some(self.rate_limits.heavy_read(caller, seeds)?),
        })
    }

    /// What a page of receipts adds to the heavy read of `page_rows` rows its caller holds: the
    /// seeds of each of its batches whose tree is not kept (each built for the page), so a page
    /// of one receipt per old batch costs what reading those batches' rows would.
    pub async fn price_builds(
        &self,
        caller: Caller,
        page_rows: u64,
        batch_ids: BTreeSet<i64>,
    ) -> Result<(), SeedBatchError> {
        let mut seeds = 0u64;
        for batch_id in batch_ids {
            if self.seeds.book.kept(batch_id).is_none() {
                seeds = seeds.saturating_add(self.seeds_of(batch_id).await?);
            }
        }
        if seeds > 0 {
            self.rate_limits.heavy_draw(caller, page_rows, seeds)?;
        }
        Ok(())
    }

    /// The batch's size, as a count of rows; a batch never published is `NotFound`.
    async fn seeds_of(&self, batch_id: i64) -> Result<u64, SeedBatchError> {
        let size = self.size_of(batch_id).await?;
        Ok(u64::try_from(size).unwrap_or(u64::MAX))
    }
}
