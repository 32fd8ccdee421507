//! Each tool's `outputSchema`: the schema of the type its structured content serializes, as
//! the OpenAPI document shows it for the REST twin (salvo's `ToSchema`, one derive per type),
//! or, on a result with `isError`, the error body REST answers (`ErrorBody`, or the 422's
//! `HTTPValidationError`), each with its `code`. Made self-contained for MCP clients, which
//! validate every structured result against it (the official TypeScript client errors
//! included): each `#/components/schemas/…` reference is replaced by the schema it names, and
//! OpenAPI's number formats (`uint64`, `int32`, `double`, …), which JSON Schema does not define
//! and validators warn about, give way to what they mean (an unsigned one: `minimum: 0`).

use std::sync::Arc;

use rmcp::model::JsonObject;
use salvo::oapi::{Components, ToSchema};
use serde_json::{Map, Value, json};

use crate::error::ErrorBody;
use crate::inputs::ValidationError;

const COMPONENTS: &str = "#/components/schemas/";
/// Deeper than any output type nests; a reference past it is left as it is (never reached).
const MAX_DEPTH: usize = 16;

/// The output schema of a tool whose result is a `T`: a `T`, or the error body.
pub fn of<T: ToSchema>() -> Arc<JsonObject> {
    let answers = [
        schema_of::<T>(),
        schema_of::<ErrorBody>(),
        with_code(schema_of::<ValidationError>()),
    ];
    let Value::Object(schema) = json!({ "type": "object", "anyOf": answers }) else {
        unreachable!("a json! object literal is an object");
    };
    Arc::new(schema)
}

/// The output schema of a paid tool whose result is a `T`: [`of`], or the x402 challenge its
/// 402 answers (`PaymentRequired` with the refusal's `error`, `detail` and `code`).
pub fn paid<T: ToSchema>() -> Arc<JsonObject> {
    let mut schema = (*of::<T>()).clone();
    if let Some(Value::Array(answers)) = schema.get_mut("anyOf") {
        answers.push(challenge());
    }
    Arc::new(schema)
}

/// The x402 v2 `PaymentRequired` as a 402 body carries it.
fn challenge() -> Value {
    json!({
        "type": "object",
        "required": ["x402Version", "resource", "accepts", "detail", "code"],
        "properties": {
            "x402Version": { "type": "integer", "const": 2 },
            "error": { "type": "string", "description": "why a payment was refused (the x402 reason)" },
            "resource": { "type": "object", "required": ["url"], "properties": { "url": { "type": "string" } } },
            "accepts": { "type": "array", "items": { "type": "object" } },
            "extensions": { "type": "object" },
            "detail": { "type": "string" },
            "code": { "type": "string" }
        }
    })
}

/// The schema of `T`, every reference inlined.
fn schema_of<T: ToSchema>() -> Value {
    let mut components = Components::new();
    let root = serde_json::to_value(T::to_schema(&mut components)).unwrap_or_default();
    let named = serde_json::to_value(&components.schemas).unwrap_or_default();
    inline(root, &named, 0)
}

/// A 422 body as a tool error carries it: with its `code`.
fn with_code(mut schema: Value) -> Value {
    schema["properties"]["code"] = json!({ "type": "string", "const": "validation_error" });
    schema
}

/// `value` with every component reference replaced by its schema.
fn inline(value: Value, named: &Value, depth: usize) -> Value {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref")
                && let Some(name) = reference.strip_prefix(COMPONENTS)
                && depth < MAX_DEPTH
                && let Some(schema) = named.get(name)
            {
                return inline(schema.clone(), named, depth + 1);
            }
            let map = without_number_format(map);
            map.into_iter()
                .map(|(key, inner)| (key, inline(inner, named, depth)))
                .collect::<Map<_, _>>()
                .into()
        }
        Value::Array(items) => items
            .into_iter()
            .map(|item| inline(item, named, depth))
            .collect(),
        other => other,
    }
}

/// `schema` without an OpenAPI number format; an unsigned one becomes `minimum: 0`.
fn without_number_format(mut schema: Map<String, Value>) -> Map<String, Value> {
    let Some(Value::String(format)) = schema.get("format") else {
        return schema;
    };
    let unsigned = format.starts_with("uint");
    let numeric =
        unsigned || format.starts_with("int") || matches!(format.as_str(), "double" | "float");
    if numeric {
        schema.remove("format");
        if unsigned {
            schema.entry("minimum").or_insert(json!(0));
        }
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::tools::ArcadeTools;

    #[test]
    fn every_tool_declares_its_result_or_the_error_body_with_nothing_left_to_resolve() {
        let tools = ArcadeTools::router().list_all();
        assert!(tools.len() >= 13);
        for tool in &tools {
            let schema = tool.output_schema.as_ref().expect(&tool.name);
            assert_eq!(schema["type"], "object", "{}", tool.name);
            let answers = schema["anyOf"].as_array().expect("anyOf");
            let paid = usize::from(tool.name == super::super::buy::NAME);
            assert_eq!(answers.len(), 3 + paid, "{}", tool.name);
            assert!(
                !properties(&answers[0]).is_empty(),
                "{}: {}",
                tool.name,
                answers[0]
            );
            let text = Value::Object((**schema).clone()).to_string();
            assert!(!text.contains(COMPONENTS), "{}: {text}", tool.name);
            for format in ["uint", "int", "double", "float"] {
                assert!(
                    !text.contains(&format!("\"format\":\"{format}")),
                    "{}: {format} in {text}",
                    tool.name
                );
            }
        }
        let flip = ArcadeTools::router().get("arcade_flip").cloned().unwrap();
        let played = properties(&flip.output_schema.unwrap()["anyOf"][0]);
        for field in [
            "bet_id",
            "commitment",
            "server_seed",
            "result",
            "balance",
            "replayed",
        ] {
            assert!(
                played.contains(&field.to_owned()),
                "a play's result has {field}: {played:?}"
            );
        }
    }

    /// The properties a schema names, its `allOf` parts' included (a flattened struct).
    fn properties(schema: &Value) -> Vec<String> {
        let own = schema["properties"]
            .as_object()
            .into_iter()
            .flat_map(|p| p.keys().cloned());
        let parts = schema["allOf"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(properties);
        own.chain(parts).collect()
    }
}
