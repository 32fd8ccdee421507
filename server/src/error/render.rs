//! An error as the client receives it: the status, `Retry-After` when it says when to retry, the x402
//! headers of a 402, and the JSON body.

use salvo::prelude::*;
use serde_json::{Map, Value, json};

use super::ApiError;
use crate::refusal::Refusal;
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
        let mut body = self.fields();
        if let Some(seconds) = self.retry_after_s() {
            body.insert("retry_after_s".into(), json!(seconds));
        }
        body.insert("detail".into(), json!(self.to_string()));
        body.insert("code".into(), json!(self.code()));
        Value::Object(body)
    }

    /// What helps the caller act on the error: the refusal's own fields; for a 402 the x402
    /// challenge itself too (so agents reading bodies see what headers say); for a readiness
    /// failure the checks.
    fn fields(&self) -> Map<String, Value> {
        match self {
            Self::Refused(refused) => refused.details(),
            Self::PaymentRequired(challenge) => {
                let mut fields = object(json!(challenge.required));
                fields.extend(challenge.refusal.details());
                fields
            }
            Self::NotReady(readiness) => object(json!(readiness)),
            _ => Map::new(),
        }
    }
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
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
