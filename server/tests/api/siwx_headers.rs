//! Sign-in-with-x proofs made as a client makes them: the challenge of
//! `GET /api/arcade/siwx/{address}` (or one this deployment issued at a time the test picks),
//! echoed into the payload the official client builds, its EIP-4361 message written out here
//! and signed with `personal_sign`, then base64 of the payload's JSON.

use alloy::primitives::Address;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::siwx::{Binding, HEADER};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value, json};

use crate::helpers::{Response, TestApp, sign};

/// The address's challenge, as the REST route answers it.
pub async fn challenge(app: &TestApp, who: &PrivateKeySigner) -> Value {
    app.get(&format!("/api/arcade/siwx/{}", who.address()))
        .await
        .ok()
}

/// A challenge this deployment issues for an address that never rotated, as if at
/// `issued_at_ms` (Unix milliseconds): the test's clock for a proof's window.
pub fn challenge_issued_at(app: &TestApp, who: Address, issued_at_ms: i64) -> Value {
    let identity = app.arcade.auth.identity();
    let first = identity.first_generation(&who);
    let siwx = identity.siwx();
    let declaration = siwx.declaration(
        Binding::Address(&who, &first),
        issued_at_ms,
        siwx.uri().to_owned(),
    );
    serde_json::to_value(declaration).unwrap()
}

/// Unix milliseconds now, as the server reads them.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// The `SIGN-IN-WITH-X` header `signer` makes of `challenge`.
pub fn header(challenge: &Value, signer: &PrivateKeySigner) -> String {
    header_with(challenge, signer, |_| {})
}

/// [`header`] with the payload changed by `change` before it is signed.
pub fn header_with(
    challenge: &Value,
    signer: &PrivateKeySigner,
    change: impl FnOnce(&mut Map<String, Value>),
) -> String {
    let info = &challenge["info"];
    let mut payload = json!({
        "domain": info["domain"],
        "address": signer.address().to_checksum(None),
        "statement": info["statement"],
        "uri": info["uri"],
        "version": info["version"],
        "chainId": challenge["supportedChains"][0]["chainId"],
        "type": "eip191",
        "nonce": info["nonce"],
        "issuedAt": info["issuedAt"],
        "expirationTime": info["expirationTime"],
    });
    let fields = payload.as_object_mut().unwrap();
    if let Some(resources) = info.get("resources") {
        fields.insert("resources".into(), resources.clone());
    }
    change(fields);
    let signature = sign(signer, &message(&payload));
    payload["signature"] = json!(signature);
    STANDARD.encode(payload.to_string())
}

/// The EIP-4361 message of a payload (CAIP-122 for `eip155`).
fn message(payload: &Value) -> String {
    let text = |key: &str| payload[key].as_str().unwrap_or_default().to_owned();
    let chain = text("chainId").trim_start_matches("eip155:").to_owned();
    let mut lines = vec![
        format!(
            "{} wants you to sign in with your Ethereum account:",
            text("domain")
        ),
        text("address"),
        String::new(),
        text("statement"),
        String::new(),
        format!("URI: {}", text("uri")),
        format!("Version: {}", text("version")),
        format!("Chain ID: {chain}"),
        format!("Nonce: {}", text("nonce")),
        format!("Issued At: {}", text("issuedAt")),
        format!("Expiration Time: {}", text("expirationTime")),
    ];
    if let Some(resources) = payload["resources"].as_array() {
        lines.push("Resources:".into());
        lines.extend(
            resources
                .iter()
                .map(|r| format!("- {}", r.as_str().unwrap())),
        );
    }
    lines.join("\n")
}

/// A JSON `POST` carrying `header` as `SIGN-IN-WITH-X`.
pub async fn post_proven(app: &TestApp, path: &str, body: &Value, header: &str) -> Response {
    let response = app
        .client
        .post(format!("{}{path}", app.base_url))
        .header("content-type", "application/json")
        .header(HEADER, header)
        .body(body.to_string())
        .send()
        .await
        .expect("request sent");
    Response::read(response).await
}
