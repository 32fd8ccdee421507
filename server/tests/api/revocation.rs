//! The auth statement is a Sign-In with Ethereum (EIP-4361) message that stays the same until
//! its owner rotates; rotating revokes every older signature, on every instance, and expires the
//! address's open rounds. Over REST and over MCP.

use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::auth_generation;
use arcade_server::entities::round::{self, RoundState};
use futures::future::join_all;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, sign};
use crate::mcp_client::{McpSession, structured, tool_error};
use crate::on_both_backends;

async fn statement(app: &TestApp, player: &PrivateKeySigner) -> Value {
    app.get(&format!("/api/arcade/auth-statement/{}", player.address()))
        .await
        .ok()
}

async fn stored_generations(app: &TestApp) -> u64 {
    auth_generation::Entity::find()
        .count(&app.arcade.db)
        .await
        .unwrap()
}

async fn the_statement_is_a_sign_in_with_ethereum_message(app: &TestApp) {
    let player = PrivateKeySigner::random();
    let answer = statement(app, &player).await;
    assert_eq!(answer["scheme"], "eip191");
    assert_eq!(answer["format"], "eip4361");
    assert_eq!(answer["generation"], 0);
    let text = answer["statement"].as_str().unwrap();
    let lines: Vec<&str> = text.split('\n').collect();
    let authority = app.base_url.trim_start_matches("http://");
    assert_eq!(
        lines[0],
        format!("{authority} wants you to sign in with your Ethereum account:")
    );
    assert_eq!(lines[1], player.address().to_checksum(None));
    assert_eq!(lines[2], "");
    assert!(lines[3].contains("authorizes no payment"), "{}", lines[3]);
    assert_eq!(lines[4], "");
    assert_eq!(lines[5], format!("URI: {}", app.base_url));
    assert_eq!(lines[6], "Version: 1");
    assert_eq!(lines[7], "Chain ID: 84532");
    let nonce = lines[8].strip_prefix("Nonce: ").unwrap();
    assert!(nonce.len() >= 8 && nonce.bytes().all(|b| b.is_ascii_alphanumeric()));
    assert_eq!(lines[9], "Issued At: 2026-01-01T00:00:00.000Z");
    assert_eq!(lines.len(), 10);
    assert_eq!(statement(app, &player).await, answer, "stable");
    let other = statement(app, &PrivateKeySigner::random()).await;
    assert_ne!(
        other["statement"].as_str().unwrap().lines().nth(8),
        Some(lines[8]),
        "each address has its own nonce"
    );
    assert_eq!(stored_generations(app).await, 0, "reading writes nothing");
}
on_both_backends!(the_statement_is_a_sign_in_with_ethereum_message);

async fn rotating_revokes_every_older_signature(app: &TestApp) {
    let player = PrivateKeySigner::random();
    let address = player.address();
    app.claim_free(&player).await;
    let first = app.sign_statement(&player).await;
    let played_round = app.commit(&player).await;
    let play = json!({ "round_id": played_round, "client_seed": "before", "wager": 5,
                       "call": "heads", "signature": first });
    app.post("/api/arcade/flip", &play).await.ok();
    let left_open = app.commit(&player).await;

    let rotated = app
        .post(
            "/api/arcade/auth/rotate",
            &json!({ "address": address, "signature": first }),
        )
        .await
        .ok();
    assert_eq!(rotated["expired_rounds"], 1);
    let next = &rotated["auth_statement"];
    assert_eq!(next["generation"], 1);
    assert_eq!(next["format"], "eip4361");
    assert_eq!(
        &statement(app, &player).await,
        next,
        "the current statement"
    );
    let before = app
        .get(&format!("/api/arcade/rounds/{left_open}"))
        .await
        .ok();
    assert_eq!(before["state"], "expired");

    let chips = app.chips(address).await;
    for (path, body) in [
        (
            "/api/arcade/commit",
            json!({ "address": address, "signature": first }),
        ),
        (
            "/api/arcade/free",
            json!({ "address": address, "signature": first }),
        ),
        (
            "/api/arcade/auth/rotate",
            json!({ "address": address, "signature": first }),
        ),
    ] {
        app.post(path, &body).await.error(401, "signature_revoked");
    }
    let stale_play = json!({ "round_id": left_open, "client_seed": "after", "wager": 5,
                             "call": "heads" });
    app.post("/api/arcade/flip", &stale_play)
        .await
        .error(409, "round_expired");
    assert_eq!(app.chips(address).await, chips, "nothing moved");

    let second = sign(&player, next["statement"].as_str().unwrap());
    let committed = app
        .post(
            "/api/arcade/commit",
            &json!({ "address": address, "signature": second }),
        )
        .await
        .ok();
    let play = json!({ "round_id": committed["round_id"], "client_seed": "after",
                       "wager": 5, "call": "tails", "signature": second });
    app.post("/api/arcade/flip", &play).await.ok();
    // The signature that rotated is of no use to whoever saw it.
    let stranger_round = json!({ "round_id": app.commit(&player).await, "client_seed": "x",
                                 "wager": 5, "call": "tails", "signature": first });
    app.post("/api/arcade/flip", &stranger_round)
        .await
        .error(401, "signature_revoked");
    assert_eq!(stored_generations(app).await, 1);
}
on_both_backends!(rotating_revokes_every_older_signature);

