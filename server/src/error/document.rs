//! The error answers as the OpenAPI document states them on every operation.

use salvo::oapi::{self, Components, EndpointOutRegister, Operation, ToSchema};
use serde::{Deserialize, Serialize};

use super::ApiError;
use crate::inputs::ValidationError;

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
        for (status, meaning) in [
            (
                "401",
                "signature_required, signature_invalid or signature_revoked (a statement its owner rotated away from)",
            ),
            (
                "403",
                "signature_mismatch, round_not_yours or play_signature_mismatch",
            ),
            (
                "400",
                "A rule refused the request (insufficient_chips, limits, invalid_call, play_signature_invalid, cashout_out_of_range, buy_in_required, cashout_exceeds_cashable)",
            ),
            (
                "404",
                "round_not_found, bet_not_found, unknown_tier, cashout_not_found",
            ),
            (
                "409",
                "round_spent (with bet_id), round_expired, free_already_claimed",
            ),
            (
                "429",
                "rate_limited (with retry_after_s and Retry-After) or too_many_open_rounds",
            ),
            ("500", "internal"),
            (
                "502",
                "cashout_failed: the transfer could not be sent; the chips were refunded",
            ),
            (
                "503",
                "chain_unavailable, payments_unavailable, house_underfunded (a cashout the house cannot pay now; nothing debited)",
            ),
        ] {
            operation.responses.insert(
                status,
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
