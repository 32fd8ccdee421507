//! Tool arguments: each tool publishes its input's schema (the one REST documents) but
//! receives the raw JSON object, which goes through the one parse. Malformed arguments come
//! back with the same detailed problems as a REST 422, as a tool error the model can correct.

use std::borrow::Cow;
use std::marker::PhantomData;

use rmcp::schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde_json::{Map, Value};

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
