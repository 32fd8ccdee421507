//! Tool arguments: each tool publishes its input's schema (the one REST documents) but
//! receives the raw JSON object, which goes through the one parse. Malformed arguments come
//! back with the same detailed problems as a REST 422, as a tool error the model can correct.
//! The tools REST proves with the `SIGN-IN-WITH-X` header take that header's value as the
//! argument `sign_in_with_x` beside the input's fields ([`Proven`]).
//!
//! The schema a tool publishes is its input's made small ([`published`]): MCP clients read
//! every tool's schema into the model's context (25 KB in all, `output.rs`). It keeps every
//! constraint the parse checks and a description of each field, the long ones (which REST's
//! OpenAPI document keeps) in the short form of [`BRIEFS`].

use std::borrow::Cow;
use std::marker::PhantomData;

use rmcp::model::JsonObject;
use rmcp::schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::schema_reduce::{is_annotation, without_number_format};
use crate::inputs::wallets::{AddressInput, CashoutInput, RotateInput};
use crate::inputs::{self, Input, Place, ValidationError, schema};

/// The longest field description a tool publishes as REST documents it; a longer one is
/// published as its brief.
pub const BRIEF_LIMIT: usize = 90;

/// The fields whose REST descriptions run longer than [`BRIEF_LIMIT`], as a tool describes
/// them (`arcade://rules` and the REST document say the rest).
pub const BRIEFS: [(&str, &str); 10] = [
    (
        "client_seed",
        "Your own seed, 1 to 256 characters: a fresh random one every round, so the house \
         cannot choose your outcome.",
    ),
    (
        "round_id",
        "The round_id of arcade_commit; each round is played once.",
    ),
    (
        "wager",
        "Chips to wager, 1 to max_wager_chips, for a profit of at most max_payout_chips \
         (arcade_games).",
    ),
    (
        "play_signature",
        "Optional: your EIP-712 `Play` signature of this call (docs/proofs.md), which makes the \
         round provable.",
    ),
    (
        "signature",
        "Your EIP-191 personal_sign signature of the auth_statement from arcade_balance; \
         sign_in_with_x may stand in.",
    ),
    (
        "target",
        "The multiplier to reach, 1.01 to 1000000.00 with at most two decimals: \"2.00\" or 2.",
    ),
    (
        "chips",
        "Chips to redeem, 100 to 250000, at most the paid chips (`cashable` in arcade_balance).",
    ),
    (
        "idempotency_key",
        "Optional: a fresh UUID per cashout; a retry with the same key and chips answers the \
         original, never a second transfer.",
    ),
    ("bet", "The bet; `straight` needs `number`."),
    (
        "next_round",
        "Optional: true, with your signature or play_signature, to get your next round too.",
    ),
];

/// The schema a tool publishes for an input whose schema is `schema`: its constraints, without
/// annotations other than descriptions (no examples, titles, `$schema`, `x-` keywords, the
/// input's own description) or OpenAPI number formats; a field's description longer than
/// [`BRIEF_LIMIT`] bytes is its brief in [`BRIEFS`]. Published twice, a schema stays the same.
pub fn published(schema: &JsonObject) -> JsonObject {
    let Value::Object(mut schema) = compact(Value::Object(schema.clone())) else {
        unreachable!("an object stays an object");
    };
    for keyword in ["$schema", "title", "description"] {
        schema.remove(keyword);
    }
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            if let Some(Value::String(about)) = property.get_mut("description")
                && about.len() > BRIEF_LIMIT
                && let Some((_, brief)) = BRIEFS.iter().find(|(field, _)| field == name)
            {
                *about = (*brief).to_owned();
            }
        }
    }
    schema
}

/// `schema` without annotations but descriptions, without number formats, and without a bound
/// beyond what a JSON number holds exactly (`i64::MAX` as a `maximum`), in every subschema.
fn compact(schema: Value) -> Value {
    match schema {
        Value::Object(mut map) => {
            map.retain(|keyword, value| {
                let annotation = keyword != "description" && is_annotation(keyword);
                let unbounded = matches!(keyword.as_str(), "minimum" | "maximum")
                    && value.as_f64().is_some_and(|b| b.abs() >= 2f64.powi(53));
                !annotation && !unbounded
            });
            without_number_format(map)
                .into_iter()
                .map(|(keyword, inner)| {
                    let inner = match keyword.as_str() {
                        "properties" => each(inner),
                        "enum" | "const" | "required" | "type" | "description" => inner,
                        _ => compact(inner),
                    };
                    (keyword, inner)
                })
                .collect::<Map<_, _>>()
                .into()
        }
        Value::Array(items) => items.into_iter().map(compact).collect(),
        other => other,
    }
}

/// Each field schema of `properties` through [`compact`].
fn each(properties: Value) -> Value {
    match properties {
        Value::Object(fields) => fields
            .into_iter()
            .map(|(name, field)| (name, compact(field)))
            .collect::<Map<_, _>>()
            .into(),
        other => other,
    }
}

/// The arguments exactly as sent, published under `T`'s schema.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub struct Arguments<T> {
    raw: Map<String, Value>,
    #[serde(skip)]
    input: PhantomData<T>,
}

