//! The house's signed marks (docs/proofs.md, "Signed marks"): published in the manifest, the
//! x402 discovery document and the games listing, signed by the signer, made once and the same
//! from every instance and after every restart. Every receipt at or above
//! `house_agent_signed_from` signs `house_agent`, and keeps what it signed whatever the settings
//! say later; receipts signed before the marks still verify with the type they were signed with.

use alloy::dyn_abi::TypedData;
use alloy::primitives::Address;
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::settings::{Secret, Settings};
use futures::future::join_all;
use sea_orm::ConnectionTrait;
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, recover, signer};

/// `Receipt`'s members before `house_agent` was signed.
const RECEIPT_BEFORE: [&str; 21] = [
    "round_id",
    "bet_id",
    "player",
    "game",
    "commitment",
    "server_seed",
    "client_seed",
    "nonce",
    "call",
    "target",
    "has_number",
    "number",
    "wager",
    "outcome",
    "won",
    "payout",
    "balance_change",
    "batch_id",
    "index",
    "fairness_version",
    "settled_at",
];

/// The member names of a signed object's primary type, in order.
fn members(signed: &Value) -> Vec<String> {
    let typed = &signed["typed_data"];
    let primary = typed["primaryType"].as_str().expect("a primary type");
    typed["types"][primary]
        .as_array()
        .expect("a member list")
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_owned())
        .collect()
}

fn with_house_agent() -> Vec<String> {
    let mut list: Vec<String> = RECEIPT_BEFORE.iter().map(|&m| m.to_owned()).collect();
    list.push("house_agent".into());
    list
}

/// The marks every discovery document publishes, checked to be the same in each and signed by
/// the manifest's signer over exactly the numbers shown.
async fn published_marks(app: &TestApp) -> Value {
    let manifest = app.get("/api/arcade/manifest").await.ok();
    let marks = manifest["signed_marks"].clone();
    assert!(
        marks.is_object(),
        "the manifest has signed_marks: {manifest}"
    );
    for path in ["/.well-known/x402", "/api/arcade/games"] {
        assert_eq!(app.get(path).await.ok()["signed_marks"], marks, "{path}");
    }
    let typed = &marks["typed_data"];
    assert_eq!(typed["primaryType"], "SignedMarks");
    assert_eq!(typed["domain"], manifest["signing_domain"]);
    assert_eq!(
        typed["types"]["SignedMarks"],
        json!([
            { "name": "signed_from", "type": "uint256" },
            { "name": "house_agent_signed_from", "type": "uint256" },
        ])
    );
    assert_eq!(
        typed["message"],
        json!({
            "signed_from": marks["signed_from"],
            "house_agent_signed_from": marks["house_agent_signed_from"],
        })
    );
    assert_eq!(recover(&marks), signer(&manifest), "signed by the signer");
    marks
}

/// Plays one coinflip for `player` (funded with a chip first); the receipt.
async fn flip(app: &TestApp, player: &PrivateKeySigner) -> Value {
    app.fund(player.address(), 1).await;
    let round_id = app.commit(player).await;
    app.post(
        "/api/arcade/flip",
        &json!({ "round_id": round_id, "client_seed": "marks", "wager": 1, "call": "heads" }),
    )
    .await
    .ok()
}

/// The receipt `/verify` answers for a bet.
async fn verified(app: &TestApp, bet_id: &Value) -> Value {
    app.get(&format!("/api/arcade/verify/{bet_id}")).await.ok()
}

/// A signed receipt with `house_agent` signed: the last member, the receipt's own value,
/// recovering to the signer, and to someone else once flipped.
fn assert_signs_house_agent(receipt: &Value, signer: Address) {
    let signed = &receipt["proofs"]["receipt"];
    assert_eq!(
        members(signed),
        with_house_agent(),
        "bet {}",
        receipt["bet_id"]
    );
    assert_eq!(
        signed["typed_data"]["types"]["Receipt"][21],
        json!({ "name": "house_agent", "type": "bool" })
    );
    assert_eq!(
        signed["typed_data"]["message"]["house_agent"], receipt["house_agent"],
        "bet {}",
        receipt["bet_id"]
    );
    assert_eq!(recover(signed), signer, "bet {}", receipt["bet_id"]);
    let mut flipped = signed.clone();
    let claimed = flipped["typed_data"]["message"]["house_agent"]
        .as_bool()
        .unwrap();
    flipped["typed_data"]["message"]["house_agent"] = json!(!claimed);
    assert_ne!(recover(&flipped), signer, "house_agent is covered");
}

