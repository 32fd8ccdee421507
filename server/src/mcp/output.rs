//! Each tool's `outputSchema`: an outline of the type its structured content serializes, as
//! the OpenAPI document shows it for the REST twin (salvo's `ToSchema`, one derive per type),
//! or, on a result with `isError`, the error body (`code` and `detail`). MCP clients validate
//! every structured result against it (the official TypeScript client errors included), and
//! read every schema of `tools/list` into a model's context, so it is made small (the whole
//! `tools/list` result stays within 25 KB, `TOOLS_LIST_BUDGET` in the tests below):
//! - each `#/components/schemas/…` reference is resolved (nothing outside the schema);
//! - the result's own fields (a flattened struct's parts' included) keep their JSON Schema and
//!   which of them are required, without descriptions, titles or examples (the OpenAPI
//!   document keeps those); a field that is an object, or holds objects, is reduced to its
//!   JSON types (`object`, `array`, `null`): its shape is the REST twin's, documented there;
//! - OpenAPI's number formats (`uint64`, `int32`, `double`, …), which JSON Schema does not
//!   define and validators warn about, give way to what they mean (an unsigned one:
//!   `minimum: 0`).
//!
//! Every real result still validates: each reduction only widens what a schema accepts.

use std::sync::Arc;

use rmcp::model::JsonObject;
use salvo::oapi::{Components, ToSchema};
use serde_json::{Map, Value, json};

use super::schema_reduce::{has_shape, inline, json_types, simplified, without_annotations};

/// The output schema of a tool whose result is a `T`: a `T`, or the error body.
pub fn of<T: ToSchema>() -> Arc<JsonObject> {
    answers(vec![outline(&schema_of::<T>())])
}

/// The output schema of a paid tool whose result is a `T`: [`of`], or the x402 challenge its
/// 402 answers (`PaymentRequired` with the refusal's `error`, `detail` and `code`).
pub fn paid<T: ToSchema>() -> Arc<JsonObject> {
    answers(vec![outline(&schema_of::<T>()), outline(&challenge())])
}

/// An object that is one of `results`, or the error body every tool may answer.
fn answers(mut results: Vec<Value>) -> Arc<JsonObject> {
    results.insert(1, error());
    let Value::Object(schema) = json!({ "type": "object", "anyOf": results }) else {
        unreachable!("a json! object literal is an object");
    };
    Arc::new(schema)
}

/// A tool error's structured content, as REST's error bodies (`ErrorBody`, and the 422's
/// `HTTPValidationError` whose `detail` lists the problems): a `code` and a `detail` (a
/// sentence, or the problems).
fn error() -> Value {
    json!({
        "required": ["code", "detail"],
        "properties": { "code": { "type": "string" }, "detail": {} }
    })
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

/// The outline of an object's schema: its fields (those of its `allOf` parts included, as a
/// flattened struct has them), each as [`field`] keeps it, and those it requires (that it is
/// an object, the output schema's root says).
fn outline(schema: &Value) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    fields(schema, &mut properties, &mut required);
    let mut outline = json!({ "properties": properties });
    if !required.is_empty() {
        outline["required"] = Value::Array(required);
    }
    outline
}

/// Collects the fields and required names of `schema` and of its `allOf` parts.
fn fields(schema: &Value, properties: &mut Map<String, Value>, required: &mut Vec<Value>) {
    if let Some(own) = schema.get("properties").and_then(Value::as_object) {
        for (name, field_schema) in own {
            properties.insert(name.clone(), field(field_schema));
        }
    }
    for name in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if !required.contains(name) {
            required.push(name.clone());
        }
    }
    for part in schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        fields(part, properties, required);
    }
}

/// A field as the outline keeps it: a value without inner shape (a string, a number, an enum,
/// a list of such) as its schema says, without annotations; anything holding fields of its own
/// as its JSON types only.
fn field(schema: &Value) -> Value {
    if has_shape(schema) {
        return match json_types(schema) {
            Some(types) if types.len() == 1 => json!({ "type": types.first() }),
            Some(types) => json!({ "type": types }),
            None => json!({}),
        };
    }
    simplified(without_annotations(schema.clone()))
}

#[cfg(test)]
mod tests {
    use super::super::schema_reduce::COMPONENTS;
    use rmcp::model::ListToolsResult;

    use super::*;

    /// The most bytes the JSON of a `tools/list` result may take: what MCP clients read into a
    /// model's context before its first call (`tests/api-node/mcp-size.test.mjs` measures it on
    /// the wire).
    const TOOLS_LIST_BUDGET: usize = 25_000;

