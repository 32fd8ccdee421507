//! A cashout retried after a lost answer is the same cashout: under the same `Idempotency-Key`
//! (or MCP `idempotency_key`) and the same chips, the original answers and nothing is sent
//! again, however many copies race; other chips under the key are a 409; a key is its
//! address's own. Each ends with the ledger audit and the chain audit (`paid_on_both_backends!`).

use alloy::primitives::U256;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::cashout;
use futures::future::join_all;
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{Value, json};

use crate::cashouts::player_with_chips;
use crate::helpers::Response;
use crate::mcp_client::{McpSession, structured, tool_error};
use crate::paid_on_both_backends;
use crate::paying::PaidApp;

/// `POST /api/arcade/cashout` of `chips` by `player`, under `key` when given.
async fn cash_out_under(
    app: &PaidApp,
    player: &PrivateKeySigner,
    chips: i64,
    key: Option<&str>,
    extra: Value,
) -> Response {
    let signature = app.sign_statement(player).await;
    let mut body = json!({ "address": player.address(), "chips": chips, "signature": signature });
    if let (Value::Object(body), Value::Object(extra)) = (&mut body, extra) {
        body.extend(extra);
    }
    let mut request = app
        .client
        .post(format!("{}/api/arcade/cashout", app.base_url))
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some(key) = key {
        request = request.header("idempotency-key", key);
    }
    Response::read(request.send().await.unwrap()).await
}

async fn cashouts(app: &PaidApp) -> u64 {
    cashout::Entity::find().count(&app.arcade.db).await.unwrap()
}

async fn a_retry_under_the_same_key_is_the_same_cashout(app: &PaidApp) {
    let player = player_with_chips(app).await;
    let key = "8e03978e-40d5-43e8-bc93-6894a57f9324";
    let first = cash_out_under(app, &player, 400, Some(key), json!({}))
        .await
        .ok();
    assert_eq!(first["status"], "confirmed", "{first}");

    // The answer was lost: the same request again, by header, by body field, in the draft's
    // quoted form, and with the header and the field both.
    let quoted = format!("\"{key}\"");
    let retries = [
        cash_out_under(app, &player, 400, Some(key), json!({})).await,
        cash_out_under(app, &player, 400, None, json!({ "idempotency_key": key })).await,
        cash_out_under(app, &player, 400, Some(&quoted), json!({})).await,
        cash_out_under(
            app,
            &player,
            400,
            Some(key),
            json!({ "idempotency_key": key }),
        )
        .await,
    ];
    for retry in retries {
        let retry = retry.ok();
        assert_eq!(retry["cashout_id"], first["cashout_id"], "{retry}");
        assert_eq!(retry["tx_hash"], first["tx_hash"], "{retry}");
        assert_eq!(retry["status"], "confirmed");
        assert_eq!(retry["balance"], 600);
    }
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(40_000u64)
    );

    // Other chips under the key: a conflict naming the original; nothing debited.
    let conflict = cash_out_under(app, &player, 300, Some(key), json!({})).await;
    let body = conflict.error(409, "idempotency_key_conflict");
    assert!(
        body["detail"].as_str().unwrap().contains("400 chips"),
        "{body}"
    );
    // Malformed keys, and a header and a field that differ: 400, nothing debited.
    for (header, field) in [
        (Some("a key with spaces"), None),
        (Some(&"k".repeat(256)[..]), None),
        (None, Some("é")),
        (Some(key), Some("another-key")),
    ] {
        let extra = field.map_or(json!({}), |field| json!({ "idempotency_key": field }));
        let refused = cash_out_under(app, &player, 100, header, extra).await;
        assert_eq!(
            refused.status, 400,
            "{header:?} {field:?}: {}",
            refused.body
        );
        assert!(
            ["idempotency_key_invalid", "validation_error"]
                .contains(&refused.body["code"].as_str().unwrap_or_default()),
            "{}",
            refused.body
        );
    }
    assert_eq!(app.chips(player.address()).await, 600);

    // A key is its address's own: another player's cashout under it is its own.
    let other = player_with_chips(app).await;
    let theirs = cash_out_under(app, &other, 300, Some(key), json!({}))
        .await
        .ok();
    assert_ne!(theirs["cashout_id"], first["cashout_id"]);
    assert_eq!(theirs["status"], "confirmed");
    // A new key is a new cashout.
    let next = cash_out_under(app, &player, 300, Some("second-cashout"), json!({}))
        .await
        .ok();
    assert_ne!(next["cashout_id"], first["cashout_id"]);
    assert_eq!(app.chips(player.address()).await, 300);
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(70_000u64)
    );
    assert_eq!(cashouts(app).await, 3);
}
paid_on_both_backends!(a_retry_under_the_same_key_is_the_same_cashout);

/// Eight copies of one cashout at once (on PostgreSQL four to each of two instances), for more than half the
/// balance (so a copy that reads the balance after the first debit cannot pay again): one
/// cashout, one transfer, and every copy answers it.
async fn eight_copies_at_once_are_one_cashout(app: &PaidApp) {
    let player = player_with_chips(app).await;
    // On PostgreSQL, half the copies to a second instance on the same database and chain
    // (each names itself in the statement, so each copy is signed for the instance it goes
    // to). One SQLite file serves one instance.
    let other = match app.database_url.starts_with("postgres") {
        true => Some(app.another_instance().await),
        false => None,
    };
    let mut bodies = Vec::new();
    for server in [Some(&app.app), other.as_ref()].into_iter().flatten() {
        let signature = server.sign_statement(&player).await;
        let body = json!({ "address": player.address(), "chips": 600, "signature": signature });
        bodies.push((server.base_url.clone(), body));
    }
    let bodies = &bodies;
    let send = |n: usize| async move {
        let (base_url, body) = &bodies[n % bodies.len()];
        let answer = app
            .client
            .post(format!("{base_url}/api/arcade/cashout"))
            .header("content-type", "application/json")
            .header("idempotency-key", "one-cashout-eight-copies")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        Response::read(answer).await
    };
    let answers = join_all((0..8).map(send)).await;
    let ids: Vec<Value> = answers
        .into_iter()
        .map(|answer| answer.ok()["cashout_id"].clone())
        .collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
    assert_eq!(cashouts(app).await, 1);
    assert_eq!(app.chips(player.address()).await, 400);
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(60_000u64)
    );
}
paid_on_both_backends!(eight_copies_at_once_are_one_cashout);

/// Over MCP the key is the `idempotency_key` argument, with the same answers.
async fn over_mcp_the_argument_is_the_key(app: &PaidApp) {
    let player = player_with_chips(app).await;
    let signature = app.sign_statement(&player).await;
    let session = McpSession::open(&app.base_url).await;
    let call = |chips: i64| {
        session.call(
            "arcade_cashout",
            json!({ "address": player.address(), "chips": chips, "signature": signature,
                    "idempotency_key": "mcp-cashout-1" }),
        )
    };
    let first = call(500).await;
    let first = structured(&first).clone();
    let again = call(500).await;
    assert_eq!(structured(&again)["cashout_id"], first["cashout_id"]);
    assert_eq!(tool_error(&call(200).await), "idempotency_key_conflict");
    assert_eq!(app.chips(player.address()).await, 500);
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(50_000u64)
    );
    assert_eq!(cashouts(app).await, 1);
}
paid_on_both_backends!(over_mcp_the_argument_is_the_key);
