//! The one place errors become HTTP: a domain error names its own row of the error table, its
//! sentence and its fields (`crate::refusal`); the edge adds its own refusals, the 422 and the
//! 402 challenge here, renders bodies and headers in `render.rs`, and lists the table in the
//! OpenAPI document (`document.rs`). 422s carry the FastAPI-shaped validation body; 5xx log
//! their cause and say nothing.

mod document;
#[cfg(test)]
pub(crate) mod layering;
mod render;
#[cfg(test)]
mod tests;

pub use crate::refusal::{ErrorKind, TABLE};
pub use document::ErrorBody;

use arcade_core::CallError;
use salvo::http::StatusCode;

use crate::inputs::{FieldError, ValidationError};
use crate::refusal::{self, Refusal};
use crate::service::error::ServiceError;
use crate::service::purchases::PurchaseError;
use crate::store::DbErr;
use crate::x402::wire::{PaymentRequired, SettleResponse};

/// A 402: the challenge to pay (again), and the purchase's refusal (or `PaymentRequired`).
#[derive(Debug)]
pub struct Challenge {
    /// The resource's offer; `error` carries the refusal's x402 reason.
    pub required: PaymentRequired,
    pub refusal: PurchaseError,
}

impl Challenge {
    /// The failed settlement, for `PAYMENT-RESPONSE`, when a payment was presented.
    pub fn settlement(&self) -> Option<SettleResponse> {
        let reason = self.refusal.reason()?;
        Some(SettleResponse {
            success: false,
            error_reason: Some(reason.to_owned()),
            error_message: None,
            payer: self.refusal.payer().map(|p| p.to_checksum(None)),
            transaction: self.refusal.transaction().unwrap_or_default(),
            network: self
                .required
                .accepts
                .first()
                .map(|offer| offer.network.clone())
                .unwrap_or_default(),
        })
    }
}

/// What the edges answer: a domain error (a refusal or a failure, naming its own row of the
/// error table), an invalid request, the 402 challenge, or one of the edge's own refusals.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("the request is not valid")]
    Validation(ValidationError),
    #[error("{}", .0.refusal)]
    PaymentRequired(Box<Challenge>),
    /// A service area's answer: its row, sentence and fields are its own (`crate::refusal`).
    #[error("{0}")]
    Refused(Box<dyn Refusal>),
    #[error("requests from the browser origin {0:?} are not allowed here")]
    OriginForbidden(String),
    #[error("no such resource; the whole flow, with a link to every entry point, is at /llms.txt")]
    NotFound,
    #[error(
        "the verifier's wasm files are missing: {}",
        crate::api::wasm_dirs::NOT_FOUND_FIX
    )]
    WasmNotBuilt,
    #[error("method not allowed")]
    MethodNotAllowed,
    #[error("request body too large")]
    PayloadTooLarge,
    #[error("not ready: {}", .0.failing().join(", "))]
    NotReady(Box<crate::service::readiness::Readiness>),
}

impl<E: Refusal> From<E> for ApiError {
    fn from(refusal: E) -> Self {
        Self::Refused(Box::new(refusal))
    }
}

impl ApiError {
    /// A defect: the cause is logged, the caller hears `internal`.
    pub fn internal(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        ServiceError::internal(error).into()
    }

    /// A purchase that did not happen: a 402 with `required` (the resource's offer) when the
    /// refusal's row is a 402, else its own answer (the chain or the service failed, the
    /// payment-identifier was refused).
    pub fn purchase(refusal: PurchaseError, mut required: PaymentRequired) -> Self {
        match refusal {
            refusal if refusal.kind().status != 402 => refusal.into(),
            refusal => {
                required.error = refusal.reason().map(str::to_owned);
                Self::PaymentRequired(Box::new(Challenge { required, refusal }))
            }
        }
    }

    pub fn status(&self) -> StatusCode {
        StatusCode::from_u16(self.kind().status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    pub fn code(&self) -> &'static str {
        self.kind().code
    }

    /// This error's row of the table.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::Validation(_) => refusal::VALIDATION,
            Self::PaymentRequired(challenge) => challenge.refusal.kind(),
            Self::Refused(refused) => refused.kind(),
            Self::OriginForbidden(_) => refusal::ORIGIN_FORBIDDEN,
            Self::NotFound => refusal::NOT_FOUND,
            Self::WasmNotBuilt => refusal::WASM_NOT_BUILT,
            Self::MethodNotAllowed => refusal::METHOD_NOT_ALLOWED,
            Self::PayloadTooLarge => refusal::PAYLOAD_TOO_LARGE,
            Self::NotReady(_) => refusal::NOT_READY,
        }
    }
}

impl From<ValidationError> for ApiError {
    fn from(error: ValidationError) -> Self {
        Self::Validation(error)
    }
}

impl From<CallError> for ApiError {
    /// A call outside what its game accepts is a 422 like every other invalid field, in every
    /// game and over MCP: one problem at the call's field, in the game's own words.
    fn from(error: CallError) -> Self {
        let at = [serde_json::json!("body"), serde_json::json!(error.field())];
        let problem = match error {
            CallError::RouletteNumberRequired => {
                FieldError::new(&at, "missing", format!("Field required: {error}"), None)
            }
            CallError::DiceTargetOutOfRange { target: given }
            | CallError::RouletteNumberOutOfRange { number: given } => {
                FieldError::value_error(&at, error, serde_json::json!(given))
            }
            _ => FieldError::value_error(&at, error, serde_json::Value::Null),
        };
        Self::Validation(ValidationError::one(problem))
    }
}

impl From<DbErr> for ApiError {
    fn from(error: DbErr) -> Self {
        ServiceError::from(error).into()
    }
}

impl ApiError {
    /// 5xx causes are logged here (a failure's `Debug` carries its cause) and never shown to
    /// the caller.
    pub fn log_if_internal(&self) {
        let Self::Refused(refused) = self else {
            return;
        };
        match refused.kind() {
            refusal::INTERNAL => tracing::error!(error = ?refused, "request failed"),
            refusal::DATABASE_UNAVAILABLE => {
                tracing::warn!(error = ?refused, "request answered 503: the database cannot be reached");
            }
            _ => {}
        }
    }

    /// Seconds the client should wait before sending again (`Retry-After`), if the error says.
    pub fn retry_after_s(&self) -> Option<u64> {
        match self {
            Self::Refused(refused) => refused.retry_after_s(),
            Self::PaymentRequired(challenge) => challenge.refusal.retry_after_s(),
            _ => None,
        }
    }
}
