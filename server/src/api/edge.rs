//! What every handler needs from the request: the arcade, the body bytes, path and query values
//! checked into the 422 shape. Plus the catcher that keeps even unknown routes in JSON.

use std::path::PathBuf;
use std::sync::Arc;

use alloy::primitives::Address;
use salvo::http::StatusCode;
use salvo::prelude::*;
use serde_json::{Value, json};

use crate::address;
use crate::error::ApiError;
use crate::service::Arcade;
use crate::validation::{FieldError, ValidationError, integer_text};

/// Request-scoped access to the shared arcade and the body limit.
#[derive(Clone)]
pub struct Shared {
    pub arcade: Arc<Arcade>,
    /// Where clients reach the service (x402 resource URLs are built on it).
    pub base_url: String,
    pub max_body_bytes: usize,
    /// The `web`-target wasm package the verifier page loads.
    pub wasm_dir: PathBuf,
}

#[async_trait]
impl Handler for Shared {
    async fn handle(
        &self,
        _req: &mut Request,
        depot: &mut Depot,
        _res: &mut Response,
        _ctrl: &mut FlowCtrl,
    ) {
        depot.insert_typed(self.clone());
    }
}

pub fn shared(depot: &Depot) -> Result<&Shared, ApiError> {
    depot
        .get_typed::<Shared>()
        .map_err(|_| ApiError::internal(std::io::Error::other("arcade state not injected")))
}

pub fn arcade(depot: &Depot) -> Result<&Arcade, ApiError> {
    Ok(&shared(depot)?.arcade)
}

pub async fn body(req: &mut Request, depot: &Depot) -> Result<Vec<u8>, ApiError> {
    let max = shared(depot)?.max_body_bytes;
    match req.payload_with_max_size(max).await {
        Ok(bytes) => Ok(bytes.to_vec()),
        Err(_) => Err(ApiError::PayloadTooLarge),
    }
}

pub fn path_address(req: &Request) -> Result<Address, ApiError> {
    let text: String = req.param("address").unwrap_or_default();
    address::parse(&text).ok_or_else(|| {
        let loc = [json!("path"), json!("address")];
        FieldError::value_error(&loc, address::ADDRESS_RULE, json!(text)).into()
    })
}

pub fn path_integer(req: &Request, name: &str, min: i64, max: i64) -> Result<i64, ApiError> {
    let text: String = req.param(name).unwrap_or_default();
    integer_text(&[json!("path"), json!(name)], &text, min, max).map_err(Into::into)
}

pub fn query_integer(
    req: &Request,
    name: &str,
    default: i64,
    min: i64,
    max: i64,
) -> Result<i64, ApiError> {
    match req.query::<String>(name) {
        None => Ok(default),
        Some(text) => {
            integer_text(&[json!("query"), json!(name)], &text, min, max).map_err(Into::into)
        }
    }
}

impl From<FieldError> for ApiError {
    fn from(error: FieldError) -> Self {
        ApiError::Validation(ValidationError::one(error))
    }
}

/// Routes that do not exist and methods a route does not serve answer in the error shape too.
#[handler]
pub async fn json_errors(res: &mut Response, ctrl: &mut FlowCtrl) {
    let error = match res.status_code {
        Some(StatusCode::NOT_FOUND) => ApiError::NotFound,
        Some(StatusCode::METHOD_NOT_ALLOWED) => ApiError::MethodNotAllowed,
        Some(StatusCode::PAYLOAD_TOO_LARGE) => ApiError::PayloadTooLarge,
        _ => return,
    };
    let body: Value = error.body();
    res.render(Json(body));
    ctrl.skip_rest();
}
