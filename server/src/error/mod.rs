//! The one place errors become HTTP: each error has a status, a stable `code` and a human
//! `detail`; 422s carry the FastAPI-shaped validation body; 5xx log their cause and say nothing.

use arcade_core::{CallError, LimitError};
use salvo::http::StatusCode;
use salvo::oapi::{self, Components, EndpointOutRegister, Operation, ToSchema};
use salvo::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::identity::SignatureError;
use crate::inputs::ValidationError;
use crate::service::purchases::PurchaseError;
use crate::store::DbErr;
use crate::x402::wire::{PaymentRequired, SettleResponse, encode_header};
use crate::x402::{PAYMENT_REQUIRED_HEADER, PAYMENT_RESPONSE_HEADERS};

/// A 402: the challenge to pay (again), and the purchase's refusal (or `PaymentRequired`).
#[derive(Debug)]
pub struct Challenge {
    /// The resource's offer; `error` carries the refusal's x402 reason.
    pub required: PaymentRequired,
    pub refusal: PurchaseError,
}

impl Challenge {
    /// The failed settlement, for `PAYMENT-RESPONSE`, when a payment was presented.
    fn settlement(&self) -> Option<SettleResponse> {
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
    #[error("{0}")]
    InvalidCall(CallError),
    #[error(transparent)]
    Signature(#[from] SignatureError),
    #[error("round {0} was opened by another address")]
    RoundNotYours(String),
    #[error("no round {0}")]
    RoundNotFound(String),
    #[error("round {0} has already been played")]
    RoundSpent(String),
    #[error("no settled bet {0}")]
    BetNotFound(i64),
    #[error("{0} has already claimed its free chips")]
    FreeAlreadyClaimed(String),
    #[error("{}", .0.refusal)]
    PaymentRequired(Box<Challenge>),
    #[error("the chain cannot be reached; nothing was charged or credited ({0})")]
    ChainUnavailable(String),
    #[error("chip purchases are not available: no chain is configured")]
    PaymentsUnavailable,
    #[error(
        "{0} never bought chips; free chips can be played but a buy-in is required before a cashout"
    )]
    BuyInRequired(String),
    #[error("{balance} chips cannot cover a cashout of {chips}")]
    CashoutAboveBalance { balance: i64, chips: i64 },
    #[error(
        "only {cashable} of the {balance} chips can be cashed out: chips granted for free are play money and stay behind"
    )]
    CashoutExceedsCashable {
        chips: i64,
        cashable: i64,
        balance: i64,
    },
    #[error("no cashout {0}")]
    CashoutNotFound(i64),
    #[error("{}; the {} chips are back in the balance", .receipt.error.as_deref().unwrap_or("the transfer was not sent"), .receipt.chips)]
    CashoutNotSent {
        /// The chain did not answer (503), rather than refusing the transfer (502).
        chain_down: bool,
        receipt: Box<crate::service::cashouts::CashoutReceipt>,
    },
    #[error("requests from the browser origin {0:?} are not allowed here")]
    OriginForbidden(String),
    #[error("no such resource")]
    NotFound,
    #[error("method not allowed")]
    MethodNotAllowed,
    #[error("request body too large")]
    PayloadTooLarge,
    #[error("internal error")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl ApiError {
    pub fn internal(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self::Internal(Box::new(error))
    }

    /// A purchase that did not happen: a 402 with `required` (the resource's offer) unless
    /// the chain or the service failed.
    pub fn purchase(refusal: PurchaseError, mut required: PaymentRequired) -> Self {
        match refusal {
            PurchaseError::Unavailable => Self::PaymentsUnavailable,
            PurchaseError::ChainDown(error) => Self::ChainUnavailable(error),
            PurchaseError::Internal(error) => Self::Internal(error),
            refusal => {
                required.error = refusal.reason().map(str::to_owned);
                Self::PaymentRequired(Box::new(Challenge { required, refusal }))
            }
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::InsufficientChips { .. }
            | Self::Limit(_)
            | Self::InvalidCall(_)
            | Self::BuyInRequired(_)
            | Self::CashoutAboveBalance { .. }
            | Self::CashoutExceedsCashable { .. } => StatusCode::BAD_REQUEST,
            Self::CashoutNotSent {
                chain_down: true, ..
            } => StatusCode::SERVICE_UNAVAILABLE,
            Self::CashoutNotSent { .. } => StatusCode::BAD_GATEWAY,
            Self::Signature(SignatureError::Mismatch { .. })
            | Self::RoundNotYours(_)
            | Self::OriginForbidden(_) => StatusCode::FORBIDDEN,
            Self::Signature(_) => StatusCode::UNAUTHORIZED,
            Self::RoundNotFound(_)
            | Self::BetNotFound(_)
            | Self::CashoutNotFound(_)
            | Self::NotFound => StatusCode::NOT_FOUND,
            Self::RoundSpent(_) | Self::FreeAlreadyClaimed(_) => StatusCode::CONFLICT,
            Self::PaymentRequired(_) => StatusCode::PAYMENT_REQUIRED,
            Self::ChainUnavailable(_) | Self::PaymentsUnavailable => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            Self::Validation(_) => "validation_error",
            Self::InsufficientChips { .. } => "insufficient_chips",
            Self::Limit(error) => error.code(),
            Self::InvalidCall(error) => error.code(),
            Self::Signature(SignatureError::Required) => "signature_required",
            Self::Signature(SignatureError::Invalid(_)) => "signature_invalid",
            Self::Signature(SignatureError::Mismatch { .. }) => "signature_mismatch",
            Self::RoundNotYours(_) => "round_not_yours",
            Self::RoundNotFound(_) => "round_not_found",
            Self::RoundSpent(_) => "round_spent",
            Self::BetNotFound(_) => "bet_not_found",
            Self::FreeAlreadyClaimed(_) => "free_already_claimed",
            Self::PaymentRequired(challenge) => match &challenge.refusal {
                PurchaseError::PaymentRequired => "payment_required",
                PurchaseError::Malformed(_) => "invalid_payload",
                PurchaseError::AlreadyPresented { .. } => "payment_already_used",
                _ => "payment_refused",
            },
            Self::BuyInRequired(_) => "buy_in_required",
            Self::CashoutAboveBalance { .. } => "insufficient_chips",
            Self::CashoutExceedsCashable { .. } => "cashout_exceeds_cashable",
            Self::CashoutNotFound(_) => "cashout_not_found",
            Self::CashoutNotSent {
                chain_down: true, ..
            } => "chain_unavailable",
            Self::CashoutNotSent { .. } => "cashout_failed",
            Self::ChainUnavailable(_) => "chain_unavailable",
            Self::PaymentsUnavailable => "payments_unavailable",
            Self::OriginForbidden(_) => "origin_forbidden",
            Self::NotFound => "not_found",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::PayloadTooLarge => "payload_too_large",
            Self::Internal(_) => "internal",
        }
    }

    /// The JSON body: the validation body for 422, else `{detail, code, ...helpful fields}`.
    pub fn body(&self) -> Value {
        if let Self::Validation(validation) = self {
            return json!(validation);
        }
        let mut body = match self {
            // The x402 challenge itself, so agents reading bodies see what headers say.
            Self::PaymentRequired(challenge) => match json!(challenge.required) {
                Value::Object(map) => map,
                _ => Map::new(),
            },
            // The refunded cashout itself, so the caller sees its id, status and balance.
            Self::CashoutNotSent { receipt, .. } => match json!(receipt) {
                Value::Object(map) => map,
                _ => Map::new(),
            },
            _ => Map::new(),
        };
        body.insert("detail".into(), json!(self.to_string()));
        body.insert("code".into(), json!(self.code()));
        match self {
            Self::InsufficientChips { balance, wager } => {
                body.insert("balance".into(), json!(balance));
                body.insert("wager".into(), json!(wager));
            }
            Self::Limit(limit) => {
                if let Some(max_wager) = limit.max_wager() {
                    body.insert("max_wager".into(), json!(max_wager));
                }
            }
            Self::PaymentRequired(challenge) => {
                if let Some(transaction) = challenge.refusal.transaction() {
                    body.insert("transaction".into(), json!(transaction));
                }
                if let PurchaseError::AlreadyPresented { state, tx_hash, .. } = &challenge.refusal {
                    let state = crate::service::purchases::payment_state(*state);
                    body.insert("state".into(), json!(state));
                    body.insert("tx_hash".into(), json!(tx_hash));
                }
            }
            Self::CashoutAboveBalance { balance, .. } => {
                body.insert("balance".into(), json!(balance));
            }
            Self::CashoutExceedsCashable {
                cashable, balance, ..
            } => {
                body.insert("cashable".into(), json!(cashable));
                body.insert("balance".into(), json!(balance));
            }
            _ => {}
        }
        Value::Object(body)
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
    fn from(error: CallError) -> Self {
        Self::InvalidCall(error)
    }
}

