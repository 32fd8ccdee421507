//! The player's `Play` signature (docs/proofs.md, "Play"): signed over the commitment of the
//! commit answer and exactly the call, it is checked before anything settles, stored with the
//! bet, and shown in `proofs.play` wherever the receipt is. One that is not the owner's
//! signature of exactly this play is refused over REST and MCP, and nothing changes. The typed
//! data here is written from the spec, not from the server's code.

use alloy::dyn_abi::TypedData;
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use serde_json::{Value, json};

use crate::helpers::{TestApp, recover};
use crate::mcp_client::{McpSession, structured, tool_error};
use crate::on_both_backends;

/// A committed round, as the commit answer shows it.
struct Opened {
    round_id: String,
    commitment: String,
}

async fn open(app: &TestApp, player: &PrivateKeySigner) -> Opened {
    let signature = app.sign_statement(player).await;
    let committed = app
        .post(
            "/api/arcade/commit",
            &json!({ "address": player.address(), "signature": signature }),
        )
        .await
        .ok();
    Opened {
        round_id: committed["round_id"].as_str().unwrap().to_owned(),
        commitment: committed["commitment"].as_str().unwrap().to_owned(),
    }
}

/// The `Play` typed data of docs/proofs.md for a game call `body` (the body's own fields).
fn play_typed(domain: &Value, player: &PrivateKeySigner, commitment: &str, body: &Value) -> Value {
    let (game, call, target, number) = if let Some(call) = body.get("call") {
        ("coinflip", call.clone(), json!(0), Value::Null)
    } else if let Some(target) = body.get("target") {
        let direction = body.get("direction").cloned().unwrap_or(json!("under"));
        ("dice", direction, target.clone(), Value::Null)
    } else {
        let number = body.get("number").cloned().unwrap_or(Value::Null);
        ("roulette", body["bet"].clone(), json!(0), number)
    };
    let field = |name: &str, kind: &str| json!({ "name": name, "type": kind });
    json!({
        "domain": domain,
        "primaryType": "Play",
        "types": {
            "EIP712Domain": [
                field("name", "string"), field("version", "string"), field("chainId", "uint256"),
            ],
            "Play": [
                field("round_id", "string"), field("player", "address"),
                field("commitment", "bytes32"), field("game", "string"),
                field("client_seed", "string"), field("call", "string"),
                field("target", "uint256"), field("has_number", "bool"),
                field("number", "uint256"), field("wager", "uint256"),
            ],
        },
        "message": {
            "round_id": body["round_id"],
            "player": player.address().to_checksum(None),
            "commitment": format!("0x{commitment}"),
            "game": game,
            "client_seed": body["client_seed"],
            "call": call,
            "target": target,
            "has_number": !number.is_null(),
            "number": if number.is_null() { json!(0) } else { number },
            "wager": body["wager"],
        },
    })
}

fn sign_typed(signer: &PrivateKeySigner, typed: &Value) -> String {
    let typed: TypedData = serde_json::from_value(typed.clone()).unwrap();
    let signature = signer
        .sign_hash_sync(&typed.eip712_signing_hash().unwrap())
        .unwrap();
    format!("0x{}", alloy::hex::encode(signature.as_bytes()))
}

async fn domain(app: &TestApp) -> Value {
    app.get("/api/arcade/manifest").await.ok()["signing_domain"].clone()
}

/// The path of a game call body.
fn path(body: &Value) -> &'static str {
    if body.get("call").is_some() {
        "/api/arcade/flip"
    } else if body.get("target").is_some() {
        "/api/arcade/dice"
    } else {
        "/api/arcade/roulette"
    }
}

