//! Sign-in-with-x over MCP, on both backends: `arcade_siwx_challenge` answers the address's
//! challenge as the REST route does, and commit, the game tools and rotate take the proof REST
//! reads from the `SIGN-IN-WITH-X` header as the argument `sign_in_with_x`, checked by the same
//! rules with the same codes (tool errors), refusals changing nothing.

use alloy::signers::local::PrivateKeySigner;
use arcade_server::siwx::LIFETIME_MS;
use serde_json::{Value, json};

use crate::helpers::{TestApp, sign};
use crate::mcp_client::{McpSession, structured, tool_error};
use crate::on_both_backends;
use crate::siwx_headers::{challenge, challenge_issued_at, header, now_ms};

/// `arguments` with the proof.
fn with(proof: &str, mut arguments: Value) -> Value {
    arguments["sign_in_with_x"] = json!(proof);
    arguments
}

/// The same refusals as REST, as tool errors.
async fn refused_as_rest_refuses(
    app: &TestApp,
    session: &McpSession,
    player: &PrivateKeySigner,
    proof: &str,
) {
    let stranger = PrivateKeySigner::random();
    let commit = json!({ "address": player.address().to_checksum(None) });
    let foreign = header(&challenge(app, &stranger).await, &stranger);
    let refused = session
        .call("arcade_commit", with(&foreign, commit.clone()))
        .await;
    assert_eq!(tool_error(&refused), "signature_mismatch");
    let refused = session
        .call("arcade_commit", with("not base64!", commit.clone()))
        .await;
    assert_eq!(tool_error(&refused), "signature_invalid");
    let mut wrong_type = commit.clone();
    wrong_type["sign_in_with_x"] = json!(42);
    let refused = session.call("arcade_commit", wrong_type).await;
    assert_eq!(tool_error(&refused), "validation_error");
    let forged = sign(&stranger, "not the statement");
    let mut both = with(proof, commit.clone());
    both["signature"] = json!(forged);
    let refused = session.call("arcade_commit", both).await;
    assert_eq!(tool_error(&refused), "signature_mismatch", "both must hold");
    let refused = session.call("arcade_commit", commit.clone()).await;
    assert_eq!(tool_error(&refused), "signature_required");
}

async fn the_tools_take_the_header_as_sign_in_with_x(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.fund(player.address(), 1_000).await;
    let session = McpSession::open(&app.base_url).await;
    let address = player.address().to_checksum(None);

    let offered = session
        .call("arcade_siwx_challenge", json!({ "address": address }))
        .await;
    let offered = structured(&offered).clone();
    let rest = challenge(app, &player).await;
    assert_eq!(offered["info"]["domain"], rest["info"]["domain"]);
    assert_eq!(offered["info"]["resources"], rest["info"]["resources"]);
    assert_eq!(offered["supportedChains"], rest["supportedChains"]);
    assert!(offered["schema"].is_object(), "{offered}");
    let proof = header(&offered, &player);

    let commit = json!({ "address": address });
    let committed = session
        .call("arcade_commit", with(&proof, commit.clone()))
        .await;
    let round_id = structured(&committed)["round_id"].clone();
    let call = json!({ "round_id": round_id, "client_seed": "mcp", "wager": 10, "call": "heads" });
    let played = session.call("arcade_flip", with(&proof, call)).await;
    let balance = structured(&played)["balance"].clone();
    assert_eq!(balance, app.chips(player.address()).await);

    refused_as_rest_refuses(app, &session, &player, &proof).await;
    assert_eq!(app.chips(player.address()).await, balance);

    let rotated = session
        .call("arcade_rotate", with(&proof, commit.clone()))
        .await;
    assert_eq!(structured(&rotated)["auth_statement"]["generation"], 1);
    let refused = session
        .call("arcade_commit", with(&proof, commit.clone()))
        .await;
    assert_eq!(tool_error(&refused), "signature_revoked");
}
on_both_backends!(the_tools_take_the_header_as_sign_in_with_x);

async fn the_tools_publish_the_argument(app: &TestApp) {
    let session = McpSession::open(&app.base_url).await;
    let listed = session.request("tools/list", json!({})).await;
    let tools = listed["tools"].as_array().unwrap();
    let schema_of = |name: &str| {
        let tool = tools.iter().find(|t| t["name"] == name).expect(name);
        tool["inputSchema"]["properties"].clone()
    };
    for name in [
        "arcade_commit",
        "arcade_flip",
        "arcade_dice",
        "arcade_cashout",
        "arcade_rotate",
    ] {
        let argument = &schema_of(name)["sign_in_with_x"];
        assert_eq!(argument["maxLength"], 8192, "{name}: {argument}");
        let about = argument["description"].as_str().unwrap_or_default();
        assert!(about.contains("SIGN-IN-WITH-X"), "{name}: {about}");
    }
    for name in ["arcade_free", "arcade_balance", "arcade_siwx_challenge"] {
        assert!(schema_of(name).get("sign_in_with_x").is_none(), "{name}");
    }
}
on_both_backends!(the_tools_publish_the_argument);

/// The HTTP `SIGN-IN-WITH-X` header of the MCP request proves nothing (a session may act for
/// many addresses; the proof is the call's own argument), and a lost game answer is fetched
/// again over MCP with its proof once that has expired, as over REST; any other call is not.
async fn over_mcp_the_argument_alone_proves_and_a_lost_answer_comes_back(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.fund(player.address(), 1_000).await;
    let address = player.address().to_checksum(None);
    let fresh = header(&challenge(app, &player).await, &player);
    let headed = McpSession::open_with(&app.base_url, vec![("sign-in-with-x", fresh)]).await;
    let unproven = headed
        .call("arcade_commit", json!({ "address": address }))
        .await;
    assert_eq!(tool_error(&unproven), "signature_required");

    let session = McpSession::open(&app.base_url).await;
    let round_id = json!(app.commit(&player).await);
    let issued = now_ms() - LIFETIME_MS + 3_000;
    let proof = header(&challenge_issued_at(app, player.address(), issued), &player);
    let call = json!({ "round_id": round_id, "client_seed": "lost", "wager": 10, "call": "heads" });
    let first = session
        .call("arcade_flip", with(&proof, call.clone()))
        .await;
    let first = structured(&first).clone();
    let wait = issued + LIFETIME_MS + 200 - now_ms();
    tokio::time::sleep(std::time::Duration::from_millis(
        u64::try_from(wait).unwrap_or(0),
    ))
    .await;
    let chips = app.chips(player.address()).await;
    let again = session
        .call("arcade_flip", with(&proof, call.clone()))
        .await;
    let again = structured(&again).clone();
    assert_eq!(again["replayed"], true, "{again}");
    assert_eq!(again["bet_id"], first["bet_id"]);
    let mut other = call;
    other["call"] = json!("tails");
    let refused = session.call("arcade_flip", with(&proof, other)).await;
    assert_eq!(tool_error(&refused), "signature_revoked");
    assert_eq!(app.chips(player.address()).await, chips, "nothing moved");
}
on_both_backends!(over_mcp_the_argument_alone_proves_and_a_lost_answer_comes_back);
