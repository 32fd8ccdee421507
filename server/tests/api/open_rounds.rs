//! Only the owner's client can play an open round. A round's id is what plays it (a game call
//! needs no signature), so no public answer shows the id of a round still open: a stranger
//! scraping every public listing, REST and MCP, finds the open round's index and commitment,
//! never its id. Ids carry 128 random bits, and a play signed by another address is refused
//! with 403 and changes nothing.

use std::collections::HashSet;

use alloy::signers::local::PrivateKeySigner;
use serde_json::{Value, json};

use crate::helpers::TestApp;
use crate::mcp_client::McpSession;
use crate::on_both_backends;

async fn flip(app: &TestApp, round_id: &str, signature: Option<&str>) -> crate::helpers::Response {
    app.post(
        "/api/arcade/flip",
        &json!({ "round_id": round_id, "client_seed": "mine", "wager": 10, "call": "heads", "signature": signature }),
    )
    .await
}

/// Every public answer a stranger can read, as text.
async fn everything_public(app: &TestApp) -> Vec<(String, String)> {
    let mut seen = Vec::new();
    let paths = [
        "/api/arcade/seed-batches",
        "/api/arcade/receipts?after=0&limit=1000",
        "/api/arcade/recent?limit=100",
        "/api/arcade/house",
        "/api/arcade/games",
        "/api/arcade/manifest",
        "/api/housebot/status",
    ];
    for path in paths {
        seen.push((path.to_owned(), app.get(path).await.ok().to_string()));
    }
    let batches = app.get("/api/arcade/seed-batches").await.ok();
    for batch in batches.as_array().unwrap() {
        let path = format!("/api/arcade/seed-batches/{}", batch["batch_id"]);
        seen.push((path.clone(), app.get(&path).await.ok().to_string()));
    }
    let mcp = McpSession::open(&app.base_url).await;
    for tool in ["arcade_house", "arcade_games"] {
        seen.push((tool.to_owned(), mcp.call(tool, json!({})).await.to_string()));
    }
    seen
}

async fn no_public_answer_shows_an_open_round(app: &TestApp) {
    let owner = PrivateKeySigner::random();
    app.fund(owner.address(), 100).await;
    let settled = app.commit(&owner).await;
    flip(app, &settled, None).await.ok();
    let open = app.commit(&owner).await;

    for (answer, text) in everything_public(app).await {
        assert!(
            !text.contains(&open),
            "{answer} shows the open round {open}"
        );
    }
    let round = app.get(&format!("/api/arcade/rounds/{open}")).await.ok();
    assert_eq!(round["state"], "open");

    // Its batch lists the index and the commitment, without the id; once played, the id too.
    let commitment = round["commitment"].clone();
    let listed = async |app: &TestApp| {
        let batches = app.get("/api/arcade/seed-batches").await.ok();
        for batch in batches.as_array().unwrap() {
            let path = format!("/api/arcade/seed-batches/{}", batch["batch_id"]);
            let batch = app.get(&path).await.ok();
            let found = batch["rounds"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["commitment"] == commitment)
                .cloned();
            if let Some(found) = found {
                return found;
            }
        }
        panic!("the open round's index is not listed");
    };
    let index = listed(app).await;
    assert_eq!(
        (&index["state"], &index["round_id"], &index["server_seed"]),
        (&json!("open"), &Value::Null, &Value::Null)
    );
    flip(app, &open, None).await.ok();
    let index = listed(app).await;
    assert_eq!(
        (&index["state"], &index["round_id"]),
        (&json!("settled"), &json!(open))
    );
}

on_both_backends!(no_public_answer_shows_an_open_round);

async fn a_stranger_cannot_play_anothers_round(app: &TestApp) {
    let owner = PrivateKeySigner::random();
    let stranger = PrivateKeySigner::random();
    app.fund(owner.address(), 100).await;
    app.fund(stranger.address(), 100).await;
    let round_id = app.commit(&owner).await;

    // The stranger's own statement, signed by the stranger; and the owner's statement signed
    // by the stranger: both recover to someone other than the round's owner.
    let own = app.sign_statement(&stranger).await;
    let owners_text = app
        .get(&format!("/api/arcade/auth-statement/{}", owner.address()))
        .await
        .ok();
    let forged = crate::helpers::sign(&stranger, owners_text["statement"].as_str().unwrap());
    for signature in [own, forged] {
        let refused = flip(app, &round_id, Some(&signature)).await;
        assert_eq!(refused.status, 403, "{}", refused.body);
        assert_eq!(app.chips(owner.address()).await, 100, "nothing taken");
        let round = app
            .get(&format!("/api/arcade/rounds/{round_id}"))
            .await
            .ok();
        assert_eq!(round["state"], "open", "the round is not spent");
    }
    let signature = app.sign_statement(&owner).await;
    let played = flip(app, &round_id, Some(&signature)).await.ok();
    assert_eq!(played["round_id"], round_id.as_str());
    assert_eq!(app.chips(stranger.address()).await, 100);
}

on_both_backends!(a_stranger_cannot_play_anothers_round);

async fn round_ids_carry_128_random_bits(app: &TestApp) {
    let owner = PrivateKeySigner::random();
    let mut ids = HashSet::new();
    for _ in 0..20 {
        let id = app.commit(&owner).await;
        let hex = id.strip_prefix("r_").expect("r_ then the random part");
        assert!(
            hex.len() >= 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()),
            "{id}: fewer than 128 bits"
        );
        assert!(ids.insert(id));
    }
}

on_both_backends!(round_ids_carry_128_random_bits);