async fn a_signed_play_is_kept_and_shown_as_the_players(app: &TestApp) {
    let domain = domain(app).await;
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let calls = [
        json!({ "call": "tails" }),
        json!({ "target": 63 }),
        json!({ "target": 20, "direction": "over" }),
        json!({ "bet": "straight", "number": 0 }),
        json!({ "bet": "dozen2" }),
    ];
    for (n, call) in calls.into_iter().enumerate() {
        let opened = open(app, &player).await;
        let mut body =
            json!({ "round_id": opened.round_id, "client_seed": format!("seed {n}"), "wager": 2 });
        body.as_object_mut()
            .unwrap()
            .extend(call.as_object().unwrap().clone());
        let typed = play_typed(&domain, &player, &opened.commitment, &body);
        let signature = sign_typed(&player, &typed);
        body["play_signature"] = json!(signature);
        let played = app.post(path(&body), &body).await.ok();
        let shown = &played["proofs"]["play"];
        assert_eq!(shown["signature"], json!(signature), "{played}");
        assert_eq!(
            shown["typed_data"], typed,
            "the receipt shows what was signed"
        );
        assert_eq!(recover(shown), player.address());
        let bet_id = played["bet_id"].as_i64().unwrap();
        let verified = app.get(&format!("/api/arcade/verify/{bet_id}")).await.ok();
        assert_eq!(verified["proofs"]["play"], *shown, "by bet id");
        assert_eq!(
            verified["verdict"], "pass",
            "signed by its player: {verified}"
        );
        let round = app
            .get(&format!("/api/arcade/rounds/{}", opened.round_id))
            .await
            .ok();
        assert_eq!(round["receipt"]["proofs"]["play"], *shown, "by round");
        let feed = app
            .get(&format!("/api/arcade/receipts?after={}", bet_id - 1))
            .await
            .ok();
        assert_eq!(feed["receipts"][0]["proofs"]["play"], *shown, "in the feed");
    }
}
on_both_backends!(a_signed_play_is_kept_and_shown_as_the_players);

async fn a_play_without_a_play_signature_shows_none_and_a_repeat_keeps_the_stored_one(
    app: &TestApp,
) {
    let domain = domain(app).await;
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let opened = open(app, &player).await;
    let body =
        json!({ "round_id": opened.round_id, "client_seed": "plain", "wager": 1, "call": "heads" });
    let played = app.post("/api/arcade/flip", &body).await.ok();
    assert_eq!(played["proofs"]["play"], Value::Null, "{played}");

    let opened = open(app, &player).await;
    let mut body =
        json!({ "round_id": opened.round_id, "client_seed": "kept", "wager": 1, "call": "heads" });
    let signature = sign_typed(
        &player,
        &play_typed(&domain, &player, &opened.commitment, &body),
    );
    body["play_signature"] = json!(signature);
    let first = app.post("/api/arcade/flip", &body).await.ok();
    body.as_object_mut().unwrap().remove("play_signature");
    let repeat = app.post("/api/arcade/flip", &body).await.ok();
    assert_eq!(repeat["replayed"], true);
    assert_eq!(repeat["proofs"]["play"], first["proofs"]["play"]);
    assert_eq!(repeat["proofs"]["play"]["signature"], json!(signature));
}
on_both_backends!(a_play_without_a_play_signature_shows_none_and_a_repeat_keeps_the_stored_one);

/// Every way a play signature can fail to be the owner's signature of exactly this play.
fn forgeries(
    domain: &Value,
    player: &PrivateKeySigner,
    opened: &Opened,
    other_round: &Opened,
    body: &Value,
) -> Vec<(&'static str, String, u16, &'static str)> {
    let stranger = PrivateKeySigner::random();
    let own = play_typed(domain, player, &opened.commitment, body);
    let changed = |key: &str, value: Value| {
        let mut typed = own.clone();
        typed["message"][key] = value;
        sign_typed(player, &typed)
    };
    let valid = sign_typed(player, &own);
    let mut v37 = alloy::hex::decode(&valid).unwrap();
    v37[64] += 10;
    let mut other_chain = own.clone();
    other_chain["domain"]["chainId"] = json!(1);
    vec![
        (
            "a stranger's",
            sign_typed(&stranger, &own),
            403,
            "play_signature_mismatch",
        ),
        (
            "another commitment",
            changed("commitment", json!(format!("0x{}", other_round.commitment))),
            403,
            "play_signature_mismatch",
        ),
        (
            "another client seed",
            changed("client_seed", json!("other")),
            403,
            "play_signature_mismatch",
        ),
        (
            "another wager",
            changed("wager", json!(1)),
            403,
            "play_signature_mismatch",
        ),
        (
            "another target",
            changed("target", json!(51)),
            403,
            "play_signature_mismatch",
        ),
        (
            "another direction",
            changed("call", json!("over")),
            403,
            "play_signature_mismatch",
        ),
        (
            "another round",
            changed("round_id", json!(other_round.round_id)),
            403,
            "play_signature_mismatch",
        ),
        (
            "another chain",
            sign_typed(player, &other_chain),
            403,
            "play_signature_mismatch",
        ),
        (
            "not 65 bytes",
            "0x1234".to_owned(),
            400,
            "play_signature_invalid",
        ),
        (
            "not hex",
            format!("0x{}", "zz".repeat(65)),
            400,
            "play_signature_invalid",
        ),
        (
            "the owner's, without 0x",
            valid.trim_start_matches("0x").to_owned(),
            400,
            "play_signature_invalid",
        ),
        (
            "the owner's, with v 37",
            alloy::hex::encode_prefixed(&v37),
            400,
            "play_signature_invalid",
        ),
    ]
}

