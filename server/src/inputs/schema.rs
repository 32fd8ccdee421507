//! An input's JSON Schema, generated once from its struct (JSON Schema 2020-12, every
//! subschema inline), and that same schema in salvo's OpenAPI types: the request body or the
//! path and query parameters of the operation.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use rmcp::schemars::JsonSchema;
use rmcp::schemars::generate::SchemaSettings;
use salvo::oapi::{Components, Parameter, ParameterIn, RefOr, Required, Schema};
use serde_json::{Map, Value};

/// A generated schema, shared.
pub type Shared = Arc<Map<String, Value>>;

/// The schema of `T`, as the checker, the OpenAPI document and the MCP tool all use it.
pub fn of<T: JsonSchema + Any>() -> Shared {
    static CACHE: LazyLock<Mutex<HashMap<TypeId, Shared>>> = LazyLock::new(Default::default);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(TypeId::of::<T>())
        .or_insert_with(|| Arc::new(generate::<T>()))
        .clone()
}

fn generate<T: JsonSchema>() -> Map<String, Value> {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    let root = settings.into_generator().into_root_schema_for::<T>();
    let Value::Object(mut schema) = serde_json::to_value(root).unwrap_or_default() else {
        unreachable!("a struct's schema is an object");
    };
    schema.remove("$schema");
    schema.remove("title");
    unwrap_descriptions(&mut schema);
    schema
}

/// Doc comments wrap at 100 columns; a description reads as one paragraph (blank lines
/// between paragraphs kept), in every document that shows it.
fn unwrap_descriptions(schema: &mut Map<String, Value>) {
    for (key, value) in schema.iter_mut() {
        match value {
            Value::String(text) if key == "description" => {
                let paragraphs: Vec<String> = text
                    .split("\n\n")
                    .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
                    .collect();
                *text = paragraphs.join("\n\n");
            }
            Value::Object(inner) => unwrap_descriptions(inner),
            _ => {}
        }
    }
}

/// A JSON Schema in salvo's types. Round-trips losslessly for the keywords the inputs use
/// (checked by the tests below). Called while the documents are built, at start.
pub fn openapi(schema: &Map<String, Value>) -> RefOr<Schema> {
    serde_json::from_value(Value::Object(schema.clone()))
        .expect("salvo reads every JSON Schema the inputs generate")
}

/// Registers `schema` in the document's components under `name` and refers to it.
pub fn register(
    components: &mut Components,
    name: &str,
    schema: &Map<String, Value>,
) -> RefOr<Schema> {
    components.schemas.insert(name.to_owned(), openapi(schema));
    RefOr::Ref(salvo::oapi::Ref::from_schema_name(name))
}

/// An object schema's properties, and the names of those it requires.
pub fn properties(schema: &Map<String, Value>) -> (&Map<String, Value>, Vec<&str>) {
    static NONE: LazyLock<Map<String, Value>> = LazyLock::new(Map::new);
    let required = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&NONE);
    (properties, required)
}

/// The object schema's properties as path or query parameters.
pub fn parameters(schema: &Map<String, Value>, place: ParameterIn) -> Vec<Parameter> {
    let (properties, required) = properties(schema);
    properties
        .iter()
        .map(|(name, property)| {
            let mut property = property.as_object().cloned().unwrap_or_default();
            let description = property.remove("description");
            let mut parameter = Parameter::new(name)
                .location(place)
                .required(if required.contains(&name.as_str()) {
                    Required::True
                } else {
                    Required::False
                })
                .schema(openapi(&property));
            if let Some(Value::String(description)) = description {
                parameter = parameter.description(description);
            }
            parameter
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn descriptions_read_as_paragraphs() {
        let mut schema = json!({
            "description": "One line\nwrapped.\n\nA second\n paragraph.",
            "properties": { "a": { "description": "x\ny" } },
        })
        .as_object()
        .unwrap()
        .clone();
        unwrap_descriptions(&mut schema);
        assert_eq!(
            schema["description"],
            "One line wrapped.\n\nA second paragraph."
        );
        assert_eq!(schema["properties"]["a"]["description"], "x y");
    }

    #[test]
    fn every_keyword_the_inputs_use_survives_the_openapi_types() {
        let schema = json!({
            "description": "A body.",
            "type": "object",
            "properties": {
                "address": { "type": "string", "minLength": 42, "maxLength": 42,
                             "pattern": "^0[xX][0-9a-fA-F]{40}$", "x-rule": "an address" },
                "call": { "type": "string", "enum": ["heads", "tails"] },
                "direction": { "type": ["string", "null"], "enum": ["under", "over", null] },
                "wager": { "type": "integer", "format": "int64", "minimum": 1,
                           "maximum": 9_223_372_036_854_775_807_i64 },
                "flag": { "type": "boolean", "default": false },
            },
            "required": ["address", "call", "wager"],
            "additionalProperties": false,
        });
        let round_trip = serde_json::to_value(openapi(schema.as_object().unwrap())).unwrap();
        assert_eq!(round_trip, schema);
    }
}
