//! The arcade's MCP resources: `arcade://rules` and `arcade://seed-batches`, and the templates
//! `arcade://bets/{bet_id}`, `arcade://rounds/{round_id}`, `arcade://seed-batches/{batch_id}`
//! and `arcade://seed-batches/{batch_id}/rows/{index}`. Each read is REST's read: the template's value goes
//! through the same parse as REST's path (`crate::inputs`), the same service call and, for
//! the seed batches, the same heavy-read limit; the JSON is REST's answer, byte for byte.
//!
//! A round is read as on REST: its id is what plays it, so whoever holds the id (its owner,
//! who got it from `arcade_commit`) may read it; nothing lists or completes round ids, and an
//! open round shows only its commitment. An unknown id is `round_not_found`.

use rmcp::ErrorData;
use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate,
};
use serde::Serialize;
use serde_json::{Map, Value};

use super::errors::protocol_error;
use super::rules;
use super::tools::ArcadeTools;
use crate::error::ApiError;
use crate::inputs::queries::{BetPath, RoundPath, SeedBatchPath, SeedRowPath, SeedRowsQuery};
use crate::inputs::{self, Input, Place};
use crate::rate_limits::Caller;
use crate::service::seeds::RowsPage;

pub const RULES: &str = "arcade://rules";
pub const SEED_BATCHES: &str = "arcade://seed-batches";
pub const BETS: &str = "arcade://bets/";
pub const ROUNDS: &str = "arcade://rounds/";
pub const SEED_BATCH: &str = "arcade://seed-batches/";
/// Between a batch id and a row index in `arcade://seed-batches/{batch_id}/rows/{index}`.
const SEED_ROWS: &str = "/rows/";

const JSON: &str = "application/json";
const MARKDOWN: &str = "text/markdown";

pub fn list() -> ListResourcesResult {
    ListResourcesResult::with_all_items(vec![
        resource(
            RULES,
            "rules",
            MARKDOWN,
            "The fairness algorithm (normative, version 1), this deployment's live limits and the free-chip rule.",
        ),
        resource(
            SEED_BATCHES,
            "seed-batches",
            JSON,
            "Every published seed batch, oldest first: its signed Merkle root and how many of its seeds commits have taken (as GET /api/arcade/seed-batches).",
        ),
    ])
}

pub fn templates() -> ListResourceTemplatesResult {
    ListResourceTemplatesResult::with_all_items(vec![
        template(
            "arcade://bets/{bet_id}",
            "bet",
            "A settled bet's receipt with its proofs, re-derived with the fairness core and judged (`verdict`: pass, consistent, not proven, or fail): the same JSON as GET /api/arcade/verify/{bet_id} and arcade_verify.",
        ),
        template(
            "arcade://rounds/{round_id}",
            "round",
            "A round as it stands (open with expires_at, settled with its receipt, or expired), as GET /api/arcade/rounds/{round_id}: readable by whoever holds the round_id arcade_commit gave its owner.",
        ),
        template(
            "arcade://seed-batches/{batch_id}",
            "seed-batch",
            "One seed batch with its first 1000 used indices: round, state, commitment, audit path and, once revealed, the seed (as GET /api/arcade/seed-batches/{batch_id}; REST pages the rest with from).",
        ),
        template(
            "arcade://seed-batches/{batch_id}/rows/{index}",
            "seed-batch-row",
            "One used index of a seed batch with the batch's signed root: all that places a round's seed in its batch, a few KB (as GET /api/arcade/seed-batches/{batch_id}/rows/{index}).",
        ),
    ])
}

fn resource(uri: &str, name: &str, mime: &str, description: &str) -> Resource {
    Resource::new(uri, name)
        .with_mime_type(mime)
        .with_description(description)
}

fn template(uri: &str, name: &str, description: &str) -> ResourceTemplate {
    ResourceTemplate::new(uri, name)
        .with_mime_type(JSON)
        .with_description(description)
}

