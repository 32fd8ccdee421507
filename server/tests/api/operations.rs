//! What operators rely on: `/healthz`, `/readyz` naming the failing part (the database, the
//! chain, the house's balances against their floors), `/metrics` only where the settings put
//! it, a request id on every answer, and a token whose EIP-712 domain is not the one the
//! settings pin refusing to start.

use std::time::Duration;

use arcade_server::chain::devnet::{Devnet, deploy_test_dollar};
use arcade_server::settings::Settings;
use arcade_server::startup::Application;
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp};
use crate::paying::{PaidApp, anvil_bin};

async fn raw_get(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut request = app.client.get(format!("{}{path}", app.base_url));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.expect("request sent")
}

#[tokio::test]
async fn health_and_readiness_without_a_chain() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    assert_eq!(app.get("/healthz").await.ok(), json!({ "status": "ok" }));
    let ready = app.get("/readyz").await.ok();
    assert_eq!(ready["ready"], true);
    assert_eq!(ready["checks"]["database"], "ok");
    assert_eq!(ready["checks"]["chain"], "off", "payments are off: {ready}");
}

#[tokio::test]
async fn every_answer_carries_a_request_id() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let fresh = raw_get(&app, "/api/arcade/games", &[]).await;
    let id = fresh.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_eq!(id.len(), 24, "a fresh id: {id}");
    let again = raw_get(&app, "/api/arcade/games", &[]).await;
    assert_ne!(again.headers()["x-request-id"].to_str().unwrap(), id);
    // The caller's own id is kept, on errors too.
    let missing = raw_get(&app, "/no/such/route", &[("x-request-id", "trace-7")]).await;
    assert_eq!(missing.status(), 404);
    assert_eq!(missing.headers()["x-request-id"], "trace-7");
    let unsafe_id = raw_get(&app, "/healthz", &[("x-request-id", "a b")]).await;
    assert_ne!(unsafe_id.headers()["x-request-id"], "a b");
}