impl From<DbErr> for ApiError {
    fn from(error: DbErr) -> Self {
        Self::internal(error)
    }
}

impl From<PurchaseError> for ApiError {
    /// Outside a purchase request (the cashout's chain checks), a purchase error has no offer
    /// to answer with: only its failures apply.
    fn from(error: PurchaseError) -> Self {
        match error {
            PurchaseError::Unavailable => Self::PaymentsUnavailable,
            PurchaseError::ChainDown(error) => Self::ChainUnavailable(error),
            other => Self::internal(other),
        }
    }
}

impl ApiError {
    /// 5xx causes are logged here and never shown to the caller.
    pub fn log_if_internal(&self) {
        if let Self::Internal(cause) = self {
            tracing::error!(error = %cause, source = ?cause.source(), "request failed");
        }
    }
}

impl Scribe for ApiError {
    fn render(self, res: &mut Response) {
        self.log_if_internal();
        res.status_code(self.status());
        res.add_header("cache-control", "no-store", true).ok();
        if let Self::PaymentRequired(challenge) = &self {
            let required = encode_header(&challenge.required);
            res.add_header(PAYMENT_REQUIRED_HEADER, required, true).ok();
            if let Some(settlement) = &challenge.settlement() {
                let encoded = encode_header(settlement);
                for name in PAYMENT_RESPONSE_HEADERS {
                    res.add_header(name, encoded.clone(), true).ok();
                }
            }
        }
        res.render(Json(self.body()));
    }
}