impl ArcadeTools {
    /// Reads a resource by its URI; an unknown URI is `resource_not_found` (-32002).
    pub(super) async fn read(
        &self,
        uri: &str,
        caller: Caller,
    ) -> Result<ReadResourceResult, ErrorData> {
        let json = match uri {
            RULES => return self.rules(uri).await,
            SEED_BATCHES => {
                let _reading = self
                    .arcade
                    .rate_limits
                    .heavy_read(caller, 1)
                    .map_err(protocol_error)?;
                json(self.arcade.seed_batches.all().await)
            }
            _ => return self.read_template(uri, caller).await,
        }?;
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(json, uri).with_mime_type(JSON),
        ]))
    }

    async fn read_template(
        &self,
        uri: &str,
        caller: Caller,
    ) -> Result<ReadResourceResult, ErrorData> {
        let json = if let Some(id) = uri.strip_prefix(BETS) {
            let input = path::<BetPath>("bet_id", id)?;
            json(self.arcade.receipts.verify_bet(caller, input.bet_id).await)
        } else if let Some(id) = uri.strip_prefix(ROUNDS) {
            let input = path::<RoundPath>("round_id", id)?;
            json(self.arcade.rounds.round(caller, &input.round_id).await)
        } else if let Some(rest) = uri.strip_prefix(SEED_BATCH) {
            return self.read_seed_batch(uri, rest, caller).await;
        } else {
            return Err(unknown(uri));
        }?;
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(json, uri).with_mime_type(JSON),
        ]))
    }

    /// `arcade://seed-batches/{batch_id}` (the first page of its rows, as REST's default) or
    /// `arcade://seed-batches/{batch_id}/rows/{index}`.
    async fn read_seed_batch(
        &self,
        uri: &str,
        rest: &str,
        caller: Caller,
    ) -> Result<ReadResourceResult, ErrorData> {
        let json = match rest.split_once(SEED_ROWS) {
            Some((batch_id, index)) => {
                let row = Map::from_iter([
                    ("batch_id".to_owned(), Value::String(batch_id.to_owned())),
                    ("index".to_owned(), Value::String(index.to_owned())),
                ]);
                if [batch_id, index].iter().any(|v| !segment(v)) {
                    return Err(unknown(uri));
                }
                let input: SeedRowPath = inputs::parse(row, Place::Path).map_err(protocol_error)?;
                let reading = self
                    .arcade
                    .seed_batches
                    .begin_row(caller, input.batch_id)
                    .await
                    .map_err(protocol_error)?;
                json(
                    self.arcade
                        .seed_batches
                        .row(reading, input.batch_id, input.index)
                        .await,
                )
            }
            None => {
                let input = path::<SeedBatchPath>("batch_id", rest)?;
                let page = RowsPage {
                    from: 0,
                    limit: SeedRowsQuery::DEFAULT_LIMIT,
                };
                let reading = self
                    .arcade
                    .seed_batches
                    .begin_page(caller, input.batch_id, page.limit)
                    .await
                    .map_err(protocol_error)?;
                json(
                    self.arcade
                        .seed_batches
                        .one(reading, input.batch_id, page)
                        .await,
                )
            }
        }?;
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(json, uri).with_mime_type(JSON),
        ]))
    }

    async fn rules(&self, uri: &str) -> Result<ReadResourceResult, ErrorData> {
        let listing = self.arcade.stats.games().await.map_err(protocol_error)?;
        let text = rules::markdown(&listing.limits, self.arcade.stats.round_ttl_secs());
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(text, uri).with_mime_type(MARKDOWN),
        ]))
    }
}

/// Whether a template's value is one path segment.
fn segment(value: &str) -> bool {
    !value.is_empty() && !value.contains(['/', '?', '#'])
}

/// A template's value parsed as REST parses the same path segment.
fn path<I: Input>(name: &str, value: &str) -> Result<I, ErrorData> {
    if !segment(value) {
        return Err(unknown(value));
    }
    let object = Map::from_iter([(name.to_owned(), Value::String(value.to_owned()))]);
    inputs::parse::<I>(object, Place::Path).map_err(protocol_error)
}

/// REST's JSON of a service answer, or its error.
fn json<T: Serialize, E: Into<ApiError>>(result: Result<T, E>) -> Result<String, ErrorData> {
    let value = result.map_err(protocol_error)?;
    serde_json::to_string(&value).map_err(|error| protocol_error(ApiError::internal(error)))
}

fn unknown(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(
        format!(
            "resource_not_found: no resource {uri}; see resources/list and resources/templates/list"
        ),
        Some(serde_json::json!({ "code": "resource_not_found", "uri": uri })),
    )
}
