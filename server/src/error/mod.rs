//! The one place errors become HTTP: each error has a human `detail` (here) and a row of the
//! error table (`table.rs`: its status, its stable `code` and what it means); its body and
//! headers are rendered in `render.rs`, and the OpenAPI document lists the table in
//! `document.rs`. Each service area's domain error becomes an `ApiError` in `from_service.rs`.
//! 422s carry the FastAPI-shaped validation body; 5xx log their cause and say nothing.

mod document;
mod from_service;
#[cfg(test)]
pub(crate) mod layering;
mod render;
mod table;

pub use document::ErrorBody;
pub use table::{ErrorKind, TABLE};

use arcade_core::{CallError, LimitError};
use salvo::http::StatusCode;

use crate::identity::SignatureError;
use crate::inputs::{FieldError, ValidationError};
use crate::proofs::play::PlaySignatureError;
use crate::rate_limits::RateLimited;
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

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("the request is not valid")]
    Validation(ValidationError),
    #[error("{balance} chips cannot cover a wager of {wager}")]
    InsufficientChips { balance: i64, wager: u64 },
    #[error("{0}")]
    Limit(LimitError),
    #[error(transparent)]
    Signature(#[from] SignatureError),
    #[error(transparent)]
    PlaySignature(#[from] PlaySignatureError),
    #[error("round {0} was opened by another address")]
    RoundNotYours(String),
    #[error("no round {0}")]
    RoundNotFound(String),
    #[error("no seed batch {0}")]
    SeedBatchNotFound(i64),
    #[error(
        "no commit took index {index} of seed batch {batch_id}: rows run from 0 to the batch's `used` - 1"
    )]
    SeedRowNotFound { batch_id: i64, index: i64 },
    #[error("round {round_id} has already been played{}", match .bet_id { Some(id) => format!(" by another call (bet {id}); a repeat of that call gets its receipt"), None => String::new() })]
    RoundSpent {
        round_id: String,
        /// The bet that settled it, if it settled.
        bet_id: Option<i64>,
    },
    #[error("round {0} expired unplayed (no chips were taken); commit a new one")]
    RoundExpired(String),
    #[error("this address already holds {max} open rounds; play or let some expire first")]
    TooManyOpenRounds { max: i64 },
    #[error(transparent)]
    RateLimited(#[from] RateLimited),
    #[error("no settled bet {0}")]
    BetNotFound(i64),
    #[error("{0} has already claimed its free chips")]
    FreeAlreadyClaimed(String),
    #[error("{}", .0.refusal)]
    PaymentRequired(Box<Challenge>),
    #[error("{0}")]
    PaymentIdentifierInvalid(String),
    #[error("{0}")]
    PaymentIdentifierConflict(String),
    #[error("the chain cannot be reached; nothing was charged or credited ({0})")]
    ChainUnavailable(String),
    #[error("chip purchases are not available: no chain is configured")]
    PaymentsUnavailable,
    #[error("the house cannot pay this cashout now ({0}); nothing was debited, try again later")]
    HouseUnderfunded(String),
    #[error(
        "the books are matching the house's transactions on the chain ({0} not matched yet, as after a restore of the database); nothing was taken, try again shortly"
    )]
    BooksBehind(u64),
    #[error(
        "{0} never bought chips; free chips can be played but a buy-in is required before a cashout"
    )]
    BuyInRequired(String),
    #[error("{balance} chips cannot cover a cashout of {chips}")]
    CashoutAboveBalance { balance: i64, chips: i64 },
    #[error(
        "only {cashable} of the {balance} chips can be cashed out: the rest are free chips (play money: the free grant and what free chips won back), which can be played but not cashed out"
    )]
    CashoutExceedsCashable {
        chips: i64,
        cashable: i64,
        balance: i64,
    },
    #[error("no cashout {0}")]
    CashoutNotFound(i64),
    #[error("{0}")]
    IdempotencyKeyInvalid(String),
    #[error("{0}")]
    IdempotencyKeyConflict(String),
    #[error("{}; the {} chips are back in the balance", .receipt.error.as_deref().unwrap_or("the transfer was not sent"), .receipt.chips)]
    CashoutNotSent {
        /// The chain did not answer (503), rather than refusing the transfer (502).
        chain_down: bool,
        receipt: Box<crate::service::cashouts::CashoutReceipt>,
    },
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
    /// The cause is logged, never shown.
    #[error(
        "the database cannot be reached now; retry after {DATABASE_RETRY_AFTER_S} s. What was done before it failed stays done and is never done twice: a play sent again replays its round, a cashout sent again under its Idempotency-Key answers the first (without one it would be a second cashout: read GET /api/arcade/cashout/{{id}} or the balance first), a payment sent again with the same authorization is counted once"
    )]
    DatabaseUnavailable(String),
    #[error("internal error")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// Seconds a client is told to wait after `database_unavailable`.
pub const DATABASE_RETRY_AFTER_S: u64 = 2;

impl ApiError {
    pub fn internal(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self::Internal(Box::new(error))
    }

    /// A failure with `cause`: the outage it is when the database could not be reached
    /// (anywhere among its causes), else internal.
    pub fn from_cause(cause: Box<dyn std::error::Error + Send + Sync>) -> Self {
        if crate::store::outage::is_unavailable_cause(cause.as_ref()) {
            Self::DatabaseUnavailable(cause.to_string())
        } else {
            Self::Internal(cause)
        }
    }

    /// A purchase that did not happen: a 402 with `required` (the resource's offer) unless
    /// the chain or the service failed.
    pub fn purchase(refusal: PurchaseError, mut required: PaymentRequired) -> Self {
        match refusal {
            PurchaseError::Unavailable => Self::PaymentsUnavailable,
            PurchaseError::ChainDown(error) => Self::ChainUnavailable(error),
            PurchaseError::Internal(error) => Self::from_cause(error),
            PurchaseError::RateLimited(limited) => Self::RateLimited(limited),
            refusal @ PurchaseError::IdentifierInvalid(_) => {
                Self::PaymentIdentifierInvalid(refusal.to_string())
            }
            refusal @ PurchaseError::IdentifierConflict(_) => {
                Self::PaymentIdentifierConflict(refusal.to_string())
            }
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
}

impl From<ValidationError> for ApiError {
    fn from(error: ValidationError) -> Self {
        Self::Validation(error)
    }
}

impl From<LimitError> for ApiError {
    fn from(error: LimitError) -> Self {
        Self::Limit(error)
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
    /// 5xx causes are logged here and never shown to the caller.
    pub fn log_if_internal(&self) {
        match self {
            Self::Internal(cause) => {
                tracing::error!(error = %cause, source = ?cause.source(), "request failed");
            }
            Self::DatabaseUnavailable(cause) => {
                tracing::warn!(error = %cause, "request answered 503: the database cannot be reached");
            }
            _ => {}
        }
    }

    /// Seconds the client should wait before sending again (`Retry-After`), if the error says.
    pub fn retry_after_s(&self) -> Option<u64> {
        match self {
            Self::RateLimited(limited) => Some(limited.retry_after_s),
            Self::DatabaseUnavailable(_) | Self::BooksBehind(_) => Some(DATABASE_RETRY_AFTER_S),
            _ => None,
        }
    }
}
