//! Retry-safe plays: a client whose answer was lost repeats its call and gets the original
//! receipt (`replayed: true`), or looks the round up; nothing is played twice.

use alloy::signers::local::PrivateKeySigner;
use futures::future::join_all;
use serde_json::json;

use crate::helpers::TestApp;
use crate::mcp_client::{McpSession, structured, tool_error};
use crate::on_both_backends;

async fn a_round_shows_its_state_and_then_its_receipt(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let signature = app.sign_statement(&player).await;
    let committed = app
        .post(
            "/api/arcade/commit",
            &json!({ "address": player.address(), "signature": signature }),
        )
        .await
        .ok();
    let round_id = committed["round_id"].as_str().unwrap();
    let open = app
        .get(&format!("/api/arcade/rounds/{round_id}"))
        .await
        .ok();
    assert_eq!(open["state"], "open");
    assert_eq!(open["commitment"], committed["commitment"]);
    assert_eq!(open["expires_at"], committed["expires_at"]);
    assert_eq!(open["address"], player.address().to_checksum(None));
    assert!(
        open.get("receipt").is_none(),
        "the seed stays secret: {open}"
    );
    assert!(!open.to_string().contains("server_seed"));

    let body = json!({ "round_id": round_id, "client_seed": "look", "wager": 3, "target": 40 });
    let played = app.post("/api/arcade/dice", &body).await.ok();
    let settled = app
        .get(&format!("/api/arcade/rounds/{round_id}"))
        .await
        .ok();
    assert_eq!(settled["state"], "settled");
    assert!(settled.get("expires_at").is_none());
    let receipt = &settled["receipt"];
    for field in [
        "bet_id",
        "server_seed",
        "client_seed",
        "payout",
        "result",
        "params",
    ] {
        assert_eq!(receipt[field], played[field], "{field}");
    }
    app.get("/api/arcade/rounds/r_00000000000000000000000000000000")
        .await
        .error(404, "round_not_found");
    app.get(&format!("/api/arcade/rounds/{}", "r".repeat(65)))
        .await
        .invalid(&[json!("path"), json!("round_id")], "string_too_long");
}
on_both_backends!(a_round_shows_its_state_and_then_its_receipt);

/// The same call sent many times at once (a client retrying on timeouts): one bet, one debit,
/// every answer the same receipt.
async fn repeats_racing_settle_once(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let round_id = app.commit(&player).await;
    let body = json!({ "round_id": round_id, "client_seed": "again", "wager": 10,
                       "bet": "red" });
    let answers = join_all((0..12).map(|_| app.post("/api/arcade/roulette", &body))).await;
    let receipts: Vec<_> = answers.into_iter().map(|a| a.ok()).collect();
    assert_eq!(
        receipts.iter().filter(|r| r["replayed"] == false).count(),
        1,
        "played once"
    );
    for receipt in &receipts {
        assert_eq!(receipt["bet_id"], receipts[0]["bet_id"]);
        assert_eq!(receipt["payout"], receipts[0]["payout"]);
    }
    let payout = receipts[0]["payout"].as_i64().unwrap();
    assert_eq!(app.chips(player.address()).await, 100 - 10 + payout);
    // Compared after parsing: the same call in another spelling is the same call.
    let respelled =
        r#"{"bet":"red","wager":10.0,"client_seed":"again","round_id":"ROUND","number":null}"#
            .replace("ROUND", &round_id);
    let replayed = app.post_raw("/api/arcade/roulette", respelled).await.ok();
    assert_eq!(replayed["replayed"], true);
    let other = json!({ "round_id": round_id, "client_seed": "again", "wager": 10,
                        "bet": "black" });
    let refused = app
        .post("/api/arcade/roulette", &other)
        .await
        .error(409, "round_spent");
    assert_eq!(refused["bet_id"], receipts[0]["bet_id"]);
}
on_both_backends!(repeats_racing_settle_once);

/// A repeat answered after the balance moved on (another round played, free chips spent) shows
/// the balance its receipt settled to, pockets too, not the current one.
async fn a_replay_shows_the_balance_it_settled_to(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let first = app.commit(&player).await;
    let body = json!({ "round_id": first, "client_seed": "then", "wager": 7, "call": "heads" });
    let played = app.post("/api/arcade/flip", &body).await.ok();
    let settled = (played["balance"].clone(), played["free_chips"].clone());
    assert_eq!(
        settled.0,
        json!(100 - 7 + played["payout"].as_i64().unwrap())
    );
    let second = app.commit(&player).await;
    let later = json!({ "round_id": second, "client_seed": "now", "wager": 11, "call": "tails" });
    let moved = app.post("/api/arcade/flip", &later).await.ok();
    assert_ne!(moved["balance"], settled.0, "the balance moved on");
    let replayed = app.post("/api/arcade/flip", &body).await.ok();
    assert_eq!(replayed["replayed"], true);
    assert_eq!(
        (replayed["balance"].clone(), replayed["free_chips"].clone()),
        settled,
        "the receipt's own balance"
    );
    assert_eq!(
        app.chips(player.address()).await,
        moved["balance"].as_i64().unwrap()
    );
    app.audit().await;
}
on_both_backends!(a_replay_shows_the_balance_it_settled_to);

async fn replays_and_rounds_over_mcp(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let round_id = app.commit(&player).await;
    let mcp = McpSession::open(&app.base_url).await;
    let open = mcp
        .call("arcade_round", json!({ "round_id": round_id }))
        .await;
    assert_eq!(structured(&open)["state"], "open");
    let call = json!({ "round_id": round_id, "client_seed": "mcp", "wager": 4, "call": "tails" });
    let first = mcp.call("arcade_flip", call.clone()).await;
    let again = mcp.call("arcade_flip", call).await;
    assert_eq!(structured(&first)["replayed"], false);
    assert_eq!(structured(&again)["replayed"], true);
    assert_eq!(structured(&again)["bet_id"], structured(&first)["bet_id"]);
    let text = again["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("replayed"), "{text}");
    let other = mcp
        .call(
            "arcade_flip",
            json!({ "round_id": round_id, "client_seed": "mcp", "wager": 5, "call": "tails" }),
        )
        .await;
    assert_eq!(tool_error(&other), "round_spent");
    assert_eq!(
        other["structuredContent"]["bet_id"],
        structured(&first)["bet_id"]
    );
    let settled = mcp
        .call("arcade_round", json!({ "round_id": round_id }))
        .await;
    assert_eq!(
        structured(&settled)["receipt"]["bet_id"],
        structured(&first)["bet_id"]
    );
}
on_both_backends!(replays_and_rounds_over_mcp);