async fn a_play_signature_that_is_not_the_owners_of_this_play_changes_nothing(app: &TestApp) {
    let domain = domain(app).await;
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let opened = open(app, &player).await;
    let other_round = open(app, &player).await;
    let chips = app.chips(player.address()).await;
    let body =
        json!({ "round_id": opened.round_id, "client_seed": "mine", "wager": 4, "target": 50 });
    let mcp = McpSession::open(&app.base_url).await;
    for (case, signature, status, code) in forgeries(&domain, &player, &opened, &other_round, &body)
    {
        let mut forged = body.clone();
        forged["play_signature"] = json!(signature);
        let refused = app
            .post("/api/arcade/dice", &forged)
            .await
            .error(status, code);
        assert!(
            refused["detail"]
                .as_str()
                .unwrap()
                .contains("play_signature"),
            "{case}: {refused}"
        );
        let answer = mcp.call("arcade_dice", forged).await;
        assert_eq!(tool_error(&answer), code, "{case} over MCP");
        let round = app
            .get(&format!("/api/arcade/rounds/{}", opened.round_id))
            .await
            .ok();
        assert_eq!(round["state"], "open", "{case}: the round is still open");
        assert_eq!(
            app.chips(player.address()).await,
            chips,
            "{case}: no chip moved"
        );
    }
    let feed = app.get("/api/arcade/receipts").await.ok();
    assert_eq!(feed["receipts"], json!([]), "no bet was made");

    let mut signed = body.clone();
    signed["play_signature"] = json!(sign_typed(
        &player,
        &play_typed(&domain, &player, &opened.commitment, &body)
    ));
    let played = structured(&mcp.call("arcade_dice", signed).await).clone();
    assert_eq!(
        recover(&played["proofs"]["play"]),
        player.address(),
        "the owner's play plays, over MCP too"
    );
}
on_both_backends!(a_play_signature_that_is_not_the_owners_of_this_play_changes_nothing);

/// A signature in the books that is not whom it must be (a row edited, or a restore under
/// another key) makes `/verify` fail the round, as every verifier does: the verdict checks
/// the proofs it shows, not only that they are there.
async fn verify_fails_a_round_whose_stored_signature_does_not_hold(app: &TestApp) {
    use arcade_server::entities::bet;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, sea_query::Expr};
    let player = PrivateKeySigner::random();
    app.fund(player.address(), 1).await;
    let opened = open(app, &player).await;
    let domain = domain(app).await;
    let mut body = json!({ "round_id": opened.round_id, "client_seed": "stored", "wager": 1, "call": "heads" });
    let typed = play_typed(&domain, &player, &opened.commitment, &body);
    body["play_signature"] = json!(sign_typed(&player, &typed));
    let played = app.post("/api/arcade/flip", &body).await.ok();
    let bet_id = played["bet_id"].as_i64().unwrap();
    let verify = || async { app.get(&format!("/api/arcade/verify/{bet_id}")).await.ok() };
    assert_eq!(verify().await["verdict"], "pass");
    // The house's Receipt signature swapped for the player's signature of the Play.
    bet::Entity::update_many()
        .col_expr(
            bet::Column::ReceiptSignature,
            Expr::value(played["proofs"]["play"]["signature"].as_str().unwrap()),
        )
        .filter(bet::Column::Id.eq(bet_id))
        .exec(&app.arcade.db)
        .await
        .unwrap();
    let verified = verify().await;
    assert_eq!(verified["verdict"], "fail", "{verified}");
    assert_eq!(
        verified["reason"],
        "the Receipt signature is not the house signer's"
    );
}
on_both_backends!(verify_fails_a_round_whose_stored_signature_does_not_hold);
