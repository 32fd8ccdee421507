//! `GET /api/arcade/receipts` (the audit feed), `seed-batches` and `seed-batches/{batch_id}`.
//! The feed and a batch's detail read up to a thousand rows (and a batch's detail rebuilds its
//! Merkle tree): they are heavy reads (`rate_limits::HeavyRead`: a client's bucket and a shared
//! one, by the rows asked for, one at a time), so clients looping them are refused before they
//! slow anyone's plays; the list of batches (a row per batch, growing) draws one token.

use salvo::prelude::*;

use super::checked::Checked;
use super::client::caller;
use super::edge::arcade;
use crate::error::ApiError;
use crate::inputs::queries::{FeedQuery, SeedBatchPath};
use crate::service::receipts::Feed;
use crate::service::seed_batches::SeedBatchView;

/// Every settled receipt in bet order, seeds revealed and full addresses, with the house's
/// signatures and each seed's audit path: page with `after` (the last `bet_id` seen) until
/// `next_after` is null.
#[endpoint(tags("proofs"))]
pub async fn receipts(
    input: Checked<FeedQuery>,
    depot: &mut Depot,
) -> Result<Json<Feed>, ApiError> {
    let query = input.0;
    let arcade = arcade(depot)?;
    let _reading = arcade
        .rate_limits
        .heavy_read(caller(depot), query.limit())?;
    Ok(Json(
        arcade
            .receipts
            .receipts_after(query.after(), query.limit())
            .await?,
    ))
}

/// Every published seed batch, oldest first: its signed Merkle root and how many of its
/// seeds commits have taken.
#[endpoint(tags("proofs"))]
pub async fn seed_batches(depot: &mut Depot) -> Result<Json<Vec<SeedBatchView>>, ApiError> {
    let arcade = arcade(depot)?;
    // One row per batch, a list that only grows: a heavy read, one token a request.
    let _reading = arcade.rate_limits.heavy_read(caller(depot), 1)?;
    Ok(Json(arcade.seed_batches.all().await?))
}

/// One seed batch with every used index: its round, state, commitment, audit path, and its
/// seed once revealed (settled or expired rounds).
#[endpoint(tags("proofs"))]
pub async fn seed_batch(
    input: Checked<SeedBatchPath>,
    depot: &mut Depot,
) -> Result<Json<SeedBatchView>, ApiError> {
    let arcade = arcade(depot)?;
    let seeds = u64::try_from(arcade.seed_batches.batch_size()).unwrap_or(u64::MAX);
    let _reading = arcade.rate_limits.heavy_read(caller(depot), seeds)?;
    Ok(Json(arcade.seed_batches.one(input.0.batch_id).await?))
}
