//! `GET /api/arcade/manifest` and `GET /.well-known/x402`: the live list of paid resources.

use salvo::prelude::*;

use super::edge::{arcade, shared};
use crate::error::ApiError;
use crate::service::manifest::Manifest;

/// The paid resources (chip tiers) with their prices, and the network, token and pay-to address
/// payments settle on; per resource, the 402's `resource` and, per method, its `extensions`
/// (the x402 `bazaar` discovery metadata). The 402 of each resource is authoritative; this is
/// its summary.
#[endpoint(tags("chips"))]
pub async fn manifest(depot: &mut Depot) -> Result<Json<Manifest>, ApiError> {
    let base_url = &shared(depot)?.base_url;
    Ok(Json(arcade(depot)?.manifest(base_url)))
}
