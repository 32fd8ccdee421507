//! Races with real concurrency: many requests in flight at once against one server.

use alloy::signers::local::PrivateKeySigner;
use futures::future::join_all;
use serde_json::json;

use crate::helpers::TestApp;
use crate::on_both_backends;
use crate::play::assert_receipt_verifies;

async fn sixty_four_plays_of_one_round_settle_once(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.fund(player.address(), 1_000).await;
    let round_id = app.commit(&player).await;
    let plays = (0..64).map(|i| {
        let body = json!({ "round_id": round_id, "client_seed": format!("racer {i}"), "wager": 10, "call": "heads" });
        async move { app.post("/api/arcade/flip", &body).await }
    });
    let responses = join_all(plays).await;
    let settled: Vec<_> = responses.iter().filter(|r| r.status == 200).collect();
    assert_eq!(settled.len(), 1, "exactly one play settles");
    for refused in responses.iter().filter(|r| r.status != 200) {
        assert_eq!(
            (refused.status, refused.body["code"].as_str()),
            (409, Some("round_spent")),
            "{}",
            refused.body
        );
    }
    let receipt = &settled[0].body;
    assert_receipt_verifies(receipt);
    assert_eq!(
        app.chips(player.address()).await,
        1_000 + receipt["profit"].as_i64().unwrap()
    );
}
on_both_backends!(sixty_four_plays_of_one_round_settle_once);

/// A balance that covers 10 wagers, 32 wagers at once (the open rounds one address may hold). Every settled wager was covered when it
/// was taken, and once one is refused for lack of chips no later one can settle (a win is
/// credited in the same transaction as its wager), so: without wins exactly 10 settle, and in
/// every case the balance left cannot cover one more wager.
pub async fn wagers_racing_for_one_balance(app: &TestApp) {
    let player = PrivateKeySigner::random();
    let wager = 5;
    app.fund(player.address(), 10 * wager).await;
    let mut rounds = Vec::new();
    // As many rounds as one address may hold open.
    for _ in 0..32 {
        rounds.push(app.commit(&player).await);
    }
    let plays = rounds.iter().map(|round_id| {
        // Dice under 1 wins about 1% of the time: wins are rare but possible, and accounted for.
        let body =
            json!({ "round_id": round_id, "client_seed": round_id, "wager": wager, "target": 1 });
        async move { app.post("/api/arcade/dice", &body).await }
    });
    let responses = join_all(plays).await;
    let settled: Vec<_> = responses
        .iter()
        .filter(|r| r.status == 200)
        .map(|r| &r.body)
        .collect();
    for refused in responses.iter().filter(|r| r.status != 200) {
        assert_eq!(
            (refused.status, refused.body["code"].as_str()),
            (400, Some("insufficient_chips")),
            "{}",
            refused.body
        );
    }
    let paid: i64 = settled.iter().map(|r| r["payout"].as_i64().unwrap()).sum();
    let balance = app.chips(player.address()).await;
    assert_eq!(
        balance,
        10 * wager - wager * settled.len() as i64 + paid,
        "chips conserved"
    );
    assert!(
        (0..wager).contains(&balance) || settled.len() == rounds.len(),
        "balance {balance} left unplayed"
    );
    if paid == 0 {
        assert_eq!(settled.len(), 10);
    }
    settled.iter().for_each(|r| assert_receipt_verifies(r));
}
on_both_backends!(wagers_racing_for_one_balance);

pub async fn free_claims_racing(app: &TestApp) {
    let player = PrivateKeySigner::random();
    let body = json!({ "address": player.address() });
    let claims = (0..32).map(|_| app.post("/api/arcade/free", &body));
    let responses = join_all(claims).await;
    let granted = responses.iter().filter(|r| r.status == 200).count();
    assert_eq!(granted, 1, "one grant");
    for refused in responses.iter().filter(|r| r.status != 200) {
        assert_eq!(
            (refused.status, refused.body["code"].as_str()),
            (409, Some("free_already_claimed")),
            "{}",
            refused.body
        );
    }
    assert_eq!(app.chips(player.address()).await, 100);
}
on_both_backends!(free_claims_racing);
