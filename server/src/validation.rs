//! Request validation with the interface's FastAPI-shaped 422 body (`HTTPValidationError`):
//! every problem of a request is reported at once, each with `loc`, `msg`, `type`, `input` and,
//! for bounds and choices, `ctx`.

use salvo::oapi::ToSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};

/// One problem with one part of a request.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[salvo(schema(name = "ValidationError"))]
pub struct FieldError {
    /// Where: `["body", "wager"]`, `["path", "bet_id"]`, `["query", "limit"]`.
    #[salvo(schema(value_type = Vec<Object>))]
    pub loc: Vec<Value>,
    pub msg: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[salvo(schema(value_type = Option<Object>))]
    pub input: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[salvo(schema(value_type = Option<Object>))]
    pub ctx: Option<Value>,
}

/// The 422 body.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[salvo(schema(name = "HTTPValidationError"))]
pub struct ValidationError {
    pub detail: Vec<FieldError>,
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

/// Reads typed fields out of a JSON object, collecting every problem. Getters return a
/// placeholder on error; [`Fields::finish`] then refuses the whole request.
pub struct Fields<'a> {
    object: &'a Map<String, Value>,
    place: &'static str,
    errors: Vec<FieldError>,
}

impl<'a> Fields<'a> {
    pub fn new(object: &'a Map<String, Value>, place: &'static str) -> Self {
        Self {
            object,
            place,
            errors: Vec::new(),
        }
    }

    /// Whether the object has a (non-null) value for `name`.
    pub fn has(&self, name: &str) -> bool {
        self.object.get(name).is_some_and(|v| !v.is_null())
    }

    pub fn loc(&self, name: &str) -> [Value; 2] {
        [json!(self.place), json!(name)]
    }

    pub fn push(&mut self, error: FieldError) {
        self.errors.push(error);
    }

    fn present(&mut self, name: &str) -> Option<&'a Value> {
        match self.object.get(name) {
            Some(value) => Some(value),
            None => {
                let missing = FieldError::new(
                    &self.loc(name),
                    "missing",
                    "Field required",
                    Some(Value::Object(self.object.clone())),
                );
                self.errors.push(missing);
                None
            }
        }
    }

    fn optional(&self, name: &str) -> Option<&'a Value> {
        self.object.get(name).filter(|v| !v.is_null())
    }

    pub fn string(&mut self, name: &str, max_chars: usize) -> String {
        self.checked_string(name, max_chars).unwrap_or_default()
    }

    /// A required string; `None` when it is missing or refused (the error is recorded).
    pub fn checked_string(&mut self, name: &str, max_chars: usize) -> Option<String> {
        let value = self.present(name)?;
        self.check_string(name, value, max_chars)
    }

    /// An optional boolean (JSON `true`/`false` only).
    pub fn optional_bool(&mut self, name: &str) -> Option<bool> {
        let value = self.optional(name)?;
        if let Value::Bool(flag) = value {
            return Some(*flag);
        }
        let error = FieldError::new(
            &self.loc(name),
            "bool_type",
            "Input should be a valid boolean",
            Some(value.clone()),
        );
        self.errors.push(error);
        None
    }

    pub fn optional_string(&mut self, name: &str, max_chars: usize) -> Option<String> {
        let value = self.optional(name)?;
        self.check_string(name, value, max_chars)
    }

    fn check_string(&mut self, name: &str, value: &Value, max_chars: usize) -> Option<String> {
        let Value::String(text) = value else {
            let error = FieldError::new(
                &self.loc(name),
                "string_type",
                "Input should be a valid string",
                Some(value.clone()),
            );
            self.errors.push(error);
            return None;
        };
        if text.chars().count() > max_chars {
            let error = FieldError::new(
                &self.loc(name),
                "string_too_long",
                format!("String should have at most {max_chars} characters"),
                Some(value.clone()),
            )
            .with_ctx(json!({ "max_length": max_chars }));
            self.errors.push(error);
            return None;
        }
        Some(text.clone())
    }

    pub fn integer(&mut self, name: &str, min: i64, max: i64) -> i64 {
        let Some(value) = self.present(name) else {
            return 0;
        };
        self.check_integer(name, value, min, max).unwrap_or(0)
    }

    pub fn optional_integer(&mut self, name: &str, min: i64, max: i64) -> Option<i64> {
        let value = self.optional(name)?;
        self.check_integer(name, value, min, max)
    }

    fn check_integer(&mut self, name: &str, value: &Value, min: i64, max: i64) -> Option<i64> {
        let loc = self.loc(name);
        match integer_in(&loc, value, min, max) {
            Ok(n) => Some(n),
            Err(error) => {
                self.errors.push(error);
                None
            }
        }
    }

    /// One of `choices` by its exact name; `default` when absent (or required when `None`).
    pub fn choice<T: Copy>(
        &mut self,
        name: &str,
        choices: &[(&str, T)],
        default: Option<T>,
    ) -> Option<T> {
        let value = match default {
            Some(default) => match self.optional(name) {
                Some(value) => value,
                None => return Some(default),
            },
            None => self.present(name)?,
        };
        if let Some((_, choice)) = choices.iter().find(|(n, _)| value.as_str() == Some(*n)) {
            return Some(*choice);
        }
        let expected = quoted_list(choices.iter().map(|(n, _)| *n));
        let error = FieldError::new(
            &self.loc(name),
            "enum",
            format!("Input should be {expected}"),
            Some(value.clone()),
        )
        .with_ctx(json!({ "expected": expected }));
        self.errors.push(error);
        None
    }

    pub fn finish(self) -> Result<(), ValidationError> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(ValidationError {
                detail: self.errors,
            })
        }
    }
}

