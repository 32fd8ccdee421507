//! `GET /api/arcade/receipts` (the audit feed), `seed-batches`, `seed-batches/{batch_id}` and
//! `seed-batches/{batch_id}/rows/{index}`. The feed and a page of a batch's detail read up to a
//! thousand rows (and may rebuild the batch's Merkle tree): they are heavy reads
//! (`rate_limits::HeavyRead`: a client's bucket and a shared one, by the rows asked for, one at
//! a time), so clients looping them are refused before they slow anyone's plays; the list of
//! batches (a row per batch, growing) draws one token. One row is a proof read
//! (`service::seeds::reads`).

use salvo::prelude::*;

use super::checked::Checked;
use super::client::caller;
use super::edge::arcade;
use crate::error::ApiError;
use crate::inputs::queries::{FeedQuery, SeedBatchPath, SeedRowPath, SeedRowsQuery};
use crate::service::receipts::Feed;
use crate::service::seeds::{RowsPage, SeedBatchView, SeedRowView};

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
    let caller = caller(depot);
    let _reading = arcade.rate_limits.heavy_read(caller, query.limit())?;
    Ok(Json(
        arcade
            .receipts
            .receipts_after(caller, query.after(), query.limit())
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

/// A page of one seed batch's used indices (`from`, `limit`; follow `next_from` until it is
/// null): each with its round, state, commitment, audit path, and its seed once revealed
/// (settled or expired rounds).
#[endpoint(tags("proofs"))]
pub async fn seed_batch(
    input: Checked<SeedBatchPath>,
    rows: Checked<SeedRowsQuery>,
    depot: &mut Depot,
) -> Result<Json<SeedBatchView>, ApiError> {
    let arcade = arcade(depot)?;
    let batch_id = input.0.batch_id;
    let page = RowsPage {
        from: rows.0.from(),
        limit: rows.0.limit(),
    };
    let reading = arcade
        .seed_batches
        .begin_page(caller(depot), batch_id, page.limit)
        .await?;
    Ok(Json(
        arcade.seed_batches.one(reading, batch_id, page).await?,
    ))
}

/// One used index of a seed batch with the batch's signed root: everything that places a
/// round's seed in its batch (the row's commitment and audit path lead to `batch.merkle_root`,
/// signed by `batch.signature`), a few kilobytes whatever the batch's size.
#[endpoint(tags("proofs"))]
pub async fn seed_row(
    input: Checked<SeedRowPath>,
    depot: &mut Depot,
) -> Result<Json<SeedRowView>, ApiError> {
    let arcade = arcade(depot)?;
    let SeedRowPath { batch_id, index } = input.0;
    let reading = arcade
        .seed_batches
        .begin_row(caller(depot), batch_id)
        .await?;
    Ok(Json(
        arcade.seed_batches.row(reading, batch_id, index).await?,
    ))
}
