//! `GET /api/arcade/receipts` (the audit feed), `seed-batches` and `seed-batches/{batch_id}`.

use salvo::prelude::*;

use super::checked::Checked;
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
    Ok(Json(
        arcade(depot)?
            .receipts_after(query.after(), query.limit())
            .await?,
    ))
}

/// Every published seed batch, oldest first: its signed Merkle root and how many of its
/// seeds commits have taken.
#[endpoint(tags("proofs"))]
pub async fn seed_batches(depot: &mut Depot) -> Result<Json<Vec<SeedBatchView>>, ApiError> {
    Ok(Json(arcade(depot)?.seed_batches().await?))
}

/// One seed batch with every used index: its round, state, commitment, audit path, and its
/// seed once revealed (settled or expired rounds).
#[endpoint(tags("proofs"))]
pub async fn seed_batch(
    input: Checked<SeedBatchPath>,
    depot: &mut Depot,
) -> Result<Json<SeedBatchView>, ApiError> {
    Ok(Json(arcade(depot)?.seed_batch(input.0.batch_id).await?))
}
