//! Rate limits per client, REST and MCP alike: a 429 `rate_limited` with `Retry-After` that
//! changes nothing. Clients are told apart by `X-Forwarded-For`, believed because the tests'
//! loopback peer is listed as a trusted proxy.

use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::{cashout, payment, round, wallet};
use arcade_server::rate_limits::HOUSE_AGENT_HEADER;
use arcade_server::settings::{Bucket, Settings};
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp};
use crate::mcp_client::{McpSession, structured, tool_error};
use crate::paying::{PaidApp, sign_payment};

const SLOW: Bucket = Bucket {
    every_ms: 3_600_000,
    burst: 2,
};

fn limited(settings: &mut Settings) {
    settings.rate_limits.enabled = true;
    settings.rate_limits.trusted_proxies = vec!["127.0.0.1".into(), "::1".into()];
}

/// A request from the client at `ip`.
async fn from(
    app: &TestApp,
    ip: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, Option<String>, Value) {
    let url = format!("{}{path}", app.base_url);
    let request = match body {
        Some(body) => app.client.post(url).json(body),
        None => app.client.get(url),
    };
    let response = request.header("x-forwarded-for", ip).send().await.unwrap();
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    (
        status,
        retry_after,
        response.json().await.unwrap_or_default(),
    )
}

async fn wallets(app: &TestApp) -> u64 {
    wallet::Entity::find().count(&app.arcade.db).await.unwrap()
}

async fn over_a_bucket_the_answer_is_429_and_nothing_changes(backend: Backend) {
    let app = TestApp::spawn_with(backend, |s| {
        limited(s);
        s.rate_limits.free = SLOW;
    })
    .await;
    let claim = |address| json!({ "address": address });
    for _ in 0..2 {
        let (status, _, body) = from(
            &app,
            "198.51.100.1",
            "/api/arcade/free",
            Some(&claim(PrivateKeySigner::random().address())),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let late = PrivateKeySigner::random().address();
    let (status, retry_after, body) =
        from(&app, "198.51.100.1", "/api/arcade/free", Some(&claim(late))).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );
    let seconds = body["retry_after_s"].as_u64().unwrap();
    assert!(
        (3590..=3600).contains(&seconds),
        "one token an hour: {body}"
    );
    assert_eq!(retry_after, Some(seconds.to_string()));
    assert!(body["detail"].as_str().unwrap().contains("retry"));
    assert_eq!(wallets(&app).await, 2, "no wallet for the refused claim");
    assert_eq!(app.chips(late).await, 0);

    // The MCP tool draws from the same bucket as its REST twin.
    let mcp = McpSession::open_with(
        &app.base_url,
        vec![("x-forwarded-for", "198.51.100.1".into())],
    )
    .await;
    let refused = mcp.call("arcade_free", claim(late)).await;
    assert_eq!(tool_error(&refused), "rate_limited");
    assert!(
        refused["structuredContent"]["retry_after_s"]
            .as_u64()
            .unwrap()
            >= 1
    );
    // Another client has its own bucket, over MCP as over REST.
    let other = McpSession::open_with(
        &app.base_url,
        vec![("x-forwarded-for", "198.51.100.2".into())],
    )
    .await;
    structured(&other.call("arcade_free", claim(late)).await);
    assert_eq!(app.chips(late).await, 100);
    app.audit().await;
}

async fn commits_are_limited_where_they_happen(backend: Backend) {
    let app = TestApp::spawn_with(backend, |s| {
        limited(s);
        s.rate_limits.commit = SLOW;
    })
    .await;
    let player = PrivateKeySigner::random();
    let signature = app.sign_statement(&player).await;
    let commit = json!({ "address": player.address(), "signature": signature });
    let mcp = McpSession::open_with(
        &app.base_url,
        vec![("x-forwarded-for", "203.0.113.9".into())],
    )
    .await;
    structured(&mcp.call("arcade_commit", commit.clone()).await);
    let (status, _, _) = from(&app, "203.0.113.9", "/api/arcade/commit", Some(&commit)).await;
    assert_eq!(status, 200);
    let (status, _, body) = from(&app, "203.0.113.9", "/api/arcade/commit", Some(&commit)).await;
    assert_eq!((status, body["code"].as_str()), (429, Some("rate_limited")));
    assert_eq!(
        tool_error(&mcp.call("arcade_commit", commit.clone()).await),
        "rate_limited"
    );
    let rounds = round::Entity::find().count(&app.arcade.db).await.unwrap();
    assert_eq!(rounds, 2, "refused commits opened nothing");
    app.audit().await;
}

mod over_a_bucket_the_answer_is_429_and_nothing_changes {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::over_a_bucket_the_answer_is_429_and_nothing_changes(crate::helpers::Backend::Sqlite)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::over_a_bucket_the_answer_is_429_and_nothing_changes(
            crate::helpers::Backend::Postgres,
        )
        .await;
    }
}

