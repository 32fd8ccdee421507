//! No secret leaves in an answer. The RPC URL carries an API key in its path (as hosted
//! providers' URLs do), and the RPC becomes unreachable after start: the purchase's 503, the
//! cashout's 503 and its stored `error`, and the MCP tool's output all say the chain is down
//! without naming the URL, its key, the house key or the database URL.

use arcade_server::settings::Secret;
use serde_json::{Value, json};

use crate::helpers::Backend;
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
            let proxied = settings.chain.rpc_url.as_ref().unwrap().expose().to_owned();
            settings.chain.rpc_url = Some(Secret::new(format!("{proxied}/v3/{API_KEY}")));
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

    let cashout = app.cash_out(&player, 500).await;
    let body = cashout.error(503, "chain_unavailable");
    assert!(!body["error"].as_str().unwrap().is_empty(), "{body}");
    assert_no_secret(&app, "the cashout's 503", &body.to_string());
    let id = body["cashout_id"].as_i64().unwrap();
    let stored = app.get(&format!("/api/arcade/cashout/{id}")).await.ok();
    assert_no_secret(&app, "the stored cashout", &stored.to_string());

    let output = mcp_call(
        &app,
        "arcade_cashout",
        json!({ "address": player.address(), "chips": 300, "signature": statement }),
    )
    .await;
    assert_eq!(output["isError"], true, "{output}");
    assert!(output.to_string().contains("chain_unavailable"), "{output}");
    assert_no_secret(&app, "the MCP tool's output", &output.to_string());

    app.proxy.set_up(true);
    assert_eq!(
        app.chips(player.address()).await,
        1000,
        "everything refunded"
    );
    app.audit().await;
}

/// One MCP tool call over Streamable HTTP, as a client would make it: initialize, the
/// initialized notification, then `tools/call`. Returns the call's `result`.
async fn mcp_call(app: &PaidApp, tool: &str, arguments: Value) -> Value {
    let url = format!("{}/api/mcp", app.base_url);
    let post = |body: Value, session: Option<String>| {
        let mut request = app
            .client
            .post(&url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .json(&body);
        if let Some(session) = session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", "2025-11-25");
        }
        request.send()
    };
    let initialized = post(
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": "secrets-test", "version": "1" } } }),
        None,
    )
    .await
    .unwrap();
    let session = initialized.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    json_rpc_result(&initialized.text().await.unwrap());
    post(
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
        Some(session.clone()),
    )
    .await
    .unwrap();
    let called = post(
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": { "name": tool, "arguments": arguments } }),
        Some(session),
    )
    .await
    .unwrap();
    json_rpc_result(&called.text().await.unwrap())
}

/// The `result` of a JSON-RPC answer sent as JSON or as server-sent events.
fn json_rpc_result(text: &str) -> Value {
    let message: Value = text
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str(data.trim()).ok())
        .find(|message: &Value| message.get("result").is_some() || message.get("error").is_some())
        .or_else(|| serde_json::from_str(text).ok())
        .unwrap_or_else(|| panic!("no JSON-RPC answer in {text}"));
    message["result"].clone()
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
