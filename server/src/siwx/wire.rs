//! The `sign-in-with-x` extension's shapes (x402 `specs/extensions/sign-in-with-x.md`, CAIP-122):
//! the challenge a server declares (`info`, `supportedChains`, `schema`), the header a client
//! sends (base64 of the JSON payload), and the EIP-4361 message the payload's signature signs,
//! line for line as the official helpers (`@x402/extensions`, through `@signinwithethereum/siwe`)
//! write it.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::signatures::SignatureError;

/// The request header that carries the proof.
pub const HEADER: &str = "SIGN-IN-WITH-X";
/// The key of the extension in a 402's `extensions`.
pub const KEY: &str = "sign-in-with-x";
/// The longest header accepted, in characters (a payload is well under 2 KiB).
const MAX_HEADER: usize = 8192;

/// What the client signed and sent, as the official client's `createSIWxPayload` writes it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Payload {
    pub domain: String,
    pub address: String,
    pub statement: Option<String>,
    pub uri: String,
    pub version: String,
    /// CAIP-2: `eip155:<chain id>`.
    pub chain_id: String,
    /// `eip191` for EVM.
    #[serde(rename = "type")]
    pub kind: String,
    pub nonce: String,
    pub issued_at: String,
    pub expiration_time: Option<String>,
    pub not_before: Option<String>,
    pub request_id: Option<String>,
    pub resources: Option<Vec<String>>,
    pub signature_scheme: Option<String>,
    /// `0x` + 65 bytes hex: `personal_sign` of [`message`].
    pub signature: String,
}

/// The challenge's `info`: the fields the client echoes and signs.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Info {
    /// This deployment's `host[:port]`.
    pub domain: String,
    pub uri: String,
    /// Always `1`.
    pub version: String,
    /// 32 hex characters, issued by this server and bound to `issuedAt` and `expirationTime`.
    pub nonce: String,
    pub issued_at: String,
    pub expiration_time: String,
    pub statement: String,
    /// The resource the challenge was issued for (left out of the 402's, which names it in
    /// `uri`, to keep the `PAYMENT-REQUIRED` header small).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
}

/// One way to sign: `{chainId, type}`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SupportedChain {
    /// CAIP-2, e.g. `eip155:8453`.
    pub chain_id: String,
    /// `eip191`.
    #[serde(rename = "type")]
    pub kind: String,
}

/// `extensions["sign-in-with-x"]`: the challenge, how to sign it, and the schema of the payload.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Declaration {
    pub info: Info,
    pub supported_chains: Vec<SupportedChain>,
    /// The payload's JSON Schema (left out of the 402's, to keep the `PAYMENT-REQUIRED` header
    /// under 4 KiB; the official clients read only `info` and `supportedChains`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[salvo(schema(value_type = Option<Object>))]
    pub schema: Option<Value>,
}

/// The payload of a `SIGN-IN-WITH-X` header: standard base64 of its JSON.
pub fn decode(header: &str) -> Result<Payload, SignatureError> {
    let invalid = |why: String| SignatureError::Invalid(format!("SIGN-IN-WITH-X: {why}"));
    if header.len() > MAX_HEADER {
        return Err(invalid(format!("longer than {MAX_HEADER} characters")));
    }
    let bytes = STANDARD
        .decode(header.trim())
        .map_err(|e| invalid(format!("not base64 ({e})")))?;
    serde_json::from_slice(&bytes).map_err(|e| invalid(format!("not the payload JSON ({e})")))
}

/// The EIP-4361 message of `payload`, naming `address` (EIP-55) on chain `chain_id`.
pub fn message(payload: &Payload, address: &str, chain_id: u64) -> String {
    let mut head = format!(
        "{} wants you to sign in with your Ethereum account:\n{address}\n\n",
        payload.domain
    );
    if let Some(statement) = &payload.statement {
        head.push_str(statement);
        head.push('\n');
    }
    let mut lines = vec![
        format!("URI: {}", payload.uri),
        format!("Version: {}", payload.version),
        format!("Chain ID: {chain_id}"),
        format!("Nonce: {}", payload.nonce),
        format!("Issued At: {}", payload.issued_at),
    ];
    let optional = [
        ("Expiration Time", &payload.expiration_time),
        ("Not Before", &payload.not_before),
        ("Request ID", &payload.request_id),
    ];
    for (name, value) in optional {
        if let Some(value) = value {
            lines.push(format!("{name}: {value}"));
        }
    }
    if let Some(resources) = &payload.resources {
        lines.push("Resources:".into());
        lines.extend(resources.iter().map(|r| format!("- {r}")));
    }
    format!("{head}\n{}", lines.join("\n"))
}

/// The JSON Schema of the payload, as the extension declares it.
pub fn schema() -> Value {
    let text = json!({ "type": "string" });
    let date = json!({ "type": "string", "format": "date-time" });
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "domain": text, "address": text, "statement": text,
            "uri": { "type": "string", "format": "uri" },
            "version": text, "chainId": text, "type": text, "nonce": text,
            "issuedAt": date, "expirationTime": date, "notBefore": date,
            "requestId": text,
            "resources": { "type": "array", "items": { "type": "string", "format": "uri" } },
            "signature": text
        },
        "required": ["domain", "address", "uri", "version", "chainId", "type", "nonce", "issuedAt", "signature"]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload() -> Payload {
        serde_json::from_value(json!({
            "domain": "api.example.com",
            "address": "0x857b06519E91e3A54538791bDbb0E22373e36b66",
            "uri": "https://api.example.com/premium-data",
            "version": "1",
            "chainId": "eip155:8453",
            "type": "eip191",
            "nonce": "a1b2c3d4e5f67890a1b2c3d4e5f67890",
            "issuedAt": "2024-01-15T10:30:00.000Z",
            "expirationTime": "2024-01-15T10:35:00.000Z",
            "statement": "Sign in to access premium data",
            "resources": ["https://api.example.com/premium-data"],
            "signatureScheme": "eip191",
            "signature": "0x00"
        }))
        .unwrap()
    }

    #[test]
    fn the_message_is_the_specifications_example() {
        let payload = payload();
        assert_eq!(
            message(&payload, &payload.address, 8453),
            "api.example.com wants you to sign in with your Ethereum account:\n\
             0x857b06519E91e3A54538791bDbb0E22373e36b66\n\n\
             Sign in to access premium data\n\n\
             URI: https://api.example.com/premium-data\nVersion: 1\nChain ID: 8453\n\
             Nonce: a1b2c3d4e5f67890a1b2c3d4e5f67890\nIssued At: 2024-01-15T10:30:00.000Z\n\
             Expiration Time: 2024-01-15T10:35:00.000Z\nResources:\n\
             - https://api.example.com/premium-data"
        );
    }

    #[test]
    fn without_a_statement_the_message_keeps_its_blank_lines() {
        let mut payload = payload();
        payload.statement = None;
        payload.resources = None;
        payload.expiration_time = None;
        let text = message(&payload, &payload.address, 8453);
        assert!(text.contains("b66\n\n\nURI: "), "{text}");
        assert!(text.ends_with("Issued At: 2024-01-15T10:30:00.000Z"));
    }

    #[test]
    fn a_header_is_base64_of_the_payload_json() {
        let header = STANDARD.encode(serde_json::to_vec(&payload()).unwrap());
        assert_eq!(decode(&header).unwrap().nonce, payload().nonce);
        for bad in ["not base64!", "bm90IGpzb24=", &"A".repeat(MAX_HEADER + 4)] {
            assert!(
                matches!(decode(bad), Err(SignatureError::Invalid(_))),
                "{bad:.20}"
            );
        }
    }
}
