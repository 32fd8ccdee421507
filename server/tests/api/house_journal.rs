//! The house journal tells senders apart. Only one transaction per (sender, nonce) can ever be
//! mined: a mined transaction of another key with the same nonce proves nothing about the
//! house's own. The operator changes the house key on the same database; the new key's pending
//! cashout shares its nonce with a mined cashout of the old key; the reconciler waits for the
//! chain instead of refunding a transfer that then lands (which would pay the player twice).

use std::time::Duration;

use alloy::primitives::U256;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::cashout;
use arcade_server::settings::Secret;
use sea_orm::EntityTrait;
use serde_json::{Value, json};

use crate::cashouts::player_with_chips;
use crate::helpers::{Backend, TestApp};
use crate::paying::{PaidApp, chain_settings, mint_to};

async fn nonce_of(app: &PaidApp, answer: &Value) -> i64 {
    let id = answer["cashout_id"].as_i64().unwrap();
    cashout::Entity::find_by_id(id)
        .one(&app.arcade.db)
        .await
        .unwrap()
        .unwrap()
        .tx_nonce
        .expect("signed")
}

/// The same database and chain with another house key, funded with tokens and gas.
async fn with_new_house_key(app: &PaidApp, key: &PrivateKeySigner) -> TestApp {
    app.give_eth(key.address()).await;
    mint_to(app, key.address(), 1_000_000).await;
    let chain = chain_settings(&app.devnet, &app.proxy.url());
    let house_key = alloy::hex::encode_prefixed(key.to_bytes());
    TestApp::spawn_on(&app.database_url, move |settings| {
        chain(settings);
        settings.chain.house_key = Some(Secret::new(house_key));
        settings.chain.settle_timeout_ms = 500;
    })
    .await
}

async fn cash_out_on(app: &TestApp, player: &PrivateKeySigner, chips: i64) -> Value {
    let signature = app.sign_statement(player).await;
    app.post(
        "/api/arcade/cashout",
        &json!({ "address": player.address(), "chips": chips, "signature": signature }),
    )
    .await
    .ok()
}

async fn another_senders_nonce_proves_nothing(backend: Backend) {
    let app = PaidApp::spawn(backend).await;
    let player = player_with_chips(&app).await;
    let old_key_cashout = app.cash_out(&player, 200).await.ok();
    assert_eq!(old_key_cashout["status"], "confirmed", "{old_key_cashout}");
    let taken = nonce_of(&app, &old_key_cashout).await;

    // The new key reaches the nonce the old one used; its transfer waits in the pool.
    let new_key = PrivateKeySigner::random();
    let renewed = with_new_house_key(&app, &new_key).await;
    app.anvil("anvil_setNonce", json!([new_key.address(), taken]))
        .await;
    app.automine(false).await;
    let pending = cash_out_on(&renewed, &player, 300).await;
    assert_eq!(pending["status"], "sent", "{pending}");
    assert_eq!(nonce_of(&app, &pending).await, taken, "the same nonce");

    let pass = renewed
        .arcade
        .reconcile
        .cashouts(Duration::ZERO)
        .await
        .unwrap();
    assert_eq!(
        pass.refunded, 0,
        "refunded on another sender's nonce: {pass:?}"
    );
    assert_eq!(app.chips(player.address()).await, 500);

    app.mine().await;
    let pass = renewed
        .arcade
        .reconcile
        .cashouts(Duration::ZERO)
        .await
        .unwrap();
    assert_eq!((pass.confirmed, pass.refunded), (1, 0), "{pass:?}");
    app.automine(true).await;
    assert_eq!(app.chips(player.address()).await, 500);
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(50_000u64),
        "paid once for each cashout"
    );
    app.audit().await;
}

mod another_senders_nonce_proves_nothing {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::another_senders_nonce_proves_nothing(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::another_senders_nonce_proves_nothing(crate::helpers::Backend::Postgres).await;
    }
}
