//! What every handler needs from the request: the arcade and the body bytes (inputs are read
//! by `checked`). Plus the catcher that keeps even unknown routes in JSON.

use std::sync::Arc;

use salvo::http::StatusCode;
use salvo::prelude::*;
use serde_json::Value;

use super::wasm_dirs::WasmDirs;
use crate::error::ApiError;
use crate::housebots::HouseBots;
use crate::service::Arcade;

/// Request-scoped access to the shared arcade and the body limit.
#[derive(Clone)]
pub struct Shared {
    pub arcade: Arc<Arcade>,
    /// The house's own agents, for their status.
    pub house_bots: Arc<HouseBots>,
    /// Where clients reach the service (x402 resource URLs are built on it).
    pub base_url: String,
    pub max_body_bytes: usize,
    /// Where the wasm packages the page loads are.
    pub wasm: WasmDirs,
    /// `pay_to`'s signatures over the origin, for indexers (`x402::ownership`).
    pub ownership_proofs: Arc<[String]>,
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
        .map_err(|_| ApiError::internal(NotInjected))
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

/// The request state hoop did not run: the router is built wrongly.
#[derive(Debug, thiserror::Error)]
#[error("the arcade's request state was not injected")]
struct NotInjected;
