//! What reading a seed batch's rows draws from the rate limits, for REST and MCP alike. A page
//! of the detail is a heavy read of its rows; one row is a proof read (its own bucket: a few
//! queries and a path from the kept tree). A read that must first build the batch's tree (not
//! kept: an old batch, or one asked for after many others) also counts the batch's seeds.

use super::seed_batches::SeedBatches;
use crate::rate_limits::{Caller, HeavyRead, Operation, RateLimited};

impl SeedBatches {
    /// Starts a read of a page of up to `rows` rows of batch `batch_id`.
    pub fn begin_page(
        &self,
        caller: Caller,
        batch_id: i64,
        rows: u64,
    ) -> Result<HeavyRead<'_>, RateLimited> {
        let rows = rows.saturating_add(self.tree_cost(batch_id));
        self.rate_limits.heavy_read(caller, rows)
    }

    /// Starts a read of one row of batch `batch_id`: held until the answer is built when it is
    /// a heavy read.
    pub fn begin_row(
        &self,
        caller: Caller,
        batch_id: i64,
    ) -> Result<Option<HeavyRead<'_>>, RateLimited> {
        match self.tree_cost(batch_id) {
            0 => {
                self.rate_limits.operation(caller, Operation::ProofRead)?;
                Ok(None)
            }
            seeds => self.rate_limits.heavy_read(caller, seeds).map(Some),
        }
    }

    /// The rows a read costs before its own: the batch's seeds when its tree must be built.
    fn tree_cost(&self, batch_id: i64) -> u64 {
        if self.row_builds_tree(batch_id) {
            u64::try_from(self.batch_size()).unwrap_or(u64::MAX)
        } else {
            0
        }
    }
}
