//! The one parse: a request's values are checked against the JSON Schema generated from its
//! input struct (the same schema the OpenAPI document and the MCP tool publish), every problem
//! reported at once in pydantic's words. So the documents state exactly what the server
//! enforces, and the server accepts exactly what they allow.
//!
//! The keywords the input structs use are the ones checked: `type` (with `null` for optional
//! fields), `enum`, `minimum`/`maximum`, `minLength`/`maxLength` (in characters), `pattern`,
//! `required`, `additionalProperties: false`. A property may carry `x-rule`, a sentence: a
//! `pattern` or `minLength` it fails is then reported as pydantic's `value_error` with it.
//! The game calls' own keywords (roulette's `if`/`then`/`else`, limbo's `anyOf` target) state
//! the core's rule, which the call's parse enforces; its refusal is the same 422, at the field.

use serde_json::{Map, Number, Value, json};

use super::problems::FieldError;

/// Where values come from: a JSON body (typed values) or a path or query (text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Body,
    Path,
    Query,
}

impl Place {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Body => "body",
            Self::Path => "path",
            Self::Query => "query",
        }
    }
}

/// Checks `object` against an object `schema`, normalising what JSON Schema calls the same
/// value (`1781.0` is the integer 1781; path and query integers are parsed from text).
pub fn object(
    schema: &Map<String, Value>,
    object: &mut Map<String, Value>,
    place: Place,
) -> Vec<FieldError> {
    let mut problems = Vec::new();
    let loc = |name: &str| [json!(place.as_str()), json!(name)];
    let (properties, required) = super::schema::properties(schema);
    for (name, property) in properties {
        match object.get_mut(name) {
            Some(value) => {
                let Some(property) = property.as_object() else {
                    continue;
                };
                if let Err(problem) = self::value(property, value, place, &loc(name)) {
                    problems.push(problem);
                }
            }
            None if required.contains(&name.as_str()) => problems.push(FieldError::new(
                &loc(name),
                "missing",
                "Field required",
                Some(Value::Object(object.clone())),
            )),
            None => {}
        }
    }
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        for (name, value) in object.iter() {
            if !properties.contains_key(name) {
                problems.push(FieldError::new(
                    &loc(name),
                    "extra_forbidden",
                    "Extra inputs are not permitted",
                    Some(value.clone()),
                ));
            }
        }
    }
    problems
}

fn value(
    schema: &Map<String, Value>,
    value: &mut Value,
    place: Place,
    loc: &[Value],
) -> Result<(), FieldError> {
    let types = types_of(schema);
    if value.is_null() && types.contains(&"null") {
        return Ok(());
    }
    match types.iter().find(|t| **t != "null").copied() {
        Some("string") => string(schema, value, loc),
        Some("integer") => integer(schema, value, place, loc),
        Some("boolean") => match value {
            Value::Bool(_) => Ok(()),
            other => Err(FieldError::new(
                loc,
                "bool_type",
                "Input should be a valid boolean",
                Some(other.clone()),
            )),
        },
        _ => Ok(()),
    }
}

fn types_of(schema: &Map<String, Value>) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn string(schema: &Map<String, Value>, value: &Value, loc: &[Value]) -> Result<(), FieldError> {
    let Value::String(text) = value else {
        return Err(FieldError::new(
            loc,
            "string_type",
            "Input should be a valid string",
            Some(value.clone()),
        ));
    };
    let rule = schema.get("x-rule").and_then(Value::as_str);
    let refused_by_rule = |fallback: FieldError| match rule {
        Some(rule) => FieldError::value_error(loc, rule, value.clone()),
        None => fallback,
    };
    if let Some(expected) = schema.get("enum").and_then(Value::as_array) {
        return one_of(expected, value, loc);
    }
    let chars = text.chars().count();
    if let Some(max) = bound(schema, "maxLength").filter(|max| chars as u64 > *max) {
        return Err(FieldError::new(
            loc,
            "string_too_long",
            format!("String should have at most {max} characters"),
            Some(value.clone()),
        )
        .with_ctx(json!({ "max_length": max })));
    }
    if let Some(min) = bound(schema, "minLength").filter(|min| (chars as u64) < *min) {
        let plural = if min == 1 { "" } else { "s" };
        return Err(refused_by_rule(
            FieldError::new(
                loc,
                "string_too_short",
                format!("String should have at least {min} character{plural}"),
                Some(value.clone()),
            )
            .with_ctx(json!({ "min_length": min })),
        ));
    }
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str)
        && !super::patterns::matches(pattern, text)
    {
        return Err(refused_by_rule(
            FieldError::new(
                loc,
                "string_pattern_mismatch",
                format!("String should match pattern '{pattern}'"),
                Some(value.clone()),
            )
            .with_ctx(json!({ "pattern": pattern })),
        ));
    }
    Ok(())
}

/// A string `enum`: the value must be one of the names.
fn one_of(expected: &[Value], value: &Value, loc: &[Value]) -> Result<(), FieldError> {
    if expected.contains(value) {
        return Ok(());
    }
    let names = quoted_list(expected.iter().filter_map(Value::as_str));
    Err(FieldError::new(
        loc,
        "enum",
        format!("Input should be {names}"),
        Some(value.clone()),
    )
    .with_ctx(json!({ "expected": names })))
}

