//! An error as the client receives it: the status, `Retry-After` when it says when to retry, the x402
//! headers of a 402, and the JSON body.

use salvo::prelude::*;
use serde_json::{Map, Value, json};

use super::ApiError;
use crate::service::purchases::PurchaseError;
use crate::x402::wire::encode_header;
use crate::x402::{PAYMENT_REQUIRED_HEADER, PAYMENT_RESPONSE_HEADERS};

impl ApiError {
    /// The JSON body: `{detail, code, ...helpful fields}`; a 422's `detail` is FastAPI's list
    /// of every problem at once.
    pub fn body(&self) -> Value {
        if let Self::Validation(validation) = self {
            let mut body = json!(validation);
            body["code"] = json!(self.code());
            return body;
        }
        let mut body = self.embedded();
        body.insert("detail".into(), json!(self.to_string()));
        body.insert("code".into(), json!(self.code()));
        for (name, value) in self.details() {
            body.insert(name.into(), value);
        }
        Value::Object(body)
    }

    /// What the body is built on: the x402 challenge itself (so agents reading bodies see what
    /// headers say), the refunded cashout (its id, status and balance), or nothing.
    fn embedded(&self) -> Map<String, Value> {
        let value = match self {
            Self::PaymentRequired(challenge) => json!(challenge.required),
            Self::CashoutNotSent { receipt, .. } => json!(receipt),
            Self::NotReady(readiness) => json!(readiness),
            _ => return Map::new(),
        };
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    /// Fields that help the caller act on the error.
    fn details(&self) -> Vec<(&'static str, Value)> {
        match self {
            Self::InsufficientChips { balance, wager } => {
                vec![("balance", json!(balance)), ("wager", json!(wager))]
            }
            Self::Limit(limit) => limit
                .max_wager()
                .map(|max| vec![("max_wager", json!(max))])
                .unwrap_or_default(),
            Self::PaymentRequired(challenge) => payment_details(&challenge.refusal),
            Self::CashoutAboveBalance { balance, .. } => vec![("balance", json!(balance))],
            Self::CashoutExceedsCashable {
                cashable, balance, ..
            } => vec![("cashable", json!(cashable)), ("balance", json!(balance))],
            Self::RoundSpent {
                bet_id: Some(bet_id),
                ..
            } => vec![("bet_id", json!(bet_id))],
            Self::RateLimited(_) | Self::DatabaseUnavailable(_) | Self::BooksBehind(_) => {
                vec![("retry_after_s", json!(self.retry_after_s()))]
            }
            Self::TooManyOpenRounds { max } => vec![("max_open_rounds", json!(max))],
            _ => Vec::new(),
        }
    }
}

/// A refused purchase's settlement transaction, and the state of an authorization presented
/// before.
fn payment_details(refusal: &PurchaseError) -> Vec<(&'static str, Value)> {
    let mut details = Vec::new();
    if let Some(transaction) = refusal.transaction() {
        details.push(("transaction", json!(transaction)));
    }
    if let PurchaseError::AlreadyPresented { state, tx_hash, .. } = refusal {
        let state = crate::service::purchases::payment_state(*state);
        details.push(("state", json!(state)));
        details.push(("tx_hash", json!(tx_hash)));
    }
    details
}

impl Scribe for ApiError {
    fn render(self, res: &mut Response) {
        self.log_if_internal();
        res.status_code(self.status());
        res.add_header("cache-control", "no-store", true).ok();
        if let Some(seconds) = self.retry_after_s() {
            res.add_header("retry-after", seconds.to_string(), true)
                .ok();
        }
        if let Self::PaymentRequired(challenge) = &self {
            let required = encode_header(&crate::api::header_form(&challenge.required));
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