/// The error body of every non-422 error, for the OpenAPI document (and for clients that read
/// it, such as the house agents).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[salvo(schema(name = "ErrorBody"))]
pub struct ErrorBody {
    /// A sentence saying what went wrong.
    pub detail: String,
    /// Stable snake_case code, e.g. `insufficient_chips`, `round_spent`.
    pub code: String,
    /// With `wager_above_limit` and `payout_above_limit`: the largest wager this call accepts.
    #[serde(default)]
    pub max_wager: Option<u64>,
}

impl EndpointOutRegister for ApiError {
    fn register(components: &mut Components, operation: &mut Operation) {
        let error = ErrorBody::to_schema(components);
        for (status, meaning) in [
            ("401", "signature_required or signature_invalid"),
            ("403", "signature_mismatch or round_not_yours"),
            (
                "400",
                "A rule refused the request (insufficient_chips, limits, invalid_call, cashout_out_of_range, buy_in_required, cashout_exceeds_cashable)",
            ),
            (
                "404",
                "round_not_found, bet_not_found, unknown_tier, cashout_not_found",
            ),
            (
                "409",
                "round_spent, free_already_claimed, payment_already_used",
            ),
            ("500", "internal"),
            (
                "502",
                "cashout_failed: the transfer could not be sent; the chips were refunded",
            ),
            ("503", "chain_unavailable, payments_unavailable"),
        ] {
            operation.responses.insert(
                status,
                oapi::Response::new(meaning).add_content("application/json", error.clone()),
            );
        }
        operation.responses.insert(
            "422",
            oapi::Response::new("Validation Error")
                .add_content("application/json", ValidationError::to_schema(components)),
        );
    }
}