async fn a_rotation_needs_the_current_signature_and_happens_once(app: &TestApp) {
    let player = PrivateKeySigner::random();
    let stranger = PrivateKeySigner::random();
    let address = player.address();
    let text = statement(app, &player).await["statement"]
        .as_str()
        .unwrap()
        .to_owned();
    let rotate = |signature: String| {
        let body = json!({ "address": address, "signature": signature });
        async move { app.post("/api/arcade/auth/rotate", &body).await }
    };
    rotate(sign(&stranger, &text))
        .await
        .error(403, "signature_mismatch");
    // Neither a signature nor a SIGN-IN-WITH-X header: nothing proves the address.
    app.post("/api/arcade/auth/rotate", &json!({ "address": address }))
        .await
        .error(401, "signature_required");
    assert_eq!(stored_generations(app).await, 0);

    let signature = sign(&player, &text);
    let answers = join_all((0..8).map(|_| rotate(signature.clone()))).await;
    let rotated: Vec<_> = answers.iter().filter(|a| a.status == 200).collect();
    assert_eq!(rotated.len(), 1, "one rotation from one signature");
    for refused in answers.iter().filter(|a| a.status != 200) {
        assert_eq!(
            (refused.status, refused.body["code"].as_str()),
            (401, Some("signature_revoked")),
            "{}",
            refused.body
        );
    }
    assert_eq!(stored_generations(app).await, 1);
}
on_both_backends!(a_rotation_needs_the_current_signature_and_happens_once);

/// Two instances of one deployment on one PostgreSQL database (one public URL: one statement).
async fn two_instances() -> (TestApp, TestApp) {
    let public_url = "http://arcade.test";
    let first = TestApp::spawn_with(Backend::Postgres, |s| {
        s.server.public_url = Some(public_url.into());
    })
    .await;
    let second = TestApp::spawn_on(&first.database_url, |s| {
        s.server.public_url = Some(public_url.into());
    })
    .await;
    (first, second)
}

/// A signature verified (and cached) on one instance is refused there once the address rotated
/// through the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rotation_through_one_instance_revokes_on_the_other() {
    let (first, second) = two_instances().await;
    let player = PrivateKeySigner::random();
    let address = player.address();
    let signature = first.sign_statement(&player).await;
    assert_eq!(
        signature,
        second.sign_statement(&player).await,
        "one statement"
    );
    let commit = json!({ "address": address, "signature": signature });
    first.post("/api/arcade/commit", &commit).await.ok();
    second.post("/api/arcade/commit", &commit).await.ok();
    second.post("/api/arcade/auth/rotate", &commit).await.ok();
    first
        .post("/api/arcade/commit", &commit)
        .await
        .error(401, "signature_revoked");
    let renewed = first.sign_statement(&player).await;
    let commit = json!({ "address": address, "signature": renewed });
    first.post("/api/arcade/commit", &commit).await.ok();
    second.post("/api/arcade/commit", &commit).await.ok();
    first.audit().await;
}

/// Commits with the old statement on one instance racing a rotation through the other: each is
/// opened before the rotation (which expires it) or refused, and none is left open under the
/// old statement, whose rounds anyone holding it could otherwise play.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn commits_racing_a_rotation_leave_no_round_open_under_the_old_statement() {
    let (first, second) = two_instances().await;
    let player = PrivateKeySigner::random();
    let key = format!("{:#x}", player.address());
    let signature = first.sign_statement(&player).await;
    let commit = json!({ "address": player.address(), "signature": signature });
    // The first instance now knows the address's generation.
    first.post("/api/arcade/commit", &commit).await.ok();
    let commits = join_all((0..24).map(|_| first.post("/api/arcade/commit", &commit)));
    let rotation = second.post("/api/arcade/auth/rotate", &commit);
    let (answers, rotated) = futures::join!(commits, rotation);
    rotated.ok();
    for answer in answers {
        if answer.status != 200 {
            answer.error(401, "signature_revoked");
        }
    }
    let still_open = round::Entity::find()
        .filter(round::Column::Address.eq(key))
        .filter(round::Column::State.eq(RoundState::Open))
        .filter(round::Column::ExpiredAt.is_null())
        .count(&first.arcade.db)
        .await
        .unwrap();
    assert_eq!(
        still_open, 0,
        "a round opened under the revoked statement is still open"
    );
    first
        .post("/api/arcade/commit", &commit)
        .await
        .error(401, "signature_revoked");
    first.audit().await;
}