#[tokio::test]
async fn metrics_answer_loopback_clients_and_no_one_a_proxy_forwards() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.get("/api/arcade/games").await.ok();
    let scraped = raw_get(&app, "/metrics", &[]).await;
    assert_eq!(scraped.status(), 200);
    assert!(
        scraped.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    let text = scraped.text().await.unwrap();
    assert!(
        text.contains(r#"route="/api/arcade/games""#),
        "requests are counted by route template: {text}"
    );
    let forwarded = raw_get(&app, "/metrics", &[("x-forwarded-for", "203.0.113.9")]).await;
    assert_eq!(forwarded.status(), 404);
}

/// Behind a reverse proxy that forwards no header of its own (a plain `proxy_pass`), every
/// request reaches the main port from loopback, naming a loopback host: a service whose public
/// URL is not loopback serves no `/metrics` there (`metrics.listen` does).
#[tokio::test]
async fn a_service_reached_by_a_public_name_serves_no_metrics_on_its_main_port() {
    let public = TestApp::spawn_with(Backend::Sqlite, |s| {
        s.server.public_url = Some("https://arcade.example".into());
    })
    .await;
    let scraped = raw_get(&public, "/metrics", &[("host", "127.0.0.1")]).await;
    assert_eq!(scraped.status(), 404);
    assert_eq!(raw_get(&public, "/healthz", &[]).await.status(), 200);
}

#[tokio::test]
async fn metrics_can_be_off_or_on_their_own_listener() {
    let off = TestApp::spawn_with(Backend::Sqlite, |s| s.metrics.enabled = false).await;
    assert_eq!(raw_get(&off, "/metrics", &[]).await.status(), 404);

    let port = free_port();
    let apart = TestApp::spawn_with(Backend::Sqlite, |s| {
        s.metrics.listen = Some(format!("127.0.0.1:{port}"));
    })
    .await;
    assert_eq!(raw_get(&apart, "/metrics", &[]).await.status(), 404);
    let own = reqwest::get(format!("http://127.0.0.1:{port}/metrics"))
        .await
        .unwrap();
    assert_eq!(own.status(), 200);
    assert!(own.text().await.unwrap().contains("arcade_"));
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `/readyz` until it answers `ready` as expected (the treasury watch reads every 200 ms).
async fn readiness_becomes(app: &PaidApp, ready: bool) -> Value {
    for _ in 0..100 {
        let reply = app.get("/readyz").await;
        if (reply.status == 200) == ready {
            return reply.body;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "/readyz never became ready={ready}: {}",
        app.get("/readyz").await.body
    );
}

async fn readiness_follows_the_house_and_the_chain(app: &PaidApp) {
    let ready = readiness_becomes(app, true).await;
    assert_eq!(ready["checks"]["house_gas"], "ok", "{ready}");
    // The house's gas falls under its floor (0.001 ETH by default).
    app.anvil("anvil_setBalance", json!([app.house(), "0x100"]))
        .await;
    let low = readiness_becomes(app, false).await;
    assert_eq!(low["code"], "not_ready");
    assert_eq!(low["ready"], false);
    assert!(
        low["checks"]["house_gas"]
            .as_str()
            .unwrap()
            .contains("under its floor"),
        "{low}"
    );
    assert_eq!(low["checks"]["house_token"], "ok");
    assert!(
        low["detail"].as_str().unwrap().contains("house_gas"),
        "{low}"
    );
    // Funded again: ready.
    app.anvil(
        "anvil_setBalance",
        json!([app.house(), "0x56BC75E2D63100000"]),
    )
    .await;
    readiness_becomes(app, true).await;
    // The RPC goes away: the chain is named.
    app.proxy.set_up(false);
    let down = readiness_becomes(app, false).await;
    app.proxy.set_up(true);
    assert!(
        down["checks"]["chain"]
            .as_str()
            .unwrap()
            .contains("reading the house's balances"),
        "{down}"
    );
    readiness_becomes(app, true).await;
}

mod readiness {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        let app = PaidApp::spawn_with(Backend::Sqlite, |s| s.treasury.check_every_ms = 200).await;
        readiness_follows_the_house_and_the_chain(&app).await;
        app.audit().await;
    }
}

/// The doctor's list of well-known keys is anvil's own: a public chain never runs on them.
#[tokio::test]
async fn the_doctor_knows_every_anvil_test_key() {
    let devnet = Devnet::start(&anvil_bin(), 0).await.unwrap();
    let keys = devnet.anvil.keys();
    assert_eq!(keys.len(), 10);
    for key in keys {
        let address = alloy::signers::local::PrivateKeySigner::from(key.clone()).address();
        assert!(
            arcade_server::doctor::WELL_KNOWN_TEST_ADDRESSES.contains(&address),
            "{address}"
        );
    }
}

/// The settings pin the token's EIP-712 domain; a token answering another refuses the start.
#[tokio::test]
async fn a_token_under_another_domain_refuses_the_start() {
    let devnet = Devnet::start(&anvil_bin(), 0).await.unwrap();
    let usd_coin = deploy_test_dollar(&devnet.rpc_url(), &devnet.house, "USD Coin", "2")
        .await
        .unwrap();
    let mut settings = Settings::default();
    settings.server.port = 0;
    settings.database.url = arcade_server::settings::Secret::new(format!(
        "sqlite://{}/arcade-domain-{}.db?mode=rwc",
        std::env::temp_dir().display(),
        std::process::id()
    ));
    settings.chain.chain_id = arcade_server::chain::devnet::CHAIN_ID;
    settings.chain.rpc_urls = vec![arcade_server::settings::Secret::new(devnet.rpc_url())];
    settings.chain.house_key = Some(arcade_server::settings::Secret::new(
        alloy::hex::encode_prefixed(devnet.house.to_bytes()),
    ));
    settings.chain.token = Some(usd_coin);
    settings.chain.token_name = Some("USDC".into());
    settings.chain.token_version = Some("2".into());
    let refused = Application::build(settings.clone()).await.err().unwrap();
    assert!(
        refused
            .to_string()
            .contains(r#"answers EIP-712 name "USD Coin""#),
        "{refused}"
    );
    settings.chain.token_name = Some("USD Coin".into());
    assert!(Application::build(settings).await.is_ok());
}
