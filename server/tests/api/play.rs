use alloy::signers::local::PrivateKeySigner;
use arcade_core::wire::ReceiptInput;
use arcade_core::{Commitment, Receipt, verify};
use serde_json::{Value, json};

use crate::helpers::TestApp;
use crate::on_both_backends;

/// Re-derives a receipt with `arcade-core` as an outside verifier would.
pub fn assert_receipt_verifies(receipt: &Value) {
    let input: ReceiptInput = serde_json::from_value(receipt.clone()).expect("a receipt");
    let seed = receipt["server_seed"].as_str().unwrap();
    assert_eq!(Commitment::of(seed).as_str(), receipt["commitment"]);
    let verification = verify(&Receipt::try_from(input).expect("well formed")).expect("verifies");
    assert!(verification.verified(), "{receipt}");
}

async fn free_chips_play_every_game_and_verify(app: &TestApp) {
    let player = PrivateKeySigner::random();
    let address = player.address();
    let granted = app
        .post(
            "/api/arcade/free",
            &json!({ "address": format!("{address:#x}") }),
        )
        .await
        .ok();
    assert_eq!(
        granted,
        json!({ "address": address.to_checksum(None), "granted": 100, "balance": 100 })
    );
    let balance = app
        .get(&format!("/api/arcade/balance/{address}"))
        .await
        .ok();
    assert_eq!(
        balance,
        json!({ "address": address.to_checksum(None), "chips": 100, "bought_in": false, "free_claimed": true, "cashable": 0, "free_chips": 100 })
    );

    let calls = [
        ("/api/arcade/flip", json!({ "call": "tails" }), "coinflip"),
        (
            "/api/arcade/dice",
            json!({ "target": 50, "direction": "over" }),
            "dice",
        ),
        ("/api/arcade/dice", json!({ "target": 30 }), "dice"),
        ("/api/arcade/roulette", json!({ "bet": "red" }), "roulette"),
        (
            "/api/arcade/roulette",
            json!({ "bet": "straight", "number": 17 }),
            "roulette",
        ),
    ];
    let mut chips = 100;
    let mut bet_ids = Vec::new();
    let mut verified_receipts = Vec::new();
    for (i, (path, call, game)) in calls.iter().enumerate() {
        let round_id = app.commit(&player).await;
        let mut body = call.clone();
        body["round_id"] = json!(round_id);
        body["client_seed"] = json!(format!("seed {i} ✓"));
        body["wager"] = json!(10);
        let receipt = app.post(path, &body).await.ok();
        assert_eq!(receipt["game"], *game);
        assert_eq!(receipt["round_id"], round_id);
        assert_eq!(receipt["nonce"], 0);
        assert_eq!(receipt["wager"], 10);
        assert_eq!(receipt["client_seed"], format!("seed {i} ✓"));
        let payout = receipt["payout"].as_i64().unwrap();
        assert_eq!(receipt["profit"].as_i64().unwrap(), payout - 10);
        assert_eq!(receipt["won"].as_bool().unwrap(), payout > 0);
        chips += payout - 10;
        assert_eq!(receipt["balance"], chips);
        assert_receipt_verifies(&receipt);
        if *game == "dice" {
            let result = &receipt["result"];
            assert!(result["win_chance"].as_str().unwrap().ends_with('%'));
            assert_eq!(
                result["roll_hundredths"].as_f64().unwrap() / 100.0,
                result["roll"].as_f64().unwrap()
            );
            assert_eq!(
                receipt["params"]["direction"],
                call.get("direction").cloned().unwrap_or(json!("under"))
            );
            // The exact return of the call (fairness v1: 0.99 x 10001 / W per chip wagered):
            // a win pays its floor or its ceiling.
            let target = call["target"].as_i64().unwrap();
            let winning = if call["direction"] == "over" {
                10_000 - target * 100
            } else {
                target * 100
            };
            let (num, den) = (
                result["return_num"].as_i64().unwrap(),
                result["return_den"].as_i64().unwrap(),
            );
            assert_eq!(
                i128::from(num) * i128::from(100 * winning),
                i128::from(den) * 10 * 99 * 10_001,
                "return_num/return_den is 10 x 0.99 x 10001 / {winning}"
            );
            if payout > 0 {
                assert!(payout == num / den || payout == num / den + 1, "{receipt}");
            }
        }
        if *game == "roulette" {
            assert_eq!(
                receipt["params"]["number"],
                call.get("number").cloned().unwrap_or(Value::Null)
            );
        }

        let verified = app
            .get(&format!("/api/arcade/verify/{}", receipt["bet_id"]))
            .await
            .ok();
        // Played without the player's Play signature: it re-derives, but proves nothing.
        assert_eq!(verified["verdict"], "consistent, not proven", "{verified}");
        assert!(
            verified["reason"]
                .as_str()
                .unwrap()
                .contains("Play signature"),
            "{verified}"
        );
        assert_eq!(
            verified["checks"],
            json!({ "commitment": true, "outcome": true, "payout": true })
        );
        for field in [
            "bet_id",
            "commitment",
            "server_seed",
            "client_seed",
            "params",
            "result",
            "payout",
        ] {
            assert_eq!(verified[field], receipt[field], "{field}");
        }
        assert_receipt_verifies(&verified);
        bet_ids.push(receipt["bet_id"].as_i64().unwrap());
        verified_receipts.push(verified);
    }
    assert_eq!(app.chips(address).await, chips);

    let recent = app.get("/api/arcade/recent").await.ok();
    let listed: Vec<i64> = recent
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bet_id"].as_i64().unwrap())
        .collect();
    bet_ids.reverse();
    assert_eq!(listed, bet_ids, "newest first");
    // A listing shows each round as its receipt does, less the seed and the full address.
    for (listed, verified) in recent
        .as_array()
        .unwrap()
        .iter()
        .zip(verified_receipts.iter().rev())
    {
        for field in [
            "bet_id",
            "round_id",
            "commitment",
            "committed_at",
            "settled_at",
            "result",
        ] {
            assert_eq!(listed[field], verified[field], "{field}");
        }
    }
    let first = &recent[0];
    assert!(first.get("server_seed").is_none());
    let checksummed = address.to_checksum(None);
    assert_eq!(
        first["address"],
        format!("{}…{}", &checksummed[..6], &checksummed[38..])
    );
    let two = app.get("/api/arcade/recent?limit=2").await.ok();
    assert_eq!(two.as_array().unwrap().len(), 2);
}
on_both_backends!(free_chips_play_every_game_and_verify);

async fn open_rounds_never_show_up_in_public(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    app.commit(&player).await;
    let recent = app.get("/api/arcade/recent").await.ok();
    assert_eq!(
        recent,
        json!([]),
        "the interface's recent rounds are a list"
    );
    app.get("/api/arcade/verify/1")
        .await
        .error(404, "bet_not_found");
}
on_both_backends!(open_rounds_never_show_up_in_public);
