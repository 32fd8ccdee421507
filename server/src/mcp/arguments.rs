//! Tool arguments: each tool publishes its input's schema (the one REST documents) but
//! receives the raw JSON object, which goes through the one parse. Malformed arguments come
//! back with the same detailed problems as a REST 422, as a tool error the model can correct.
//! The tools REST proves with the `SIGN-IN-WITH-X` header take that header's value as the
//! argument `sign_in_with_x` beside the input's fields ([`Proven`]).

use std::borrow::Cow;
use std::marker::PhantomData;

use rmcp::model::JsonObject;
use rmcp::schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::inputs::wallets::{AddressInput, CashoutInput, RotateInput};
use crate::inputs::{self, Input, Place, ValidationError, schema};

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
    /// Optional: a sign-in-with-x proof (x402 extension `sign-in-with-x`, CAIP-122), exactly
    /// the value REST sends as the `SIGN-IN-WITH-X` header: standard base64 of the signed
    /// payload's JSON. Sign the challenge of `arcade_siwx_challenge` with the official client
    /// (`createSIWxPayload`, then `encodeSIWxHeader`, from `@x402/extensions`). It stands in for
    /// `signature` for five minutes; when both are given both must hold. Rotating revokes it.
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
