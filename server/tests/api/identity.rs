use alloy::signers::local::PrivateKeySigner;
use serde_json::json;

use crate::helpers::{TestApp, sign};
use crate::on_both_backends;

async fn the_statement_is_stable_and_names_the_deployment(app: &TestApp) {
    let player = PrivateKeySigner::random();
    let lower = format!("{:#x}", player.address());
    let first = app
        .get(&format!("/api/arcade/auth-statement/{lower}"))
        .await
        .ok();
    let again = app
        .get(&format!(
            "/api/arcade/auth-statement/{}",
            lower.to_uppercase().replace("0X", "0x")
        ))
        .await
        .ok();
    assert_eq!(first, again, "the same statement in any letter case");
    assert_eq!(first["address"], player.address().to_checksum(None));
    assert_eq!(first["scheme"], "eip191");
    let statement = first["statement"].as_str().unwrap();
    assert!(statement.contains(&player.address().to_checksum(None)));
    assert!(statement.contains("Chain ID: 84532"));
    assert!(statement.contains(app.base_url.trim_start_matches("http://")));
}
on_both_backends!(the_statement_is_stable_and_names_the_deployment);

async fn commit_requires_the_address_owners_signature(app: &TestApp) {
    let player = PrivateKeySigner::random();
    let stranger = PrivateKeySigner::random();
    let address = player.address();
    app.post("/api/arcade/commit", &json!({ "address": address }))
        .await
        .error(401, "signature_required");
    app.post(
        "/api/arcade/commit",
        &json!({ "address": address, "signature": "0x1234" }),
    )
    .await
    .error(401, "signature_invalid");
    // The stranger signs the player's statement: it recovers to the stranger.
    let statement = app
        .get(&format!("/api/arcade/auth-statement/{address}"))
        .await
        .ok();
    let forged = sign(&stranger, statement["statement"].as_str().unwrap());
    app.post(
        "/api/arcade/commit",
        &json!({ "address": address, "signature": forged }),
    )
    .await
    .error(403, "signature_mismatch");
    // The player's own signature of some other text is refused the same way.
    let other_text = sign(&player, "something else");
    app.post(
        "/api/arcade/commit",
        &json!({ "address": address, "signature": other_text }),
    )
    .await
    .error(403, "signature_mismatch");

    let signature = app.sign_statement(&player).await;
    let committed = app
        .post(
            "/api/arcade/commit",
            &json!({ "address": address, "signature": signature }),
        )
        .await
        .ok();
    assert_eq!(committed["address"], address.to_checksum(None));
    assert_eq!(committed["fairness_version"], 1);
    assert_eq!(committed["commitment"].as_str().unwrap().len(), 64);
    assert!(committed["round_id"].as_str().unwrap().starts_with("r_"));
    assert!(committed["created_at"].as_str().unwrap().ends_with('Z'));
    assert!(
        committed.get("server_seed").is_none(),
        "the seed stays secret"
    );
    // A second commit with the same (cached) signature opens a different round.
    let again = app
        .post(
            "/api/arcade/commit",
            &json!({ "address": address, "signature": signature }),
        )
        .await
        .ok();
    assert_ne!(again["round_id"], committed["round_id"]);
    assert_ne!(again["commitment"], committed["commitment"]);
}
on_both_backends!(commit_requires_the_address_owners_signature);

async fn a_round_is_played_only_by_its_owner(app: &TestApp) {
    let owner = PrivateKeySigner::random();
    let stranger = PrivateKeySigner::random();
    app.claim_free(&owner).await;
    app.claim_free(&stranger).await;
    let round_id = app.commit(&owner).await;
    let stranger_signature = app.sign_statement(&stranger).await;
    let play = json!({
        "round_id": round_id, "client_seed": "mine now", "wager": 5, "call": "heads",
        "signature": stranger_signature,
    });
    app.post("/api/arcade/flip", &play)
        .await
        .error(403, "round_not_yours");
    assert_eq!(app.chips(owner.address()).await, 100);
    assert_eq!(app.chips(stranger.address()).await, 100);
    let owner_signature = app.sign_statement(&owner).await;
    let play = json!({
        "round_id": round_id, "client_seed": "mine", "wager": 5, "call": "heads",
        "signature": owner_signature,
    });
    let played = app.post("/api/arcade/flip", &play).await.ok();
    assert_eq!(played["address"], owner.address().to_checksum(None));
}
on_both_backends!(a_round_is_played_only_by_its_owner);
