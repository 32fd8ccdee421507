//! No secret leaves in an answer. The RPC URL carries an API key in its path (as hosted
//! providers' URLs do), and the RPC becomes unreachable after start: the purchase's 503, the
//! cashout's 503 and its stored `error`, and the MCP tool's output all say the chain is down
//! without naming the URL, its key, the house key or the database URL.

use arcade_server::settings::Secret;
use serde_json::json;

use crate::helpers::Backend;
use crate::mcp_client::McpSession;
use crate::paying::{PaidApp, sign_payment};

const API_KEY: &str = "k3y5ecret9f8e7d6c5b4a";

/// The text of an answer must not hold any secret of the deployment.
fn assert_no_secret(app: &PaidApp, what: &str, text: &str) {
    let house_key = alloy::hex::encode(app.devnet.house.to_bytes());
    for secret in [API_KEY, "/v3/", &house_key, &app.database_url] {
        assert!(
            !text.contains(secret),
            "{what} shows a secret ({secret:?}): {text}"
        );
    }
}

async fn chain_errors_name_no_secret(backend: Backend) {
    let app = PaidApp::spawn_on_devnet(
        backend,
        arcade_server::chain::devnet::Devnet::start(&crate::paying::anvil_bin(), 0)
            .await
            .unwrap(),
        |settings| {
            let proxied = settings.chain.rpc_urls[0].expose().to_owned();
            settings.chain.rpc_urls = vec![Secret::new(format!("{proxied}/v3/{API_KEY}"))];
        },
    )
    .await;
    let player = app.payer(200_000).await;
    app.buy_chips(&player, "small").await; // the key-bearing URL works while the RPC is up
    let challenge = app.challenge("/api/arcade/chips").await;
    let (payment, _) = sign_payment(&challenge, &player, |_| {});
    let statement = app.sign_statement(&player).await;

    app.proxy.set_up(false);
    let purchase = app.buy("/api/arcade/chips", Some(&payment)).await;
    purchase.error_code(503, "chain_unavailable");
    assert_no_secret(&app, "the purchase's 503", &purchase.body.to_string());

    // Refused before its debit: the chain cannot say whether the house can pay.
    let cashout = app.cash_out(&player, 500).await;
    let body = cashout.error(503, "chain_unavailable");
    assert!(!body["detail"].as_str().unwrap().is_empty(), "{body}");
    assert_no_secret(&app, "the cashout's 503", &body.to_string());
    let ready = app.get("/readyz").await;
    assert_no_secret(&app, "/readyz", &ready.body.to_string());

    let output = McpSession::open(&app.base_url)
        .await
        .call(
            "arcade_cashout",
            json!({ "address": player.address(), "chips": 300, "signature": statement }),
        )
        .await;
    assert_eq!(output["isError"], true, "{output}");
    assert!(output.to_string().contains("chain_unavailable"), "{output}");
    assert_no_secret(&app, "the MCP tool's output", &output.to_string());

    app.proxy.set_up(true);
    assert_eq!(app.chips(player.address()).await, 1000, "nothing debited");
    app.audit().await;
}

mod chain_errors_name_no_secret {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::chain_errors_name_no_secret(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::chain_errors_name_no_secret(crate::helpers::Backend::Postgres).await;
    }
}