/// Fresh: both marks are 1 (bet ids start at 1 on both backends). They are the same from a
/// second instance, and after rounds are played (never made again).
async fn the_marks_are_published_signed_and_never_change(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let marks = published_marks(&app).await;
    assert_eq!(
        (&marks["signed_from"], &marks["house_agent_signed_from"]),
        (&json!(1), &json!(1))
    );
    let player = PrivateKeySigner::random();
    let first = flip(&app, &player).await;
    assert_eq!(first["bet_id"], 1, "the first bet id is 1");
    flip(&app, &player).await;
    let second = TestApp::spawn_on(&app.database_url, |_| {}).await;
    assert_eq!(published_marks(&second).await, marks, "a second instance");
    flip(&second, &player).await;
    let restarted = TestApp::spawn_on(&app.database_url, |_| {}).await;
    assert_eq!(published_marks(&restarted).await, marks, "a restart");
    app.audit().await;
}

mod the_marks_are_published_signed_and_never_change {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::the_marks_are_published_signed_and_never_change(crate::helpers::Backend::Sqlite)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::the_marks_are_published_signed_and_never_change(crate::helpers::Backend::Postgres)
            .await;
    }
}

/// A house wallet's receipt and a player's both sign `house_agent` (true and false), the same
/// on `/verify` and the feed. An instance whose settings no longer list the house wallet still
/// shows what was signed: the receipt keeps `house_agent: true`, and it verifies.
async fn receipts_at_or_above_the_mark_sign_house_agent(backend: Backend) {
    let agent = PrivateKeySigner::random();
    let house = agent.address();
    let app = TestApp::spawn_with(backend, |s| s.house.wallets = vec![house]).await;
    let signer = signer(&app.get("/api/arcade/manifest").await.ok());
    let player = PrivateKeySigner::random();
    let by_agent = flip(&app, &agent).await;
    let by_player = flip(&app, &player).await;
    assert_eq!(
        (&by_agent["house_agent"], &by_player["house_agent"]),
        (&json!(true), &json!(false))
    );
    let feed = app.get("/api/arcade/receipts?after=0&limit=10").await.ok();
    for receipt in [&by_agent, &by_player] {
        assert_signs_house_agent(receipt, signer);
        assert_eq!(
            verified(&app, &receipt["bet_id"]).await["proofs"],
            receipt["proofs"]
        );
        let fed = feed["receipts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["bet_id"] == receipt["bet_id"])
            .expect("in the feed");
        assert_eq!(fed["proofs"], receipt["proofs"]);
    }
    let marks = published_marks(&app).await;
    for receipt in [&by_agent, &by_player] {
        assert!(receipt["bet_id"].as_i64() >= marks["house_agent_signed_from"].as_i64());
    }

    let forgot = TestApp::spawn_on(&app.database_url, |s| s.house.wallets.clear()).await;
    let shown = verified(&forgot, &by_agent["bet_id"]).await;
    assert_eq!(
        shown["house_agent"], true,
        "what was signed, not the settings"
    );
    assert_eq!(shown["proofs"], by_agent["proofs"]);
    assert_signs_house_agent(&shown, signer);
    app.audit().await;
}

mod receipts_at_or_above_the_mark_sign_house_agent {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::receipts_at_or_above_the_mark_sign_house_agent(crate::helpers::Backend::Sqlite)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::receipts_at_or_above_the_mark_sign_house_agent(crate::helpers::Backend::Postgres)
            .await;
    }
}

