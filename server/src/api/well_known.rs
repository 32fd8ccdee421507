//! `GET /.well-known/x402`: the paid resources as x402 indexers fan out from them (x402scan's
//! `docs/DISCOVERY.md`, "B) `/.well-known/x402`": `version` 1, `resources` as URLs,
//! `ownershipProofs`, `instructions`), with the entry points an agent starts from (`links`) and
//! the house's signed marks, as every discovery document publishes them (`signed_marks`).
//! The manifest (`/api/arcade/manifest`) is the full summary the client libraries read; the
//! 402 of each resource is authoritative over both.

use salvo::oapi::ToSchema;
use salvo::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value};

use super::discovery::ChipsResource;
use super::edge::shared;
use crate::entry_points::ENTRY_POINTS;
use crate::error::ApiError;
use crate::service::signed_marks::SignedMarks;

/// The version of the indexers' document this one follows.
pub const VERSION: u64 = 1;

/// What an agent is told before it calls a resource.
const INSTRUCTIONS: &str = "Provably fair games for agents. Buy chips with an x402 payment at any listed resource (GET or POST; the 402 carries the offer and, in extensions[\"spend-controls\"], how to allow the token), prove an address, commit, play, verify, cash out: links.llms_txt has the whole flow, links.openapi every operation.";

/// The indexers' discovery document.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WellKnown {
    /// Always 1.
    pub version: u64,
    /// The URL of every paid resource.
    pub resources: Vec<String>,
    /// `pay_to`'s signatures over this origin (EIP-191), when the deployment has one; the same
    /// as OpenAPI's `x-discovery.ownershipProofs`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ownership_proofs: Vec<String>,
    pub instructions: String,
    /// Where to start, by name, as the manifest's `links`.
    #[salvo(schema(value_type = Object))]
    pub links: Map<String, Value>,
    /// The signed marks, as the manifest publishes them.
    #[serde(rename = "signed_marks")]
    pub signed_marks: SignedMarks,
}

/// The paid resources for indexers: their URLs, `pay_to`'s ownership proofs and where an agent
/// starts.
#[endpoint(tags("chips"))]
pub async fn well_known(depot: &mut Depot) -> Result<Json<WellKnown>, ApiError> {
    let shared = shared(depot)?;
    let marks = shared.arcade.proofs.marks().clone();
    Ok(Json(document(
        &shared.base_url,
        shared.ownership_proofs.to_vec(),
        marks,
    )))
}

/// The document for a deployment reached at `base_url`.
pub fn document(
    base_url: &str,
    ownership_proofs: Vec<String>,
    signed_marks: SignedMarks,
) -> WellKnown {
    WellKnown {
        version: VERSION,
        resources: ChipsResource::all().map(|r| r.url(base_url)).collect(),
        ownership_proofs,
        instructions: INSTRUCTIONS.to_owned(),
        links: links(base_url),
        signed_marks,
    }
}

/// Each entry point by name, as a full URL.
pub fn links(base_url: &str) -> Map<String, Value> {
    ENTRY_POINTS
        .iter()
        .map(|(name, path)| ((*name).to_owned(), Value::from(format!("{base_url}{path}"))))
        .collect()
}
