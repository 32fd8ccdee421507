//! The x402 v2 JSON shapes (camelCase on the wire) and the header encoding: standard base64
//! with padding of UTF-8 JSON.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What is sold: its URL, what the buyer gets, and the service metadata discovery services
/// list it under (`serviceName` at most 32 printable ASCII characters; at most 5 `tags` of at
/// most 32 each, as the official SDKs' `ResourceInfo` validates them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceInfo {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_name: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// One way to pay: `accepts[i]` of a challenge, echoed back as `accepted`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentRequirements {
    pub scheme: String,
    pub network: String,
    /// Token base units, decimal.
    pub amount: String,
    pub asset: String,
    pub pay_to: String,
    pub max_timeout_seconds: u64,
    /// For `exact` on EIP-3009: the token's EIP-712 `name` and `version`.
    #[serde(default)]
    pub extra: Value,
}

/// The 402 challenge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentRequired {
    pub x402_version: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub resource: ResourceInfo,
    pub accepts: Vec<PaymentRequirements>,
    /// `key -> {info, schema}`: here `bazaar`, how to call the resource and what it answers.
    /// Clients echo it in their payment; this server neither needs nor checks the echo.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub extensions: Map<String, Value>,
}

/// What a client sends back in `PAYMENT-SIGNATURE`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentPayload {
    pub x402_version: u64,
    pub accepted: PaymentRequirements,
    pub payload: ExactEvmPayload,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ExactEvmPayload {
    /// 65-byte `r || s || v`, 0x-hex.
    pub signature: String,
    pub authorization: AuthorizationText,
}

/// The EIP-3009 authorization as it travels: every field a string.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthorizationText {
    pub from: String,
    pub to: String,
    pub value: String,
    pub valid_after: String,
    pub valid_before: String,
    pub nonce: String,
}

/// The outcome of a settlement, in `PAYMENT-RESPONSE`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SettleResponse {
    pub success: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_reason: Option<String>,
    /// A sentence to go with `error_reason` (facilitators send it; this server does not).
    #[serde(default, skip_serializing)]
    pub error_message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payer: Option<String>,
    /// The transaction hash; empty when nothing was settled.
    #[serde(default)]
    pub transaction: String,
    #[serde(default)]
    pub network: String,
}

/// Standard padded base64 of the JSON, as x402 headers carry it.
pub fn encode_header(value: &impl Serialize) -> String {
    // Cannot fail: the header shapes are derived structs of strings, numbers and JSON values,
    // and serde_json fails only on a map key that is no string or number, or a failing
    // hand-written `Serialize`.
    STANDARD.encode(serde_json::to_vec(value).expect("x402 shapes serialize"))
}

/// Why a payment header could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    #[error("the payment header is not standard base64: {0}")]
    Base64(String),
    #[error("the payment header is not JSON: {0}")]
    Json(String),
    #[error("the payment is x402 version {0}; this server speaks version 2")]
    Version(String),
    #[error("the payment does not have the x402 v2 exact shape: {0}")]
    Shape(String),
}

/// Decodes a v2 payment header: base64, then JSON, then the version, then the shape.
pub fn decode_payment(header: &str) -> Result<PaymentPayload, HeaderError> {
    let bytes = STANDARD
        .decode(header.trim())
        .map_err(|e| HeaderError::Base64(e.to_string()))?;
    let value: Value =
        serde_json::from_slice(&bytes).map_err(|e| HeaderError::Json(e.to_string()))?;
    match value.get("x402Version") {
        Some(Value::Number(n)) if n.as_u64() == Some(super::X402_VERSION) => {}
        Some(other) => return Err(HeaderError::Version(other.to_string())),
        None => return Err(HeaderError::Shape("x402Version is missing".into())),
    }
    parse(value)
}

/// The JSON of a payment header as sent (to forward it to a facilitator untouched).
pub fn decode_json(header: &str) -> Result<Value, HeaderError> {
    let bytes = STANDARD
        .decode(header.trim())
        .map_err(|e| HeaderError::Base64(e.to_string()))?;
    serde_json::from_slice(&bytes).map_err(|e| HeaderError::Json(e.to_string()))
}

/// Decodes a `PAYMENT-REQUIRED` header (a client reading a 402).
pub fn decode_payment_required(header: &str) -> Result<PaymentRequired, HeaderError> {
    parse(decode_json(header)?)
}

fn parse<T: DeserializeOwned>(value: Value) -> Result<T, HeaderError> {
    serde_json::from_value(value).map_err(|e| HeaderError::Shape(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn headers_are_standard_padded_base64_of_the_json() {
        let response = SettleResponse {
            success: true,
            error_reason: None,
            error_message: None,
            payer: Some("0xab".into()),
            transaction: "0x01".into(),
            network: "eip155:1".into(),
        };
        let header = encode_header(&response);
        assert!(header.ends_with('='), "{header} keeps its padding");
        let json: Value = serde_json::from_slice(&STANDARD.decode(&header).unwrap()).unwrap();
        assert_eq!(
            json,
            json!({"success": true, "payer": "0xab", "transaction": "0x01", "network": "eip155:1"})
        );
    }

    #[test]
    fn decoding_names_what_is_wrong() {
        assert!(matches!(decode_payment("***"), Err(HeaderError::Base64(_))));
        assert!(matches!(
            decode_payment(&STANDARD.encode("not json")),
            Err(HeaderError::Json(_))
        ));
        let v1 = STANDARD.encode(json!({"x402Version": 1, "scheme": "exact"}).to_string());
        assert_eq!(
            decode_payment(&v1).unwrap_err(),
            HeaderError::Version("1".into())
        );
        let shapeless = STANDARD.encode(json!({"x402Version": 2, "accepted": {}}).to_string());
        assert!(matches!(
            decode_payment(&shapeless),
            Err(HeaderError::Shape(_))
        ));
    }
}
