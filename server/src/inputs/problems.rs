//! The interface's FastAPI-shaped 422 body (`HTTPValidationError`): every problem of a request
//! at once, each with `loc`, `msg`, `type`, `input` and, for bounds and choices, `ctx`, worded
//! as pydantic words them.

use salvo::oapi::{Components, RefOr, Schema, ToSchema};
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::schema;

/// One problem with one part of a request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldError {
    /// Where: `["body", "wager"]`, `["path", "bet_id"]`, `["query", "limit"]`; a JSON syntax
    /// error gives `["body", <byte offset>]`.
    pub loc: Vec<Value>,
    pub msg: String,
    #[serde(rename = "type")]
    pub kind: String,
    /// The value that was refused (any JSON value).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
    /// Details of the rule: `{"ge": 1}`, `{"max_length": 256}`, `{"expected": "'heads' or 'tails'"}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ctx: Option<Value>,
}

/// The 422 body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValidationError {
    pub detail: Vec<FieldError>,
}

/// The interface's `HTTPValidationError`, as the OpenAPI document states it (the names are
/// FastAPI's).
impl ToSchema for ValidationError {
    fn to_schema(components: &mut Components) -> RefOr<Schema> {
        let problem = json!({
            "description": "One problem with one part of a request.",
            "type": "object",
            "properties": {
                "loc": {
                    "description": "Where: [\"body\", \"wager\"], [\"path\", \"bet_id\"], [\"query\", \"limit\"]; malformed JSON gives [\"body\", <byte offset>].",
                    "type": "array",
                    "items": { "anyOf": [{ "type": "string" }, { "type": "integer" }] },
                },
                "msg": { "type": "string" },
                "type": { "description": "pydantic's error type, e.g. missing, int_type, enum.", "type": "string" },
                "input": { "description": "The value that was refused (any JSON value)." },
                "ctx": { "description": "Details of the rule, e.g. {\"ge\": 1}.", "type": "object" },
            },
            "required": ["loc", "msg", "type"],
        });
        let problem = schema::register(components, "ValidationError", as_object(&problem));
        let body = json!({
            "type": "object",
            "properties": {
                "detail": { "type": "array", "items": problem },
                "code": { "description": "Always validation_error, as every error body carries its code.", "type": "string", "enum": ["validation_error"] },
            },
            "required": ["detail", "code"],
        });
        schema::register(components, "HTTPValidationError", as_object(&body))
    }
}

/// At start, for the OpenAPI document, over `json!` object literals: it cannot fail.
fn as_object(value: &Value) -> &Map<String, Value> {
    value.as_object().expect("a schema literal is an object")
}

impl FieldError {
    pub fn new(loc: &[Value], kind: &str, msg: impl Into<String>, input: Option<Value>) -> Self {
        Self {
            loc: loc.to_vec(),
            msg: msg.into(),
            kind: kind.into(),
            input,
            ctx: None,
        }
    }

    pub fn with_ctx(mut self, ctx: Value) -> Self {
        self.ctx = Some(ctx);
        self
    }

    /// A rule of our own (address format, client seed rules): pydantic's `value_error`.
    pub fn value_error(loc: &[Value], reason: impl std::fmt::Display, input: Value) -> Self {
        Self::new(
            loc,
            "value_error",
            format!("Value error, {reason}"),
            Some(input),
        )
        .with_ctx(json!({ "error": reason.to_string() }))
    }
}

impl ValidationError {
    pub fn one(error: FieldError) -> Self {
        Self {
            detail: vec![error],
        }
    }
}

/// Parses a JSON request body that must be an object.
pub fn json_object(bytes: &[u8]) -> Result<Map<String, Value>, ValidationError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ValidationError::one(FieldError::new(
            &[json!("body")],
            "missing",
            "Field required",
            Some(Value::Null),
        )));
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(ValidationError::one(FieldError::new(
            &[json!("body")],
            "model_attributes_type",
            "Input should be a valid dictionary or object to extract fields from",
            Some(other),
        ))),
        Err(error) => {
            let position = byte_offset(bytes, error.line(), error.column());
            Err(ValidationError::one(
                FieldError::new(
                    &[json!("body"), json!(position)],
                    "json_invalid",
                    "JSON decode error",
                    Some(json!({})),
                )
                .with_ctx(json!({ "error": error.to_string() })),
            ))
        }
    }
}

fn byte_offset(bytes: &[u8], line: usize, column: usize) -> usize {
    let line_start: usize = bytes
        .split(|b| *b == b'\n')
        .take(line.saturating_sub(1))
        .map(|l| l.len() + 1)
        .sum();
    line_start + column.saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_json_points_at_the_byte() {
        let error = json_object(b"{\"a\": }").unwrap_err();
        assert_eq!(error.detail[0].kind, "json_invalid");
        assert_eq!(error.detail[0].loc, vec![json!("body"), json!(6)]);
    }
}