impl<T: Input> Arguments<T> {
    pub fn parse(self) -> Result<T, ValidationError> {
        inputs::parse(self.raw, Place::Body)
    }
}

impl<T: Input> JsonSchema for Arguments<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        Schema::from(schema::of::<T>().as_ref().clone())
    }
}

/// Tools that take nothing.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct NoArguments {}

/// The tool argument that carries a sign-in-with-x proof.
pub const SIWX_ARGUMENT: &str = "sign_in_with_x";

/// The proof a tool takes where REST reads the `SIGN-IN-WITH-X` header.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SiwxArgument {
    /// Optional, in place of signature: the `SIGN-IN-WITH-X` proof of arcade_siwx_challenge.
    #[schemars(length(max = 8192))]
    pub sign_in_with_x: Option<String>,
}

impl Input for SiwxArgument {
    const PLACE: Place = Place::Body;
}

/// The arguments of a tool that accepts a sign-in-with-x proof: `T`'s fields and
/// [`SIWX_ARGUMENT`], published as `T`'s schema with that property added.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub struct Proven<T> {
    raw: Map<String, Value>,
    #[serde(skip)]
    input: PhantomData<T>,
}

impl<T: Input> Proven<T> {
    pub fn new(raw: JsonObject) -> Self {
        Self {
            raw,
            input: PhantomData,
        }
    }

    /// The input and the proof, each through the one parse; the problems of both at once.
    pub fn parse(mut self) -> Result<(T, Option<String>), ValidationError> {
        let mut proof = Map::new();
        if let Some(value) = self.raw.remove(SIWX_ARGUMENT) {
            proof.insert(SIWX_ARGUMENT.to_owned(), value);
        }
        let input = inputs::parse::<T>(self.raw, Place::Body);
        match (input, inputs::parse::<SiwxArgument>(proof, Place::Body)) {
            (Ok(input), Ok(proof)) => Ok((input, proof.sign_in_with_x)),
            (Err(mut problems), Err(more)) => {
                problems.detail.extend(more.detail);
                Err(problems)
            }
            (Err(problems), Ok(_)) | (Ok(_), Err(problems)) => Err(problems),
        }
    }
}

impl<T: Input> JsonSchema for Proven<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        Schema::from(with_proof(&schema::of::<T>()))
    }
}

/// `schema` (an input's) with the [`SIWX_ARGUMENT`] property added.
pub fn with_proof(schema: &Map<String, Value>) -> Map<String, Value> {
    let mut schema = schema.clone();
    let proof = schema::of::<SiwxArgument>();
    let (property, _) = schema::properties(&proof);
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        properties.extend(property.clone());
    }
    schema
}

/// An input that carries the auth statement's signature in `signature`.
pub trait Signed {
    fn signature(&self) -> Option<&str>;
}

macro_rules! signed {
    ($($Input:ty),*) => {$(
        impl Signed for $Input {
            fn signature(&self) -> Option<&str> {
                self.signature.as_deref()
            }
        }
    )*};
}
signed!(AddressInput, CashoutInput, RotateInput);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_field_is_described_in_a_sentence_or_by_its_brief() {
        let tools = crate::mcp::router::router().list_all();
        let mut published_texts = Vec::new();
        for tool in &tools {
            let schema = Value::Object((*tool.input_schema).clone());
            let text = schema.to_string();
            for left_out in [
                "\"$schema\"",
                "\"examples\"",
                "\"x-rule\"",
                "\"format\":\"int",
            ] {
                assert!(
                    !text.contains(left_out),
                    "{}: {left_out} in {text}",
                    tool.name
                );
            }
            assert_eq!(
                published(&tool.input_schema),
                *tool.input_schema,
                "{}",
                tool.name
            );
            let (fields, _) = schema::properties(&tool.input_schema);
            for (name, field) in fields {
                let about = field["description"].as_str().unwrap_or_default();
                let brief = BRIEFS.iter().any(|(_, brief)| *brief == about);
                assert!(
                    !about.is_empty() && (about.len() <= BRIEF_LIMIT || brief),
                    "{}.{name}: {about}",
                    tool.name
                );
                published_texts.push(about.to_owned());
            }
        }
        for (name, brief) in BRIEFS {
            assert!(
                published_texts.iter().any(|text| text == brief),
                "the brief of {name} replaces a description"
            );
            assert!(brief.len() < 2 * BRIEF_LIMIT, "{name}: {brief}");
        }
    }

    #[test]
    fn a_bound_past_what_a_json_number_holds_is_left_out() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "wager": { "type": "integer", "format": "int64", "minimum": 1,
                           "maximum": 9_223_372_036_854_775_807_i64, "examples": [10] },
                "examples": { "type": "string", "x-rule": "a rule" }
            }
        });
        let Value::Object(schema) = schema else {
            unreachable!()
        };
        assert_eq!(
            Value::Object(published(&schema)),
            serde_json::json!({
                "type": "object",
                "properties": {
                    "wager": { "type": "integer", "minimum": 1 },
                    "examples": { "type": "string" }
                }
            })
        );
    }
}
