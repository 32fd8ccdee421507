//! Limbo over REST: a target as decimal text or a whole number plays; the receipt carries the
//! target and the result in hundredths, verifies on `/verify`, and its numbers are the
//! addendum's; every refused target changes nothing (the chips stay, the round stays open).

use alloy::signers::local::PrivateKeySigner;
use serde_json::{Value, json};

use crate::helpers::TestApp;
use crate::on_both_backends;

fn limbo(round_id: &str, wager: i64, target: Value) -> Value {
    json!({ "round_id": round_id, "client_seed": "limbo", "wager": wager, "target": target })
}

async fn a_target_as_text_or_number_plays_and_verifies(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.fund(player.address(), 1_000).await;
    for (target, hundredths) in [
        (json!("2.00"), 200),
        (json!(2), 200),
        (json!("1.5"), 150),
        (json!(3.0), 300),
        (json!("501"), 50_100),
    ] {
        let round_id = app.commit(&player).await;
        let receipt = app
            .post("/api/arcade/limbo", &limbo(&round_id, 1, target.clone()))
            .await
            .ok();
        assert_eq!(receipt["game"], "limbo");
        assert_eq!(
            receipt["params"],
            json!({ "target_hundredths": hundredths }),
            "{target}"
        );
        let result = receipt["result"]["result_hundredths"].as_u64().unwrap();
        assert!((100..=100_000_000).contains(&result), "{receipt}");
        let shown = format!("{}.{:02}", result / 100, result % 100);
        assert_eq!(receipt["result"]["crash_point"], shown.as_str());
        assert_eq!(receipt["won"], result >= hundredths, "{receipt}");
        let verified = app
            .get(&format!("/api/arcade/verify/{}", receipt["bet_id"]))
            .await
            .ok();
        assert_eq!(verified["verdict"], "consistent, not proven", "{verified}");
        assert_eq!(verified["mismatches"], json!([]), "{verified}");
    }
}
on_both_backends!(a_target_as_text_or_number_plays_and_verifies);

async fn refused_targets_change_nothing(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.fund(player.address(), 1_000).await;
    let round_id = app.commit(&player).await;
    let chips = app.chips(player.address()).await;
    // The target's own rule, in its words: hundredths as text, a JSON number only whole.
    for target in [
        json!("1.00"),
        json!("1000000.01"),
        json!(1.015),
        json!(1.5),
        json!(1),
        json!("02.00"),
        json!("0"),
        json!("2.001"),
        json!("abc"),
        json!(0.5),
        json!("-2"),
    ] {
        // A 422 at the target, as every game words a call outside what it accepts.
        let refused = app
            .post("/api/arcade/limbo", &limbo(&round_id, 1, target))
            .await
            .invalid(&[json!("body"), json!("target")], "value_error");
        assert_eq!(refused["code"], "validation_error");
    }
    // Neither a string nor a number.
    let answer = app
        .post("/api/arcade/limbo", &limbo(&round_id, 1, json!(true)))
        .await
        .invalid(&[json!("body")], "value_error");
    assert!(answer.to_string().contains("decimal text"), "{answer}");
    // 1000.00x pays far above the payout limit: no wager fits.
    let refused = app
        .post("/api/arcade/limbo", &limbo(&round_id, 1, json!("1000.00")))
        .await
        .error(400, "payout_above_limit");
    assert_eq!(refused["max_wager"], 0);
    // 2.00x: a win pays a hair under 2x, so 500 chips of profit is the most: 500 is the max.
    let refused = app
        .post("/api/arcade/limbo", &limbo(&round_id, 501, json!("2.00")))
        .await
        .error(400, "payout_above_limit");
    assert_eq!(refused["max_wager"], 500);
    assert_eq!(app.chips(player.address()).await, chips);
    let round = app
        .get(&format!("/api/arcade/rounds/{round_id}"))
        .await
        .ok();
    assert_eq!(round["state"], "open");
    app.post("/api/arcade/limbo", &limbo(&round_id, 500, json!("2.00")))
        .await
        .ok();
}
on_both_backends!(refused_targets_change_nothing);
