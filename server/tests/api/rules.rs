//! Every refusal changes nothing: no chip moves, the round stays open and can still be played.

use alloy::signers::local::PrivateKeySigner;
use sea_orm::EntityTrait;
use serde_json::json;

use crate::helpers::TestApp;
use crate::on_both_backends;

fn flip(round_id: &str, wager: i64) -> serde_json::Value {
    json!({ "round_id": round_id, "client_seed": "rules", "wager": wager, "call": "heads" })
}

async fn limits_refuse_and_name_the_max_wager(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.fund(player.address(), 5_000).await;
    let round_id = app.commit(&player).await;

    let above = app
        .post("/api/arcade/flip", &flip(&round_id, 1_001))
        .await
        .error(400, "wager_above_limit");
    assert_eq!(above["max_wager"], 510);
    let payout = app
        .post("/api/arcade/flip", &flip(&round_id, 511))
        .await
        .error(400, "payout_above_limit");
    assert_eq!(payout["max_wager"], 510);
    let straight = json!({
        "round_id": round_id, "client_seed": "s", "wager": 15, "bet": "straight", "number": 7,
    });
    let refused = app
        .post("/api/arcade/roulette", &straight)
        .await
        .error(400, "payout_above_limit");
    assert_eq!(refused["max_wager"], 14);
    let dice = json!({ "round_id": round_id, "client_seed": "s", "wager": 6, "target": 1 });
    assert_eq!(
        app.post("/api/arcade/dice", &dice)
            .await
            .error(400, "payout_above_limit")["max_wager"],
        5
    );
    assert_eq!(app.chips(player.address()).await, 5_000);

    // The largest accepted wager plays, on the same round.
    let played = app
        .post("/api/arcade/flip", &flip(&round_id, 510))
        .await
        .ok();
    assert_eq!(played["wager"], 510);
}
on_both_backends!(limits_refuse_and_name_the_max_wager);

async fn an_uncovered_wager_takes_nothing_and_keeps_the_round(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let round_id = app.commit(&player).await;
    let refused = app
        .post("/api/arcade/flip", &flip(&round_id, 101))
        .await
        .error(400, "insufficient_chips");
    assert_eq!(
        (refused["balance"].as_i64(), refused["wager"].as_i64()),
        (Some(100), Some(101))
    );
    assert_eq!(app.chips(player.address()).await, 100);
    app.post("/api/arcade/flip", &flip(&round_id, 100))
        .await
        .ok();

    // An address with no chips at all.
    let broke = PrivateKeySigner::random();
    let round_id = app.commit(&broke).await;
    let refused = app
        .post("/api/arcade/flip", &flip(&round_id, 1))
        .await
        .error(400, "insufficient_chips");
    assert_eq!(refused["balance"], 0);
}
on_both_backends!(an_uncovered_wager_takes_nothing_and_keeps_the_round);

async fn a_round_settles_once(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let round_id = app.commit(&player).await;
    let played = app
        .post("/api/arcade/flip", &flip(&round_id, 10))
        .await
        .ok();
    assert_eq!(played["replayed"], false);
    let chips = app.chips(player.address()).await;
    // The same call again (a client whose answer was lost): the original receipt, not a new round.
    let mut again = flip(&round_id, 10);
    again["signature"] = json!(app.sign_statement(&player).await);
    let replayed = app.post("/api/arcade/flip", &again).await.ok();
    assert_eq!(replayed["replayed"], true);
    for field in ["bet_id", "server_seed", "payout", "result", "settled_at"] {
        assert_eq!(replayed[field], played[field], "{field}");
    }
    assert_eq!(replayed["balance"], chips);
    // Any other call on it is refused, naming the bet that settled it.
    let refused = app
        .post("/api/arcade/flip", &flip(&round_id, 11))
        .await
        .error(409, "round_spent");
    assert_eq!(refused["bet_id"], played["bet_id"]);
    let dice = json!({ "round_id": round_id, "client_seed": "x", "wager": 10, "target": 50 });
    app.post("/api/arcade/dice", &dice)
        .await
        .error(409, "round_spent");
    assert_eq!(app.chips(player.address()).await, chips);
    app.post(
        "/api/arcade/flip",
        &flip("r_00000000000000000000000000000000", 10),
    )
    .await
    .error(404, "round_not_found");
}
on_both_backends!(a_round_settles_once);

async fn roulette_numbers_belong_to_straight_bets(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let round_id = app.commit(&player).await;
    let with_number =
        json!({ "round_id": round_id, "client_seed": "s", "wager": 5, "bet": "red", "number": 5 });
    app.post("/api/arcade/roulette", &with_number)
        .await
        .invalid(&[json!("body"), json!("number")], "value_error");
    let without =
        json!({ "round_id": round_id, "client_seed": "s", "wager": 5, "bet": "straight" });
    app.post("/api/arcade/roulette", &without)
        .await
        .invalid(&[json!("body"), json!("number")], "missing");
    let null_number = json!({ "round_id": round_id, "client_seed": "s", "wager": 5, "bet": "odd", "number": null });
    app.post("/api/arcade/roulette", &null_number).await.ok();
}
on_both_backends!(roulette_numbers_belong_to_straight_bets);

