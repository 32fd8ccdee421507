//! The error answers as the OpenAPI document states them on every operation.

use std::collections::BTreeMap;

use salvo::oapi::{self, Components, EndpointOutRegister, Operation, ToSchema};
use serde::{Deserialize, Serialize};

use super::ApiError;
use crate::inputs::ValidationError;
use crate::refusal::TABLE;

/// The error body of every non-422 error, for the OpenAPI document (and for clients that read
/// it, such as the house agents).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[salvo(schema(name = "ErrorBody"))]
pub struct ErrorBody {
    /// A sentence saying what went wrong.
    pub detail: String,
    /// Stable snake_case code, e.g. `insufficient_chips`, `round_spent`.
    pub code: String,
    /// With `wager_above_limit` and `payout_above_limit`: the largest wager this call accepts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_wager: Option<u64>,
    /// With `rate_limited`: seconds until a retry can pass (also the `Retry-After` header).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_s: Option<u64>,
    /// With `round_spent`: the bet that settled the round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bet_id: Option<i64>,
}

impl EndpointOutRegister for ApiError {
    fn register(components: &mut Components, operation: &mut Operation) {
        let error = ErrorBody::to_schema(components);
        for (status, meaning) in by_status() {
            operation.responses.insert(
                status.to_string(),
                oapi::Response::new(meaning).add_content("application/json", error.clone()),
            );
        }
        operation.responses.insert(
            "422",
            oapi::Response::new("Validation Error")
                .add_content("application/json", ValidationError::to_schema(components)),
        );
    }
}

/// The error table's rows by status, each status described by its codes and what they mean;
/// 402 (the purchases state theirs) and 422 (its own body) aside.
fn by_status() -> BTreeMap<u16, String> {
    let mut statuses: BTreeMap<u16, Vec<String>> = BTreeMap::new();
    for kind in TABLE
        .iter()
        .filter(|kind| ![402, 422].contains(&kind.status))
    {
        let line = format!("`{}`: {}", kind.code, kind.meaning);
        statuses.entry(kind.status).or_default().push(line);
    }
    statuses
        .into_iter()
        .map(|(status, lines)| (status, lines.join("; ")))
        .collect()
}