mod commits_are_limited_where_they_happen {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::commits_are_limited_where_they_happen(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::commits_are_limited_where_they_happen(crate::helpers::Backend::Postgres).await;
    }
}

/// Every route draws from the general bucket, MCP included; the house agents' token is exempt,
/// and a header a client sets itself is believed only from a trusted proxy.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_route_draws_from_the_general_bucket() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s| {
        limited(s);
        s.rate_limits.general = Bucket {
            every_ms: 3_600_000,
            burst: 3,
        };
    })
    .await;
    for path in ["/api/arcade/games", "/api/arcade/house", "/"] {
        let (status, _, _) = from(&app, "192.0.2.1", path, None).await;
        assert_eq!(status, 200, "{path}");
    }
    for path in ["/api/arcade/games", "/api/openapi.json", "/web/app.js"] {
        let (status, retry_after, body) = from(&app, "192.0.2.1", path, None).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (429, Some("rate_limited")),
            "{path}"
        );
        assert!(retry_after.is_some());
    }
    let initialize = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": { "name": "flood", "version": "1" } } });
    let mcp = app
        .client
        .post(format!("{}/api/mcp", app.base_url))
        .header("accept", "application/json, text/event-stream")
        .header("x-forwarded-for", "192.0.2.1")
        .json(&initialize)
        .send()
        .await
        .unwrap();
    assert_eq!(mcp.status(), 429);
    // Another client, and the house agents (with the process's token), still pass.
    let (status, _, _) = from(&app, "192.0.2.2", "/api/arcade/games", None).await;
    assert_eq!(status, 200);
    let token = app.arcade.rate_limits.house_token().to_owned();
    for _ in 0..5 {
        let house = app
            .client
            .get(format!("{}/api/arcade/games", app.base_url))
            .header("x-forwarded-for", "192.0.2.1")
            .header(HOUSE_AGENT_HEADER, &token)
            .send()
            .await
            .unwrap();
        assert_eq!(house.status(), 200);
    }
    let forged = app
        .client
        .get(format!("{}/api/arcade/games", app.base_url))
        .header("x-forwarded-for", "192.0.2.1")
        .header(HOUSE_AGENT_HEADER, "not-the-token")
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 429);
}

/// Without trusted proxies, `X-Forwarded-For` is the client's own words: the peer is the key.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn forwarded_for_from_an_untrusted_peer_is_ignored() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s| {
        s.rate_limits.enabled = true;
        s.rate_limits.general = Bucket {
            every_ms: 3_600_000,
            burst: 2,
        };
    })
    .await;
    let mut statuses = Vec::new();
    for client in ["192.0.2.1", "192.0.2.2", "192.0.2.3"] {
        statuses.push(from(&app, client, "/api/arcade/games", None).await.0);
    }
    assert_eq!(statuses, [200, 200, 429], "one peer, one bucket");
}

/// Payments and cashouts have buckets of their own: a flood of unfunded authorizations stops
/// at 429 before any of them is verified or reserved, and a refused cashout moves nothing.
async fn money_paths_are_limited_too(backend: Backend) {
    let app = PaidApp::spawn_with(backend, |s| {
        s.rate_limits.enabled = true;
        s.rate_limits.purchase = SLOW;
        s.rate_limits.cashout = Bucket {
            every_ms: 3_600_000,
            burst: 1,
        };
    })
    .await;
    let player = app.payer(200_000).await;
    app.buy_chips(&player, "small").await;
    let unfunded = app.payer(0).await;
    let challenge = app.challenge("/api/arcade/chips/micro").await;
    let app = &app;
    let attempt = || {
        let (payment, _) = sign_payment(&challenge, &unfunded, |_| {});
        async move { app.buy("/api/arcade/chips/micro", Some(&payment)).await }
    };
    assert_eq!(attempt().await.status, 402, "refused on its merits");
    let payments = payment::Entity::find().count(&app.arcade.db).await.unwrap();
    for _ in 0..3 {
        let refused = attempt().await;
        refused.error_code(429, "rate_limited");
        assert!(refused.headers.contains_key("retry-after"));
    }
    assert_eq!(
        payment::Entity::find().count(&app.arcade.db).await.unwrap(),
        payments,
        "no payment row for a refused attempt"
    );
    // Asking for the offer is not a purchase: it stays answered.
    app.challenge("/api/arcade/chips/micro").await;

    app.cash_out(&player, 100).await.ok();
    let chips = app.chips(player.address()).await;
    app.cash_out(&player, 100).await.error(429, "rate_limited");
    assert_eq!(app.chips(player.address()).await, chips);
    let cashouts = cashout::Entity::find().count(&app.arcade.db).await.unwrap();
    assert_eq!(cashouts, 1);
    app.audit().await;
}

mod money_paths_are_limited_too {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::money_paths_are_limited_too(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::money_paths_are_limited_too(crate::helpers::Backend::Postgres).await;
    }
}
