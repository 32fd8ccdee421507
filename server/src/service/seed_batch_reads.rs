//! What reading a seed batch's rows draws from the rate limits, for REST and MCP alike. A page
//! of the detail is a heavy read of its rows; one row is a proof read (its own bucket: a few
//! queries and a path from the kept tree). A read that must first build the batch's tree (not
//! kept: an old batch, or one asked for after many others) also counts the batch's own seeds.
//! A batch that was never published is refused before anything is drawn.

use super::seed_batches::{SeedBatchError, SeedBatches};
use crate::rate_limits::{Caller, HeavyRead, Operation};

impl SeedBatches {
    /// Starts a read of a page of up to `rows` rows of batch `batch_id`.
    pub async fn begin_page(
        &self,
        caller: Caller,
        batch_id: i64,
        rows: u64,
    ) -> Result<HeavyRead<'_>, SeedBatchError> {
        let rows = rows.saturating_add(self.tree_cost(batch_id).await?);
        Ok(self.rate_limits.heavy_read(caller, rows)?)
    }

    /// Starts a read of one row of batch `batch_id`: held until the answer is built when it is
    /// a heavy read.
    pub async fn begin_row(
        &self,
        caller: Caller,
        batch_id: i64,
    ) -> Result<Option<HeavyRead<'_>>, SeedBatchError> {
        match self.tree_cost(batch_id).await? {
            0 => {
                self.rate_limits.operation(caller, Operation::ProofRead)?;
                Ok(None)
            }
            seeds => Ok(Some(self.rate_limits.heavy_read(caller, seeds)?)),
        }
    }

    /// The rows a read costs before its own: the batch's seeds when its tree must be built.
    async fn tree_cost(&self, batch_id: i64) -> Result<u64, SeedBatchError> {
        let size = self.size_of(batch_id).await?;
        if self.row_builds_tree(batch_id) {
            Ok(u64::try_from(size).unwrap_or(u64::MAX))
        } else {
            Ok(0)
        }
    }
}
