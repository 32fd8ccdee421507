//! `Checked<T>`: a handler argument that reads an input from the request (its JSON body, or
//! its path or query values), puts it through the one parse, and documents it in the OpenAPI
//! operation from the same schema. A refused input is the 422 before the handler runs.

use salvo::extract::{Extractible, Metadata};
use salvo::oapi::{
    Components, Content, EndpointArgRegister, Operation, ParameterIn, RequestBody, Required,
};
use salvo::prelude::*;
use serde_json::{Map, Value};

use super::edge::body;
use crate::error::ApiError;
use crate::inputs::{self, Input, Place, schema};

/// An input of type `T`, checked.
pub struct Checked<T>(pub T);

impl<'ex, T: Input> Extractible<'ex> for Checked<T> {
    fn metadata() -> &'static Metadata {
        static METADATA: Metadata = Metadata::new("Checked");
        &METADATA
    }

    #[allow(refining_impl_trait)] // the error is always an `ApiError`, rendered in `crate::error`
    async fn extract(req: &'ex mut Request, depot: &'ex mut Depot) -> Result<Self, ApiError> {
        let input = match T::PLACE {
            Place::Body => inputs::from_body(&body(req, depot).await?)?,
            Place::Path => inputs::parse(named_values::<T>(|name| req.param(name)), Place::Path)?,
            Place::Query => inputs::parse(named_values::<T>(|name| req.query(name)), Place::Query)?,
        };
        Ok(Self(input))
    }
}

/// The values of `T`'s properties, as text, where the request has them.
fn named_values<T: Input>(value_of: impl Fn(&str) -> Option<String>) -> Map<String, Value> {
    let schema = schema::of::<T>();
    let names = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().cloned().collect::<Vec<_>>())
        .unwrap_or_default();
    names
        .into_iter()
        .filter_map(|name| value_of(&name).map(|value| (name, Value::String(value))))
        .collect()
}

impl<T: Input> EndpointArgRegister for Checked<T> {
    fn register(components: &mut Components, operation: &mut Operation, _arg: &str) {
        let schema = schema::of::<T>();
        match T::PLACE {
            Place::Body => {
                let reference = schema::register(components, &T::schema_name(), &schema);
                let required = if T::OPTIONAL_BODY {
                    Required::False
                } else {
                    Required::True
                };
                operation.request_body = Some(
                    RequestBody::new()
                        .required(required)
                        .add_content("application/json", Content::new(reference)),
                );
            }
            Place::Path => operation
                .parameters
                .extend(schema::parameters(&schema, ParameterIn::Path)),
            Place::Query => operation
                .parameters
                .extend(schema::parameters(&schema, ParameterIn::Query)),
        }
    }
}