/// Settings that sign with `key`.
fn signing_with(key: &PrivateKeySigner) -> impl Fn(&mut Settings) + Clone {
    let hex = format!("0x{}", alloy::hex::encode(key.to_bytes()));
    move |settings: &mut Settings| settings.signing.key = Some(Secret::new(hex.clone()))
}

async fn execute(app: &TestApp, sql: &str) {
    app.arcade
        .db
        .execute_unprepared(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

/// Re-signs `receipt`'s bet with the `Receipt` type before `house_agent` (by `key`, the signing
/// key), as an instance built before the marks signs every bet.
async fn signed_with_the_type_before(app: &TestApp, key: &PrivateKeySigner, receipt: &Value) {
    let mut typed = receipt["proofs"]["receipt"]["typed_data"].clone();
    typed["types"]["Receipt"].as_array_mut().unwrap().pop();
    typed["message"]
        .as_object_mut()
        .unwrap()
        .remove("house_agent");
    let hash = serde_json::from_value::<TypedData>(typed)
        .unwrap()
        .eip712_signing_hash()
        .unwrap();
    let signature = key.sign_hash_sync(&hash).unwrap();
    let signature = format!("0x{}", alloy::hex::encode(signature.as_bytes()));
    let id = &receipt["bet_id"];
    execute(
        app,
        &format!("UPDATE bets SET receipt_signature = '{signature}' WHERE id = {id}"),
    )
    .await;
}

/// Turns `app`'s database into one from before the marks: no marks kept, no `house_agent`
/// recorded, every receipt signed with the type before it (by `key`, the signing key), and the
/// first bet's round from before signing began (no batch, no signatures).
async fn as_before_the_marks(app: &TestApp, key: &PrivateKeySigner, bets: &[Value]) {
    execute(app, "DELETE FROM signed_marks").await;
    execute(app, "UPDATE bets SET house_agent = NULL").await;
    for receipt in bets {
        signed_with_the_type_before(app, key, receipt).await;
    }
    let first = &bets[0];
    execute(
        app,
        &format!(
            "UPDATE bets SET receipt_signature = NULL WHERE id = {}",
            first["bet_id"]
        ),
    )
    .await;
    execute(
        app,
        &format!(
            // A round from before batches kept its seed; later ones derive it from theirs.
            "UPDATE rounds SET batch_id = NULL, seed_index = NULL, commitment_signature = NULL, \
             server_seed = '{}' WHERE id = '{}'",
            first["server_seed"].as_str().unwrap(),
            first["round_id"].as_str().unwrap()
        ),
    )
    .await;
}

/// A database with history from before the marks: `signed_from` is the first bet from which
/// every bet is signed, `house_agent_signed_from` the next bet id (on PostgreSQL past the ids
/// the sequence handed out, as a batch in flight holds them). Receipts below it verify with the
/// type they were signed with; the next bet signs `house_agent`; a later instance publishes the
/// same marks.
async fn receipts_from_before_the_marks_verify_with_the_type_they_were_signed_with(
    backend: Backend,
) {
    let key = PrivateKeySigner::random();
    let old = TestApp::spawn_with(backend, signing_with(&key)).await;
    let player = PrivateKeySigner::random();
    let mut bets = Vec::new();
    for _ in 0..4 {
        bets.push(flip(&old, &player).await);
    }
    as_before_the_marks(&old, &key, &bets).await;
    let held = if backend == Backend::Postgres {
        // Two ids taken and not yet written: a batch in flight while the marks are made.
        execute(&old, "SELECT nextval(pg_get_serial_sequence('bets', 'id'))").await;
        execute(&old, "SELECT nextval(pg_get_serial_sequence('bets', 'id'))").await;
        2
    } else {
        0
    };

    let app = TestApp::spawn_on(&old.database_url, signing_with(&key)).await;
    let marks = published_marks(&app).await;
    assert_eq!(marks["signed_from"], 2, "bet 1 is unsigned");
    assert_eq!(marks["house_agent_signed_from"], 5 + held);
    assert_eq!(
        signer(&app.get("/api/arcade/manifest").await.ok()),
        key.address()
    );

    let unsigned = verified(&app, &bets[0]["bet_id"]).await;
    assert_eq!(
        unsigned["proofs"],
        json!({ "batch": null, "commitment": null, "receipt": null, "play": null })
    );
    for receipt in &bets[1..] {
        let shown = verified(&app, &receipt["bet_id"]).await;
        let signed = &shown["proofs"]["receipt"];
        assert_eq!(members(signed), RECEIPT_BEFORE, "bet {}", receipt["bet_id"]);
        assert_eq!(signed["typed_data"]["message"].get("house_agent"), None);
        assert_eq!(recover(signed), key.address(), "bet {}", receipt["bet_id"]);
    }
    let next = flip(&app, &player).await;
    assert_eq!(next["bet_id"], marks["house_agent_signed_from"]);
    assert_signs_house_agent(&next, key.address());

    let later = TestApp::spawn_on(&old.database_url, signing_with(&key)).await;
    assert_eq!(published_marks(&later).await, marks, "kept, not made again");
    app.audit().await;
}

mod receipts_from_before_the_marks_verify_with_the_type_they_were_signed_with {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::receipts_from_before_the_marks_verify_with_the_type_they_were_signed_with(
            crate::helpers::Backend::Sqlite,
        )
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::receipts_from_before_the_marks_verify_with_the_type_they_were_signed_with(
            crate::helpers::Backend::Postgres,
        )
        .await;
    }
}

/// Instances started at once on one database with history and no marks: one row is kept, and
/// every instance publishes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn instances_starting_at_once_publish_the_same_marks() {
    let key = PrivateKeySigner::random();
    let old = TestApp::spawn_with(Backend::Postgres, signing_with(&key)).await;
    let player = PrivateKeySigner::random();
    let mut bets = Vec::new();
    for _ in 0..3 {
        bets.push(flip(&old, &player).await);
    }
    as_before_the_marks(&old, &key, &bets).await;
    let started =
        join_all((0..4).map(|_| TestApp::spawn_on(&old.database_url, signing_with(&key)))).await;
    let first = published_marks(&started[0]).await;
    for app in &started[1..] {
        assert_eq!(published_marks(app).await, first);
    }
    assert_eq!(
        (&first["signed_from"], &first["house_agent_signed_from"]),
        (&json!(2), &json!(4))
    );
    old.audit().await;
}

