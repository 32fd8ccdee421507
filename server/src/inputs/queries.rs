//! Inputs of the read-only operations: a bet to verify, a round to show, how many recent rounds
//! to list, a page of the audit feed, a seed batch, a page of its rows, one of its rows.

use rmcp::schemars::JsonSchema;
use serde::Deserialize;

use super::{Input, Place};

/// `GET /api/arcade/verify/{bet_id}` (MCP `arcade_verify`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct BetPath {
    /// The `bet_id` of a played round, from its receipt or the recent rounds.
    #[schemars(range(min = 1, max = i64::MAX), example = 1)]
    pub bet_id: i64,
}

impl Input for BetPath {
    const PLACE: Place = Place::Path;
}

/// `GET /api/arcade/rounds/{round_id}` (MCP `arcade_round`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct RoundPath {
    /// The `round_id` from a commit.
    #[schemars(length(min = 1, max = 64), example = &"r_5b71c2d09e3f4a1b8c7d6e5f4a3b2c1d")]
    pub round_id: String,
}

impl Input for RoundPath {
    const PLACE: Place = Place::Path;
}

/// `GET /api/arcade/recent?limit=`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct RecentQuery {
    /// How many rounds, newest first: 1 to 100, default 8.
    #[schemars(range(min = 1, max = 100), example = 8)]
    pub limit: Option<i64>,
}

impl RecentQuery {
    pub const DEFAULT_LIMIT: u64 = 8;

    pub fn limit(&self) -> u64 {
        self.limit
            .and_then(|n| u64::try_from(n).ok())
            .unwrap_or(Self::DEFAULT_LIMIT)
    }
}

impl Input for RecentQuery {
    const PLACE: Place = Place::Query;
}

/// `GET /api/arcade/receipts?after=&limit=`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct FeedQuery {
    /// Receipts with a `bet_id` above this one (default 0: from the first).
    #[schemars(range(min = 0, max = i64::MAX), example = 0)]
    pub after: Option<i64>,
    /// How many, in bet order: 1 to 1000, default 100.
    #[schemars(range(min = 1, max = 1000), example = 100)]
    pub limit: Option<i64>,
}

impl FeedQuery {
    pub const DEFAULT_LIMIT: u64 = 100;

    pub fn after(&self) -> i64 {
        self.after.unwrap_or(0)
    }

    pub fn limit(&self) -> u64 {
        self.limit
            .and_then(|n| u64::try_from(n).ok())
            .unwrap_or(Self::DEFAULT_LIMIT)
    }
}

impl Input for FeedQuery {
    const PLACE: Place = Place::Query;
}

/// `GET /api/arcade/seed-batches/{batch_id}`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct SeedBatchPath {
    /// A `batch_id` from the seed batches or a receipt's `proofs.batch`.
    #[schemars(range(min = 1, max = i64::MAX), example = 1)]
    pub batch_id: i64,
}

impl Input for SeedBatchPath {
    const PLACE: Place = Place::Path;
}

/// `GET /api/arcade/seed-batches/{batch_id}?from=&limit=`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct SeedRowsQuery {
    /// Used indices from this one (default 0: from the first).
    #[schemars(range(min = 0, max = i64::MAX), example = 0)]
    pub from: Option<i64>,
    /// How many, in index order: 1 to 1000, default 1000.
    #[schemars(range(min = 1, max = 1000), example = 1000)]
    pub limit: Option<i64>,
}

impl SeedRowsQuery {
    pub const DEFAULT_LIMIT: u64 = 1000;

    pub fn from(&self) -> i64 {
        self.from.unwrap_or(0)
    }

    pub fn limit(&self) -> u64 {
        self.limit
            .and_then(|n| u64::try_from(n).ok())
            .unwrap_or(Self::DEFAULT_LIMIT)
    }
}

impl Input for SeedRowsQuery {
    const PLACE: Place = Place::Query;
}

/// `GET /api/arcade/seed-batches/{batch_id}/rows/{index}`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct SeedRowPath {
    /// A `batch_id` from a receipt's `proofs.batch`.
    #[schemars(range(min = 1, max = i64::MAX), example = 1)]
    pub batch_id: i64,
    /// The seed's `index` in the batch, from the same `proofs.batch`.
    #[schemars(range(min = 0, max = i64::MAX), example = 0)]
    pub index: i64,
}

impl Input for SeedRowPath {
    const PLACE: Place = Place::Path;
}