    #[test]
    fn every_tool_declares_its_result_or_the_error_body_with_nothing_left_to_resolve() {
        let tools = crate::mcp::router::router().list_all();
        assert!(tools.len() >= 13);
        for tool in &tools {
            let schema = tool.output_schema.as_ref().expect(&tool.name);
            assert_eq!(schema["type"], "object", "{}", tool.name);
            let answers = schema["anyOf"].as_array().expect("anyOf");
            let paid = usize::from(tool.name == super::super::buy::NAME);
            assert_eq!(answers.len(), 2 + paid, "{}", tool.name);
            assert!(
                !answers[0]["properties"].as_object().unwrap().is_empty(),
                "{}: {}",
                tool.name,
                answers[0]
            );
            assert_eq!(answers[1], error(), "{}", tool.name);
            let text = Value::Object((**schema).clone()).to_string();
            assert!(!text.contains(COMPONENTS), "{}: {text}", tool.name);
            for format in ["uint", "int", "double", "float"] {
                assert!(
                    !text.contains(&format!("\"format\":\"{format}")),
                    "{}: {format} in {text}",
                    tool.name
                );
            }
            let annotated = Value::Object((**schema).clone());
            assert_eq!(
                without_annotations(annotated.clone()),
                annotated,
                "{}",
                tool.name
            );
        }
        let flip = crate::mcp::router::router()
            .get("arcade_flip")
            .cloned()
            .unwrap();
        let played = &flip.output_schema.unwrap()["anyOf"][0];
        for field in [
            "bet_id",
            "commitment",
            "server_seed",
            "result",
            "balance",
            "replayed",
        ] {
            assert!(
                played["properties"].get(field).is_some(),
                "a play's result has {field}: {played}"
            );
            assert!(
                played["required"]
                    .as_array()
                    .unwrap()
                    .contains(&json!(field))
                    || field == "server_seed",
                "{field} is always there: {played}"
            );
        }
        assert_eq!(played["properties"]["bet_id"], json!({ "type": "integer" }));
        assert_eq!(
            played["properties"]["proofs"],
            json!({ "type": ["null", "object"] }),
            "a field with fields of its own is typed only"
        );
    }

    /// What MCP clients read into a model's context before the first call.
    #[test]
    fn tools_list_fits_its_budget() {
        let listed = ListToolsResult::with_all_items(crate::mcp::router::router().list_all());
        let bytes = serde_json::to_vec(&listed).unwrap().len();
        assert!(
            bytes <= TOOLS_LIST_BUDGET,
            "tools/list is {bytes} bytes, over {TOOLS_LIST_BUDGET}"
        );
    }

    #[test]
    fn a_field_keeps_its_own_constraints_and_loses_its_annotations() {
        let leaf = json!({
            "allOf": [
                { "type": "string", "enum": ["open", "settled"], "description": "the state" },
                { "description": "more" }
            ]
        });
        assert_eq!(
            field(&leaf),
            json!({ "type": "string", "enum": ["open", "settled"] })
        );
        let named =
            json!({ "type": "object", "properties": { "description": { "type": "string" } } });
        assert_eq!(field(&named), json!({ "type": "object" }));
        assert_eq!(
            without_annotations(named.clone()),
            named,
            "a field named description is a field"
        );
        let nullable =
            json!({ "oneOf": [{ "type": "null" }, { "type": "object", "properties": {} }] });
        assert_eq!(field(&nullable), json!({ "type": ["null", "object"] }));
        let listed = json!({ "type": "array", "items": { "type": "object", "properties": {} } });
        assert_eq!(field(&listed), json!({ "type": "array" }));
        let strings = json!({ "type": "array", "items": { "type": "string", "title": "t" } });
        assert_eq!(
            field(&strings),
            json!({ "type": "array", "items": { "type": "string" } })
        );
        let unknown = json!({ "anyOf": [{ "properties": {} }, { "type": "string" }] });
        assert_eq!(field(&unknown), json!({}), "no type said: any");
        let flattened = json!({ "allOf": [
            { "type": "object", "properties": { "a": { "type": "integer" } }, "required": ["a"] },
            { "type": "object", "properties": { "b": { "type": "string" } }, "required": ["b"] }
        ] });
        assert_eq!(
            outline(&flattened),
            json!({
                "properties": { "a": { "type": "integer" }, "b": { "type": "string" } },
                "required": ["a", "b"]
            })
        );
    }
}