/// A bet at or above `house_agent_signed_from` signed with the type before it (by an instance
/// built before the marks, left running against the upgrade's rule, with `house_agent` not
/// recorded): it is shown with the type its bet id calls for, so its signature does not recover
/// to the signer and every verifier fails it, rather than taking the type the house chose.
async fn a_bet_above_the_mark_signed_with_the_type_before_does_not_verify(backend: Backend) {
    let key = PrivateKeySigner::random();
    let app = TestApp::spawn_with(backend, signing_with(&key)).await;
    let bet = flip(&app, &PrivateKeySigner::random()).await;
    let marks = published_marks(&app).await;
    assert!(bet["bet_id"].as_i64() >= marks["house_agent_signed_from"].as_i64());
    signed_with_the_type_before(&app, &key, &bet).await;
    let id = &bet["bet_id"];
    execute(
        &app,
        &format!("UPDATE bets SET house_agent = NULL WHERE id = {id}"),
    )
    .await;
    let shown = verified(&app, id).await;
    let signed = &shown["proofs"]["receipt"];
    assert_eq!(
        members(signed),
        with_house_agent(),
        "the type its bet id calls for"
    );
    assert_ne!(
        recover(signed),
        key.address(),
        "not the house's word under that type"
    );
    app.audit().await;
}

mod a_bet_above_the_mark_signed_with_the_type_before_does_not_verify {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::a_bet_above_the_mark_signed_with_the_type_before_does_not_verify(
            crate::helpers::Backend::Sqlite,
        )
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::a_bet_above_the_mark_signed_with_the_type_before_does_not_verify(
            crate::helpers::Backend::Postgres,
        )
        .await;
    }
}