fn bound(schema: &Map<String, Value>, keyword: &str) -> Option<u64> {
    schema.get(keyword).and_then(Value::as_u64)
}

/// An integer, normalised in place: a JSON number without a fractional part is one (JSON
/// Schema's rule), and path and query text is parsed.
fn integer(
    schema: &Map<String, Value>,
    value: &mut Value,
    place: Place,
    loc: &[Value],
) -> Result<(), FieldError> {
    let input = value.clone();
    let n: i128 = match (&input, place) {
        (Value::String(text), Place::Path | Place::Query) => text.parse().map_err(|_| {
            FieldError::new(
                loc,
                "int_parsing",
                "Input should be a valid integer, unable to parse string as an integer",
                Some(input.clone()),
            )
        })?,
        (Value::Number(number), _) => whole(number).ok_or_else(|| {
            FieldError::new(
                loc,
                "int_from_float",
                "Input should be a valid integer, got a number with a fractional part",
                Some(input.clone()),
            )
        })?,
        (other, _) => {
            return Err(FieldError::new(
                loc,
                "int_type",
                "Input should be a valid integer",
                Some(other.clone()),
            ));
        }
    };
    if let Some(min) = schema.get("minimum").and_then(Value::as_i64)
        && n < i128::from(min)
    {
        return Err(FieldError::new(
            loc,
            "greater_than_equal",
            format!("Input should be greater than or equal to {min}"),
            Some(input),
        )
        .with_ctx(json!({ "ge": min })));
    }
    if let Some(max) = schema.get("maximum").and_then(Value::as_i64)
        && n > i128::from(max)
    {
        return Err(FieldError::new(
            loc,
            "less_than_equal",
            format!("Input should be less than or equal to {max}"),
            Some(input),
        )
        .with_ctx(json!({ "le": max })));
    }
    // Every integer field has int64 bounds, so this fits.
    *value = i64::try_from(n).map_or(input, |n| Value::Number(n.into()));
    Ok(())
}

/// The integer a JSON number stands for, if it has no fractional part. Beyond ±2^127 it
/// saturates, which is past every bound the inputs set, so the bound check still refuses it.
fn whole(number: &Number) -> Option<i128> {
    if let Some(n) = number.as_i64() {
        return Some(i128::from(n));
    }
    if let Some(n) = number.as_u64() {
        return Some(i128::from(n));
    }
    let float = number.as_f64()?;
    #[allow(clippy::cast_possible_truncation)] // whole: exact, or saturated past every bound
    (float.is_finite() && float.fract() == 0.0).then_some(float as i128)
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

    fn schema() -> Map<String, Value> {
        json!({
            "type": "object",
            "properties": {
                "round_id": { "type": "string", "maxLength": 64 },
                "wager": { "type": "integer", "minimum": 1, "maximum": i64::MAX },
                "call": { "type": "string", "enum": ["heads", "tails"] },
                "seed": { "type": "string", "minLength": 1, "pattern": "^[a-z]*$", "x-rule": "lowercase letters only" },
                "note": { "type": ["string", "null"] },
            },
            "required": ["round_id", "wager", "call"],
        })
        .as_object()
        .unwrap()
        .clone()
    }

    fn kinds(body: Value, place: Place) -> (Vec<String>, Value) {
        let mut body = body.as_object().unwrap().clone();
        let kinds = object(&schema(), &mut body, place)
            .into_iter()
            .map(|p| p.kind)
            .collect();
        (kinds, Value::Object(body))
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let (mut found, _) = kinds(
            json!({"wager": 1.5, "call": "edge", "seed": "A"}),
            Place::Body,
        );
        found.sort();
        assert_eq!(found, ["enum", "int_from_float", "missing", "value_error"]);
    }

    #[test]
    fn a_whole_number_is_an_integer_and_is_normalised() {
        let (found, body) = kinds(
            json!({"round_id": "r", "wager": 1781.0, "call": "heads"}),
            Place::Body,
        );
        assert!(found.is_empty(), "{found:?}");
        assert_eq!(body["wager"], json!(1781));
        let (found, _) = kinds(
            json!({"round_id": "r", "wager": 1e300, "call": "heads"}),
            Place::Body,
        );
        assert_eq!(found, ["less_than_equal"]);
        let (found, _) = kinds(
            json!({"round_id": "r", "wager": "5", "call": "heads"}),
            Place::Body,
        );
        assert_eq!(found, ["int_type"]);
    }

    #[test]
    fn text_is_parsed_in_paths_and_queries_only() {
        let (found, body) = kinds(
            json!({"round_id": "r", "wager": "12", "call": "tails"}),
            Place::Query,
        );
        assert!(found.is_empty(), "{found:?}");
        assert_eq!(body["wager"], json!(12));
        let (found, _) = kinds(
            json!({"round_id": "r", "wager": "1.0", "call": "tails"}),
            Place::Path,
        );
        assert_eq!(found, ["int_parsing"]);
    }

    #[test]
    fn null_is_accepted_only_where_the_type_allows_it() {
        let (found, _) = kinds(
            json!({"round_id": null, "wager": 1, "call": "heads", "note": null}),
            Place::Body,
        );
        assert_eq!(found, ["string_type"]);
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