/// A JSON integer within `min..=max`; floats, strings and booleans are refused.
pub fn integer_in(loc: &[Value], value: &Value, min: i64, max: i64) -> Result<i64, FieldError> {
    let number = match value {
        Value::Number(n) => n,
        other => {
            return Err(FieldError::new(
                loc,
                "int_type",
                "Input should be a valid integer",
                Some(other.clone()),
            ));
        }
    };
    let Some(n) = number.as_i64() else {
        let (kind, msg) = if number.is_f64() {
            (
                "int_from_float",
                "Input should be a valid integer, got a number with a fractional part",
            )
        } else {
            ("int_type", "Input should be a valid integer")
        };
        return Err(FieldError::new(loc, kind, msg, Some(value.clone())));
    };
    bounded(loc, n, min, max, value.clone())
}

/// An integer given as text (path and query parameters).
pub fn integer_text(loc: &[Value], text: &str, min: i64, max: i64) -> Result<i64, FieldError> {
    let n: i64 = text.parse().map_err(|_| {
        FieldError::new(
            loc,
            "int_parsing",
            "Input should be a valid integer, unable to parse string as an integer",
            Some(json!(text)),
        )
    })?;
    bounded(loc, n, min, max, json!(text))
}

fn bounded(loc: &[Value], n: i64, min: i64, max: i64, input: Value) -> Result<i64, FieldError> {
    if n < min {
        return Err(FieldError::new(
            loc,
            "greater_than_equal",
            format!("Input should be greater than or equal to {min}"),
            Some(input),
        )
        .with_ctx(json!({ "ge": min })));
    }
    if n > max {
        return Err(FieldError::new(
            loc,
            "less_than_equal",
            format!("Input should be less than or equal to {max}"),
            Some(input),
        )
        .with_ctx(json!({ "le": max })));
    }
    Ok(n)
}

fn quoted_list<'n>(names: impl Iterator<Item = &'n str>) -> String {
    let quoted: Vec<String> = names.map(|n| format!("'{n}'")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
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

    #[test]
    fn every_problem_is_reported_at_once() {
        let object = json_object(br#"{"wager": 1.5, "call": "edge"}"#).unwrap();
        let mut fields = Fields::new(&object, "body");
        fields.string("round_id", 64);
        fields.integer("wager", 1, i64::MAX);
        fields.choice("call", &[("heads", 0), ("tails", 1)], None);
        let kinds: Vec<String> = fields
            .finish()
            .unwrap_err()
            .detail
            .into_iter()
            .map(|e| e.kind)
            .collect();
        assert_eq!(kinds, ["missing", "int_from_float", "enum"]);
    }

    #[test]
    fn choices_read_like_pydantic() {
        assert_eq!(
            quoted_list(["under", "over"].into_iter()),
            "'under' or 'over'"
        );
        assert_eq!(quoted_list(["a", "b", "c"].into_iter()), "'a', 'b' or 'c'");
    }
}
