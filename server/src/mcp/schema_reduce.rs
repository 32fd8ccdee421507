//! JSON Schema reductions the MCP layer makes to REST's schemas before a model reads them:
//! references inlined, annotations and OpenAPI's number formats left out, and whether a
//! schema holds fields of its own. Each only widens what a schema accepts.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

pub(super) const COMPONENTS: &str = "#/components/schemas/";
/// Deeper than any output type nests; a reference past it is left as it is (never reached).
pub(super) const MAX_DEPTH: usize = 16;
/// Keywords that only annotate a schema: left out of MCP's.
pub(super) const ANNOTATIONS: [&str; 7] = [
    "description",
    "title",
    "examples",
    "example",
    "default",
    "deprecated",
    "$comment",
];
/// Keywords that give a schema an inner shape (fields, or items that have fields).
pub(super) const SHAPES: [&str; 5] = [
    "properties",
    "additionalProperties",
    "patternProperties",
    "prefixItems",
    "dependentSchemas",
];

/// Whether a schema has fields anywhere inside it (an object's, or its items').
pub(super) fn has_shape(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, inner)| {
            SHAPES.contains(&key.as_str()) || (!is_data(key) && has_shape(inner))
        }),
        Value::Array(items) => items.iter().any(has_shape),
        _ => false,
    }
}

/// Keywords whose values are data, not schemas.
pub(super) fn is_data(keyword: &str) -> bool {
    matches!(keyword, "enum" | "const" | "required" | "type")
}

/// The JSON types a value of `schema` may have; `None` when it says nothing of them. A
/// superset of what the schema allows: as a `type` widens it, every value it took still passes.
pub(super) fn json_types(schema: &Value) -> Option<BTreeSet<&'static str>> {
    let types_of = |values: &[Value]| values.iter().map(type_of_value).collect();
    if let Some(declared) = schema.get("type") {
        let names: Vec<&Value> = match declared {
            Value::Array(names) => names.iter().collect(),
            one => vec![one],
        };
        return names
            .into_iter()
            .map(|name| name.as_str().and_then(type_name))
            .collect();
    }
    if let Some(value) = schema.get("const") {
        return Some(BTreeSet::from([type_of_value(value)]));
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return Some(types_of(values));
    }
    for union in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = schema.get(union) {
            return branches
                .iter()
                .try_fold(BTreeSet::new(), |mut all, branch| {
                    all.extend(json_types(branch)?);
                    Some(all)
                });
        }
    }
    let parts = schema.get("allOf").and_then(Value::as_array)?;
    let known: Vec<BTreeSet<&str>> = parts.iter().filter_map(json_types).collect();
    let mut common = known.first()?.clone();
    for types in &known[1..] {
        common = common.intersection(types).copied().collect();
    }
    (!common.is_empty()).then_some(common)
}

/// A JSON Schema type name, as a `'static` string.
pub(super) fn type_name(name: &str) -> Option<&'static str> {
    [
        "null", "boolean", "object", "array", "number", "string", "integer",
    ]
    .into_iter()
    .find(|known| *known == name)
}

/// The JSON Schema type of a value.
pub(super) fn type_of_value(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether a keyword only annotates its schema (an `x-` extension included).
pub(super) fn is_annotation(keyword: &str) -> bool {
    ANNOTATIONS.contains(&keyword) || keyword.starts_with("x-")
}

/// `schema` without the keywords that only annotate it, in it and in every subschema.
pub(super) fn without_annotations(schema: Value) -> Value {
    match schema {
        Value::Object(map) => map
            .into_iter()
            .filter(|(key, _)| !is_annotation(key))
            .map(|(key, inner)| {
                let inner = match key.as_str() {
                    "properties" | "patternProperties" | "$defs" | "dependentSchemas" => {
                        each_schema(inner, without_annotations)
                    }
                    data if is_data(data) => inner,
                    _ => without_annotations(inner),
                };
                (key, inner)
            })
            .collect::<Map<_, _>>()
            .into(),
        Value::Array(items) => items.into_iter().map(without_annotations).collect(),
        other => other,
    }
}

/// Each value of a map of schemas (`properties`, `$defs`) through `f`.
pub(super) fn each_schema(map: Value, f: fn(Value) -> Value) -> Value {
    match map {
        Value::Object(schemas) => schemas
            .into_iter()
            .map(|(name, schema)| (name, f(schema)))
            .collect::<Map<_, _>>()
            .into(),
        other => other,
    }
}

/// `schema` with each `allOf` left with one part (the rest were annotations) replaced by it.
pub(super) fn simplified(schema: Value) -> Value {
    let Value::Object(mut map) = schema else {
        return schema;
    };
    let alone = map.len() == 1;
    if let Some(Value::Array(parts)) = map.get_mut("allOf") {
        parts.retain(|part| part.as_object().is_none_or(|p| !p.is_empty()));
        if parts.len() == 1 && alone {
            let part = parts.pop().unwrap_or_default();
            return simplified(part);
        }
    }
    map.into()
}

/// `value` with every component reference replaced by its schema.
pub(super) fn inline(value: Value, named: &Value, depth: usize) -> Value {
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
pub(super) fn without_number_format(mut schema: Map<String, Value>) -> Map<String, Value> {
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
