//! An error as MCP clients receive it: the REST body with its `code` and a one-line text
//! (`bet_not_found: no such bet`), as a tool error (`tools::answer`) or, for resource reads and
//! prompts, as a JSON-RPC error whose `data` is that body.

use rmcp::ErrorData;
use rmcp::model::ErrorCode;
use serde_json::{Value, json};

use crate::error::ApiError;

/// The REST body with `code` always set, and the line that says it.
pub(super) fn described(error: &ApiError) -> (Value, String) {
    error.log_if_internal();
    let mut body = error.body();
    body["code"] = json!(error.code());
    let text = match &body["detail"] {
        Value::String(detail) => format!("{}: {detail}", error.code()),
        problems => format!("{}: the arguments are not valid: {problems}", error.code()),
    };
    (body, text)
}

/// A JSON-RPC error: -32002 (resource not found) for what REST answers 404, -32603 for a
/// server failure, -32602 (invalid params) for any other refusal; `data` is REST's body.
pub(super) fn protocol_error(error: impl Into<ApiError>) -> ErrorData {
    let error = error.into();
    let (body, text) = described(&error);
    let code = match error.status().as_u16() {
        404 => ErrorCode::RESOURCE_NOT_FOUND,
        500.. => ErrorCode::INTERNAL_ERROR,
        _ => ErrorCode::INVALID_PARAMS,
    };
    ErrorData::new(code, text, Some(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_bet_is_resource_not_found_with_the_rest_code() {
        let error = protocol_error(crate::service::receipts::ReceiptError::BetNotFound(7));
        assert_eq!(error.code, ErrorCode::RESOURCE_NOT_FOUND);
        assert_eq!(error.data.unwrap()["code"], "bet_not_found");
        assert!(error.message.starts_with("bet_not_found: "));
    }
}