/// Wrong signatures on one instance after the address rotated through the other cost what a
/// wrong signature costs (at most `1 + OLDER_CHECKED` recoveries each), not twice that: the
/// instance keeps the generations it read, whether the proof held or not.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rotation_elsewhere_does_not_double_what_a_wrong_signature_costs() {
    let (first, second) = two_instances().await;
    let player = PrivateKeySigner::random();
    let signature = first.sign_statement(&player).await;
    let commit = json!({ "address": player.address(), "signature": signature });
    first.post("/api/arcade/commit", &commit).await.ok();
    second.post("/api/arcade/auth/rotate", &commit).await.ok();
    let statement = statement(&first, &player).await;
    let forged = sign(
        &PrivateKeySigner::random(),
        statement["statement"].as_str().unwrap(),
    );
    let wrong = json!({ "address": player.address(), "signature": forged });
    let identity = first.arcade.auth.identity();
    // The first wrong one finds the generations moved, and checks against both.
    first.post("/api/arcade/commit", &wrong).await;
    for _ in 0..10 {
        let before = identity.recoveries();
        first
            .post("/api/arcade/commit", &wrong)
            .await
            .error(403, "signature_mismatch");
        let spent = identity.recoveries() - before;
        assert!(spent <= 3, "a wrong signature cost {spent} recoveries");
    }
    first.audit().await;
}

async fn the_revocation_flow_over_mcp(app: &TestApp) {
    let player = PrivateKeySigner::random();
    let address = player.address();
    let mcp = McpSession::open(&app.base_url).await;
    structured(&mcp.call("arcade_free", json!({ "address": address })).await);
    let balance = mcp
        .call("arcade_balance", json!({ "address": address }))
        .await;
    let balance = structured(&balance);
    assert_eq!(balance["auth_generation"], 0);
    let first = sign(&player, balance["auth_statement"].as_str().unwrap());
    let committed = mcp
        .call(
            "arcade_commit",
            json!({ "address": address, "signature": first }),
        )
        .await;
    let round_id = structured(&committed)["round_id"].clone();
    let played = mcp
        .call(
            "arcade_flip",
            json!({ "round_id": round_id, "client_seed": "mcp", "wager": 5, "call": "heads",
                    "signature": first }),
        )
        .await;
    structured(&played);

    let rotated = mcp
        .call(
            "arcade_rotate",
            json!({ "address": address, "signature": first }),
        )
        .await;
    let next = structured(&rotated)["auth_statement"].clone();
    assert_eq!(next["generation"], 1);
    let refused = mcp
        .call(
            "arcade_commit",
            json!({ "address": address, "signature": first }),
        )
        .await;
    assert_eq!(tool_error(&refused), "signature_revoked");
    let second = sign(&player, next["statement"].as_str().unwrap());
    let committed = mcp
        .call(
            "arcade_commit",
            json!({ "address": address, "signature": second }),
        )
        .await;
    structured(&committed);
    let balance = mcp
        .call("arcade_balance", json!({ "address": address }))
        .await;
    assert_eq!(structured(&balance)["auth_generation"], 1);
}
on_both_backends!(the_revocation_flow_over_mcp);

/// The statement names the URL clients reach: listening beyond loopback without saying what that
/// URL is would sign statements for a name nobody uses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_listener_needs_a_public_url() {
    let database = std::env::temp_dir().join(format!("arcade-public-{}.db", std::process::id()));
    let mut settings = arcade_server::settings::Settings::default();
    settings.server.host = "0.0.0.0".into();
    settings.server.port = 0;
    settings.database.url =
        arcade_server::settings::Secret::new(format!("sqlite://{}?mode=rwc", database.display()));
    let refused = arcade_server::startup::Application::build(settings.clone()).await;
    let error = refused.err().expect("refused").to_string();
    assert!(error.contains("server.public_url is required"), "{error}");
    settings.server.public_url = Some("https://arcade.example".into());
    assert!(
        arcade_server::startup::Application::build(settings)
            .await
            .is_ok()
    );
    let _ = std::fs::remove_file(database);
}