async fn the_daily_cap_counts_potential_profit(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.fund(player.address(), 10_000).await;
    app.set_net_today(player.address(), 1_950).await;
    let round_id = app.commit(&player).await;
    // Coinflip pays 1.98x: a wager of 52 could win 51 (ceil(0.98 * 52)), above the 50 left.
    app.post("/api/arcade/flip", &flip(&round_id, 52))
        .await
        .error(400, "daily_win_cap");
    assert_eq!(app.chips(player.address()).await, 10_000);
    let played = app
        .post("/api/arcade/flip", &flip(&round_id, 51))
        .await
        .ok();
    assert_eq!(played["wager"], 51);
    // Yesterday's winnings do not count today.
    let other = PrivateKeySigner::random();
    app.fund(other.address(), 1_000).await;
    app.set_net_today(other.address(), 1_950).await;
    arcade_server::entities::wallet::Entity::update_many()
        .col_expr(
            arcade_server::entities::wallet::Column::NetDay,
            sea_orm::sea_query::Expr::value(1_i64),
        )
        .exec(&app.arcade.db)
        .await
        .unwrap();
    let round_id = app.commit(&other).await;
    app.post("/api/arcade/flip", &flip(&round_id, 500))
        .await
        .ok();
}
on_both_backends!(the_daily_cap_counts_potential_profit);

async fn free_chips_are_granted_once(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    app.post("/api/arcade/free", &json!({ "address": player.address() }))
        .await
        .error(409, "free_already_claimed");
    assert_eq!(app.chips(player.address()).await, 100);
    // A signature, when given, must be the address's own.
    let other = PrivateKeySigner::random();
    let foreign = app.sign_statement(&player).await;
    app.post(
        "/api/arcade/free",
        &json!({ "address": other.address(), "signature": foreign }),
    )
    .await
    .error(403, "signature_mismatch");
    let own = app.sign_statement(&other).await;
    app.post(
        "/api/arcade/free",
        &json!({ "address": other.address(), "signature": own }),
    )
    .await
    .ok();
}
on_both_backends!(free_chips_are_granted_once);

/// One kind of mistake, one answer in every game and over MCP: a call outside what its game
/// accepts (a dice target, a roulette number, a straight bet without one, a limbo target, as text
/// or as a number) is a 422 `validation_error` at that field, and the round stays open.
async fn a_call_outside_its_game_is_one_422_everywhere(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let round_id = app.commit(&player).await;
    let mcp = crate::mcp_client::McpSession::open(&app.base_url).await;
    let base = json!({ "round_id": round_id, "client_seed": "one", "wager": 1 });
    let with = |extra: serde_json::Value| {
        let mut body = base.clone();
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    for (path, tool, call, field) in [
        ("dice", "arcade_dice", json!({ "target": 0 }), "target"),
        (
            "dice",
            "arcade_dice",
            json!({ "target": 100, "direction": "over" }),
            "target",
        ),
        (
            "roulette",
            "arcade_roulette",
            json!({ "bet": "straight", "number": 37 }),
            "number",
        ),
        (
            "roulette",
            "arcade_roulette",
            json!({ "bet": "straight" }),
            "number",
        ),
        (
            "roulette",
            "arcade_roulette",
            json!({ "bet": "red", "number": 3 }),
            "number",
        ),
        (
            "limbo",
            "arcade_limbo",
            json!({ "target": "1000000.01" }),
            "target",
        ),
        (
            "limbo",
            "arcade_limbo",
            json!({ "target": 2_000_000 }),
            "target",
        ),
        (
            "limbo",
            "arcade_limbo",
            json!({ "target": "1.00" }),
            "target",
        ),
    ] {
        let body = with(call.clone());
        let refused = app.post(&format!("/api/arcade/{path}"), &body).await;
        assert_eq!(refused.status, 422, "{path} {call}: {}", refused.body);
        assert_eq!(refused.body["code"], "validation_error", "{path} {call}");
        let at = refused.body["detail"][0]["loc"].clone();
        assert_eq!(
            at,
            json!(["body", field]),
            "{path} {call}: {}",
            refused.body
        );
        let answered = mcp.call(tool, body).await;
        assert_eq!(
            crate::mcp_client::tool_error(&answered),
            "validation_error",
            "{tool} {call}: {answered}"
        );
    }
    app.post("/api/arcade/flip", &flip(&round_id, 1)).await.ok();
}
on_both_backends!(a_call_outside_its_game_is_one_422_everywhere);
