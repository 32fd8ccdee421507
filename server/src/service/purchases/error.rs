//! Why a purchase did not happen, in domain terms, each naming its row of the error table: the
//! edge (`error/`) answers a 402 row with the x402 challenge and the reason in `error`, any
//! other as itself (a 400, a 409, a 503, a 500).

use alloy::primitives::{Address, B256};
use serde_json::{Map, Value};

use crate::refusal::{self, ErrorKind, Refusal};
use crate::service::error::ServiceError;

use crate::store::DbErr;
use crate::store::entities::payment::PaymentState;

#[derive(Debug, thiserror::Error)]
pub enum PurchaseError {
    /// No payment was presented.
    #[error(
        "this resource costs a payment: sign the offer in the PAYMENT-REQUIRED header and retry with PAYMENT-SIGNATURE"
    )]
    PaymentRequired,
    /// The payment header is not base64 JSON of an x402 v2 exact payload.
    #[error("the payment header cannot be read: {0}")]
    Malformed(String),
    /// Refused (verification, the chain, the facilitator, or the chain's verdict): the x402
    /// reason and a sentence. `transaction` is the settlement, if one exists.
    #[error("{detail}")]
    Refused {
        reason: String,
        detail: String,
        payer: Option<Address>,
        transaction: Option<B256>,
    },
    /// This authorization was presented before: still settling, or settled.
    #[error(
        "this payment authorization was already presented (it is {}); {}",
        state_name(*.state),
        advice(*.state)
    )]
    AlreadyPresented {
        state: PaymentState,
        tx_hash: Option<String>,
        payer: Address,
    },
    /// The payment's `payment-identifier` is malformed; nothing was verified or reserved.
    #[error("{0}")]
    IdentifierInvalid(String),
    /// The `payment-identifier` was sent before with another payment.
    #[error(
        "the payment identifier {0} was sent before with another payment; a retry sends the same payment under it, a new payment takes a new identifier"
    )]
    IdentifierConflict(String),
    /// What any area can meet: no chain configured, the chain or the database out of reach,
    /// too many payments from this client, a defect. Nothing was verified or reserved.
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl PurchaseError {
    pub fn refused(
        reason: impl Into<String>,
        detail: impl Into<String>,
        payer: Option<Address>,
        transaction: Option<B256>,
    ) -> Self {
        Self::Refused {
            reason: reason.into(),
            detail: detail.into(),
            payer,
            transaction,
        }
    }

    /// A failure: a database outage when it is one (anywhere among its causes), else a defect.
    pub fn internal(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self::Service(ServiceError::internal(error))
    }

    /// Submitted, not decided: what the buyer hears (the facilitator's reported failure, a
    /// reverted settlement, or pending), with the transaction so they do not pay again.
    pub(super) fn pending(
        reported: Option<(String, String)>,
        reverted: bool,
        payer: Option<Address>,
        transaction: Option<B256>,
    ) -> Self {
        let (reason, detail) = match reported {
            Some((reason, detail)) => (
                reason,
                format!("{detail}; the authorization stays reserved until the chain settles it or it expires"),
            ),
            None if reverted => (
                "invalid_exact_evm_transaction_failed".to_owned(),
                "the settlement reverted; the authorization stays reserved until it expires: sign a new one to buy".to_owned(),
            ),
            None => (
                "settlement_pending".to_owned(),
                format!(
                    "the settlement{} is not confirmed yet; the chips are credited once the chain proves the payment (check the balance), do not pay again",
                    transaction.map(|h| format!(" {h}")).unwrap_or_default()
                ),
            ),
        };
        Self::refused(reason, detail, payer, transaction)
    }

    /// The x402 reason a refusal names (the challenge's `error`), if it is one.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Self::Malformed(_) => Some("invalid_payload"),
            Self::Refused { reason, .. } => Some(reason),
            Self::AlreadyPresented {
                state: PaymentState::Settling,
                ..
            } => Some("settlement_pending"),
            Self::AlreadyPresented { .. } => Some("invalid_exact_evm_nonce_already_used"),
            _ => None,
        }
    }

    /// The payer, when the payment names a readable one.
    pub fn payer(&self) -> Option<Address> {
        match self {
            Self::Refused { payer, .. } => *payer,
            Self::AlreadyPresented { payer, .. } => Some(*payer),
            _ => None,
        }
    }

    /// The settlement transaction, when one exists.
    pub fn transaction(&self) -> Option<String> {
        match self {
            Self::Refused { transaction, .. } => transaction.map(|tx| tx.to_string()),
            Self::AlreadyPresented { tx_hash, .. } => tx_hash.clone(),
            _ => None,
        }
    }
}

impl From<DbErr> for PurchaseError {
    fn from(error: DbErr) -> Self {
        Self::Service(error.into())
    }
}

impl From<crate::rate_limits::RateLimited> for PurchaseError {
    fn from(limited: crate::rate_limits::RateLimited) -> Self {
        Self::Service(limited.into())
    }
}

fn state_name(state: PaymentState) -> &'static str {
    match state {
        PaymentState::Settling => "settling",
        PaymentState::Settled => "settled",
        PaymentState::Failed => "failed",
    }
}

fn advice(state: PaymentState) -> &'static str {
    match state {
        PaymentState::Settling => {
            "its settlement is in flight: do not pay again, the chips are credited once the chain proves it"
        }
        _ => "sign a new one to buy again",
    }
}

/// The state's name, as answers show it.
pub fn payment_state(state: PaymentState) -> &'static str {
    state_name(state)
}

impl Refusal for PurchaseError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::PaymentRequired => refusal::PAYMENT_REQUIRED,
            Self::Malformed(_) => refusal::INVALID_PAYLOAD,
            Self::AlreadyPresented { .. } => refusal::PAYMENT_ALREADY_USED,
            Self::Refused { .. } => refusal::PAYMENT_REFUSED,
            Self::IdentifierInvalid(_) => refusal::PAYMENT_IDENTIFIER_INVALID,
            Self::IdentifierConflict(_) => refusal::PAYMENT_IDENTIFIER_CONFLICT,
            Self::Service(failed) => failed.kind(),
        }
    }

    /// A refusal's settlement transaction, and the state of an authorization presented before.
    fn details(&self) -> Map<String, Value> {
        let mut details = Map::new();
        if let Some(transaction) = self.transaction() {
            details.insert("transaction".into(), transaction.into());
        }
        if let Self::AlreadyPresented { state, tx_hash, .. } = self {
            details.insert("state".into(), state_name(*state).into());
            details.insert("tx_hash".into(), tx_hash.clone().into());
        }
        details
    }

    fn retry_after_s(&self) -> Option<u64> {
        match self {
            Self::Service(failed) => failed.retry_after_s(),
            _ => None,
        }
    }
}

impl From<PurchaseError> for ServiceError {
    /// Outside a purchase (a cashout's chain checks) only a purchase's failures apply.
    fn from(error: PurchaseError) -> Self {
        match error {
            PurchaseError::Service(failed) => failed,
            other => Self::internal(other),
        }
    }
}
