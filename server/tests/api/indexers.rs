//! What x402 indexers read, checked as x402scan's `docs/DISCOVERY.md` defines it: OpenAPI at
//! `/openapi.json` with `x-payment-info` (a fixed price, the x402 protocol) and a 402 on every
//! paid operation and `x-discovery.ownershipProofs` (pay_to's EIP-191 signature over the
//! origin); `/.well-known/x402` (`version` 1, `resources`, `ownershipProofs`); and an unpaid
//! probe of each paid route answering 402, never 400, agreeing with both. Each test prints
//! what it checked.

#![allow(clippy::print_stdout)] // what each check saw, shown with --nocapture

use std::str::FromStr;

use alloy::primitives::{Address, Signature};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::Backend;
use crate::paying::PaidApp;

/// The origin of a base URL: `scheme://host[:port]`.
fn origin(base_url: &str) -> String {
    let url = url::Url::parse(base_url).unwrap();
    url.origin().ascii_serialization()
}

/// Who signed `origin` (EIP-191) with `proof`.
fn signer(proof: &Value, origin: &str) -> Address {
    Signature::from_str(proof.as_str().unwrap())
        .unwrap()
        .recover_address_from_msg(origin.as_bytes())
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_paid_route_is_listed_priced_and_probed_as_indexers_read_it() {
    let app = PaidApp::spawn(Backend::Sqlite).await;
    let doc = app.get("/openapi.json").await.ok();
    assert_eq!(doc, app.get("/api/openapi.json").await.ok());
    let manifest = app.get("/api/arcade/manifest").await.ok();
    let well_known = app.get("/.well-known/x402").await.ok();
    let origin = origin(&app.base_url);

    let proofs = &doc["x-discovery"]["ownershipProofs"];
    assert_eq!(proofs.as_array().map(Vec::len), Some(1), "{proofs}");
    assert_eq!(signer(&proofs[0], &origin), app.house(), "pay_to signed");
    assert_eq!(&well_known["ownershipProofs"], proofs);
    println!(
        "ownership proof: recovers to pay_to {} over {origin}",
        app.house()
    );

    assert_eq!(well_known["version"], 1);
    let listed: Vec<&Value> = well_known["resources"].as_array().unwrap().iter().collect();
    assert!(well_known["instructions"].is_string());
    for resource in manifest["resources"].as_array().unwrap() {
        let (path, url) = (resource["path"].as_str().unwrap(), &resource["url"]);
        assert!(listed.contains(&url), "{url} in /.well-known/x402");
        for method in ["get", "post"] {
            let operation = &doc["paths"][path][method];
            paid_operation(operation, resource, &format!("{method} {path}"));
            let challenge = probe(&app, method, path).await;
            let offer = &challenge["accepts"][0];
            let x402 = &operation["x-payment-info"]["protocols"][0]["x402"];
            for (field, wire) in [("amount", "amount"), ("payTo", "payTo"), ("asset", "asset")] {
                assert_eq!(x402[field], offer[wire], "{method} {path} {field}");
            }
            assert_eq!(offer["payTo"], app.house().to_checksum(None));
            println!(
                "{} {path}: x-payment-info {} USD = {} base units, 402 on an unpaid probe, listed in /.well-known/x402",
                method.to_uppercase(),
                operation["x-payment-info"]["price"]["amount"],
                offer["amount"]
            );
        }
    }
}

/// One operation as the indexers' document requires a paid one.
fn paid_operation(operation: &Value, resource: &Value, name: &str) {
    let info = &operation["x-payment-info"];
    assert_eq!(
        info["price"],
        json!({ "mode": "fixed", "currency": "USD", "amount": resource["price_usd"] }),
        "{name}"
    );
    assert_eq!(info["protocols"][0]["x402"]["amount"], resource["amount"]);
    assert!(operation["responses"]["402"].is_object(), "{name}: a 402");
    assert_eq!(operation["security"], json!([]), "{name}: no key");
    let headers: Vec<&Value> = operation["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["in"] == "header")
        .collect();
    assert_eq!(headers.len(), 2, "{name}");
    for header in headers {
        assert_eq!(header["schema"]["minLength"], 4, "{name}");
        assert!(header["schema"]["pattern"].is_string(), "{name}");
    }
}

/// An unpaid request as an indexer sends it (no body, and on POST also `{}`): a 402 with the
/// challenge, before any validation of the request.
async fn probe(app: &PaidApp, method: &str, path: &str) -> Value {
    let method = Method::from_str(&method.to_uppercase()).unwrap();
    let reply = app.buy_by(method.clone(), path, None).await;
    assert_eq!(reply.status, 402, "{method} {path}: {}", reply.body);
    if method == Method::POST {
        let url = format!("{}{path}", app.base_url);
        let with_body = app.client.post(url).json(&json!({})).send().await.unwrap();
        assert_eq!(with_body.status(), 402, "POST {path} with {{}}");
    }
    reply.header_json("payment-required")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_402_says_how_the_official_clients_allow_the_token() {
    let app = PaidApp::spawn(Backend::Sqlite).await;
    // The body carries the lines; the PAYMENT-REQUIRED header, kept small, leaves them out.
    let reply = app.buy_by(Method::POST, "/api/arcade/chips", None).await;
    assert_eq!(reply.status, 402, "{}", reply.body);
    assert!(reply.header_json("payment-required")["extensions"]["spend-controls"].is_null());
    let challenge = reply.body;
    let offer = &challenge["accepts"][0];
    let controls = &challenge["extensions"]["spend-controls"]["info"];
    assert_eq!(
        controls["allowedAssets"],
        json!([{ "network": offer["network"], "asset": offer["asset"] }])
    );
    let llms = app
        .client
        .get(format!("{}/llms.txt", app.base_url))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for client in ["npm", "pypi"] {
        let line = controls[client].as_str().unwrap();
        assert!(line.contains(offer["asset"].as_str().unwrap()), "{line}");
        assert!(
            llms.contains(line),
            "/llms.txt gives the 402's {client} line: {line}"
        );
        println!("402 spend-controls {client}: {line}");
    }
}

/// A pay_to whose key the service lacks: a proof from the settings is published, and without
/// one none is.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_pay_to_held_elsewhere_publishes_the_configured_proof_or_none() {
    use alloy::signers::SignerSync;
    use alloy::signers::local::PrivateKeySigner;

    let owner = PrivateKeySigner::random();
    let app = PaidApp::spawn_with(Backend::Sqlite, |s| {
        s.chain.pay_to = Some(owner.address());
    })
    .await;
    let doc = app.get("/openapi.json").await.ok();
    assert!(
        doc.get("x-discovery").is_none(),
        "no key, no proof: {}",
        doc["x-discovery"]
    );
    assert!(
        app.get("/.well-known/x402")
            .await
            .ok()
            .get("ownershipProofs")
            .is_none()
    );
    println!(
        "pay_to {} held elsewhere, no setting: no proof",
        owner.address()
    );

    // The public URL is fixed so that the proof can be signed before the service starts.
    let base = "https://arcade.example";
    let proof = owner.sign_message_sync(origin(base).as_bytes()).unwrap();
    let proof = format!("0x{}", alloy::hex::encode(proof.as_bytes()));
    let configured = proof.clone();
    let app = PaidApp::spawn_with(Backend::Sqlite, move |s| {
        s.chain.pay_to = Some(owner.address());
        s.server.public_url = Some(base.to_owned());
        s.payments.ownership_proofs = vec![configured];
    })
    .await;
    let doc = app.get("/openapi.json").await.ok();
    assert_eq!(doc["x-discovery"]["ownershipProofs"], json!([proof]));
    println!("pay_to held elsewhere, payments.ownership_proofs set: published as given");
}
