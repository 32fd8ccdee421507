//! A stranger's requests cost bounded memory and CPU: invented HTTP methods and paths add no
//! metrics series and draw from the general rate limit; a bad signature costs a few signer
//! recoveries however often its address rotated; one client's flood of MCP `initialize` ends
//! only its own sessions; reads of a thousand rows have a stricter bucket of their own.

use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::auth_generation;
use arcade_server::identity::Generation;
use arcade_server::settings::{Bucket, Settings};
use arcade_server::store;
use arcade_server::store::identities::NextGeneration;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, sign};
use crate::mcp_client::{McpSession, structured};
use crate::on_both_backends;

/// The methods HTTP names; every other method is one `other` label.
const KNOWN_METHODS: [&str; 10] = [
    "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE", "other",
];

/// Clients told apart by `X-Forwarded-For`, believed from the tests' loopback peer.
fn told_apart(settings: &mut Settings) {
    settings.rate_limits.trusted_proxies = vec!["127.0.0.1".into(), "::1".into()];
}

/// A request with any method from the client at `ip`: its status and body.
async fn request_from(app: &TestApp, ip: &str, method: &str, path: &str) -> (u16, Value) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let answer = app
        .client
        .request(method, format!("{}{path}", app.base_url))
        .header("x-forwarded-for", ip)
        .send()
        .await
        .unwrap();
    let status = answer.status().as_u16();
    (status, answer.json().await.unwrap_or_default())
}

/// `/metrics` as this machine reads it.
async fn scrape(app: &TestApp) -> String {
    let answer = app
        .client
        .get(format!("{}/metrics", app.base_url))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    answer.text().await.unwrap()
}

/// The series of the HTTP metrics (`name{labels} value` lines).
fn http_series(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| line.starts_with("arcade_http_request"))
        .collect()
}

fn label<'a>(series: &'a str, name: &str) -> Option<&'a str> {
    let start = series.find(&format!("{name}=\""))? + name.len() + 2;
    let length = series[start..].find('"')?;
    Some(&series[start..start + length])
}

/// Requests with `count` invented methods (on a real route and on no route) and invented paths.
async fn invent(app: &TestApp, tag: &str, count: usize) {
    for n in 0..count {
        let method = format!("INVENTED{tag}{n}");
        request_from(app, "127.0.0.1", &method, "/api/arcade/games").await;
        request_from(app, "127.0.0.1", &method, &format!("/invented-{tag}-{n}")).await;
        request_from(app, "127.0.0.1", "GET", &format!("/invented-{tag}-{n}/x")).await;
    }
}

/// No series names an invented method or path: methods are HTTP's own or `other`, routes a
/// template or `unmatched`.
fn fixed_labels(text: &str) {
    for series in http_series(text) {
        assert!(
            !series.contains("INVENTED"),
            "a series per method: {series}"
        );
        assert!(!series.contains("invented-"), "a series per path: {series}");
        let method = label(series, "method").unwrap_or("GET");
        assert!(KNOWN_METHODS.contains(&method), "{series}");
        let route = label(series, "route").unwrap_or("/");
        assert!(route == "unmatched" || route.starts_with('/'), "{series}");
    }
}

/// However many methods and paths a stranger makes up, `/metrics` keeps one `other` method and
/// one `unmatched` route: the number of series stays where it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn invented_methods_and_paths_add_no_metrics_series() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    invent(&app, "a", 40).await;
    let first = scrape(&app).await;
    fixed_labels(&first);
    // The series the invented methods fall into (other tests in this process add series of
    // their own, with other methods or statuses, to the one recorder).
    let others = |text: &str| {
        http_series(text)
            .into_iter()
            .filter(|s| {
                label(s, "method") == Some("other")
                    && matches!(label(s, "status"), None | Some("404" | "405"))
            })
            .map(|s| {
                s.rsplit_once(' ')
                    .map_or(s, |(series, _)| series)
                    .to_owned()
            })
            .collect::<std::collections::BTreeSet<_>>()
    };
    let before = others(&first);
    assert!(!before.is_empty(), "the invented requests are counted");
    invent(&app, "b", 40).await;
    let second = scrape(&app).await;
    fixed_labels(&second);
    let after = others(&second);
    assert_eq!(after, before, "new inventions, no new series: {after:#?}");
    app.audit().await;
}

/// A request nothing routes draws from the general bucket like every other: past it, 429.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn invented_methods_and_paths_draw_from_the_general_bucket() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s| {
        told_apart(s);
        s.rate_limits.enabled = true;
        s.rate_limits.general = Bucket {
            every_ms: 3_600_000,
            burst: 3,
        };
    })
    .await;
    let client = "192.0.2.77";
    let mut statuses = Vec::new();
    for (method, path) in [
        ("INVENTED", "/api/arcade/games"),
        ("BREW", "/coffee"),
        ("GET", "/no-such-page"),
        ("INVENTED", "/api/arcade/games"),
        ("BREW", "/coffee"),
    ] {
        let (status, body) = request_from(&app, client, method, path).await;
        statuses.push((status, body["code"].as_str().unwrap_or_default().to_owned()));
    }
    let codes: Vec<_> = statuses.iter().map(|(s, c)| (*s, c.as_str())).collect();
    assert_eq!(
        codes,
        [
            (405, "method_not_allowed"),
            (404, "not_found"),
            (404, "not_found"),
            (429, "rate_limited"),
            (429, "rate_limited"),
        ]
    );
    // The same bucket as a routed request's; another client's is untouched.
    let (status, _) = request_from(&app, client, "GET", "/api/arcade/games").await;
    assert_eq!(status, 429);
    let (status, _) = request_from(&app, "192.0.2.78", "GET", "/api/arcade/games").await;
    assert_eq!(status, 200);
    app.audit().await;
}

/// A CORS preflight is a request too: it draws from the general bucket like any other.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn preflights_draw_from_the_general_bucket() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s| {
        told_apart(s);
        s.rate_limits.enabled = true;
        s.rate_limits.general = Bucket {
            every_ms: 3_600_000,
            burst: 3,
        };
    })
    .await;
    let preflight = |path: &'static str| {
        app.client
            .request(reqwest::Method::OPTIONS, format!("{}{path}", app.base_url))
            .header("x-forwarded-for", "192.0.2.90")
            .header("origin", "https://elsewhere.example")
            .header("access-control-request-method", "POST")
            .send()
    };
    let mut statuses = Vec::new();
    for path in [
        "/api/arcade/flip",
        "/api/mcp",
        "/invented",
        "/api/arcade/flip",
    ] {
        statuses.push(preflight(path).await.unwrap().status().as_u16());
    }
    assert_eq!(statuses, [204, 204, 204, 429]);
    app.audit().await;
}

/// The address's statement of `generation` as the player would have signed it.
fn statement_of(app: &TestApp, player: &PrivateKeySigner, generation: i64) -> String {
    let address = player.address();
    let stored = Generation {
        number: generation,
        nonce: format!("{generation:024x}"),
        issued_at: 1_800_000_000_000 + generation,
    };
    let generation = if generation == 0 {
        app.arcade.auth.identity().first_generation(&address)
    } else {
        stored
    };
    app.arcade.auth.identity().statement(&address, &generation)
}

/// A commit signed with `signature`: the answer and the signer recoveries it cost.
async fn commit_costs(app: &TestApp, player: &PrivateKeySigner, signature: &str) -> (Value, u64) {
    let before = app.arcade.auth.identity().recoveries();
    let body = json!({ "address": player.address(), "signature": signature });
    let answer = app.post("/api/arcade/commit", &body).await;
    let spent = app.arcade.auth.identity().recoveries() - before;
    (
        json!({ "status": answer.status, "body": answer.body }),
        spent,
    )
}

/// Three hundred rotations of one address: a wrong signature, a signature of the statement
/// before the current one and one of the very first each cost a few recoveries, not hundreds.
async fn a_bad_signature_costs_a_few_recoveries_however_often_its_address_rotated(app: &TestApp) {
    let player = PrivateKeySigner::random();
    let key = format!("{:#x}", player.address());
    const ROTATIONS: i64 = 300;
    for generation in 1..=ROTATIONS {
        let next = NextGeneration {
            address: &key,
            generation,
            nonce: &format!("{generation:024x}"),
            issued_at: 1_800_000_000_000 + generation,
            keep_older: 2,
        };
        store::identities::rotate(&app.arcade.db, next)
            .await
            .unwrap()
            .expect("a new generation");
    }
    let kept = auth_generation::Entity::find()
        .filter(auth_generation::Column::Address.eq(&key))
        .count(&app.arcade.db)
        .await
        .unwrap();
    assert!(kept <= 3, "{kept} generations stored for one address");
    let current = statement_of(app, &player, ROTATIONS);
    assert_eq!(
        app.get(&format!("/api/arcade/auth-statement/{}", player.address()))
            .await
            .ok()["statement"],
        current.as_str()
    );

    let forged = sign(&PrivateKeySigner::random(), &current);
    let (answer, spent) = commit_costs(app, &player, &forged).await;
    assert_eq!(answer["status"], 403, "{answer}");
    assert_eq!(answer["body"]["code"], "signature_mismatch");
    assert!(spent <= 3, "a wrong signature cost {spent} recoveries");

    let previous = sign(&player, &statement_of(app, &player, ROTATIONS - 1));
    let (answer, spent) = commit_costs(app, &player, &previous).await;
    assert_eq!(answer["body"]["code"], "signature_revoked", "{answer}");
    assert!(
        spent <= 3,
        "a recently revoked signature cost {spent} recoveries"
    );

    let first = sign(&player, &statement_of(app, &player, 0));
    let (answer, spent) = commit_costs(app, &player, &first).await;
    assert!(
        spent <= 3,
        "the first statement's signature cost {spent} recoveries"
    );
    assert_eq!(answer["status"], 403, "{answer}");
    assert_eq!(answer["body"]["code"], "signature_mismatch");
    let detail = answer["body"]["detail"].as_str().unwrap();
    assert!(detail.contains("current"), "{detail}");

    // The owner's current signature still works.
    let signature = sign(&player, &current);
    app.post(
        "/api/arcade/commit",
        &json!({ "address": player.address(), "signature": signature }),
    )
    .await
    .ok();
}
on_both_backends!(a_bad_signature_costs_a_few_recoveries_however_often_its_address_rotated);

fn client(ip: &str) -> Vec<(&'static str, String)> {
    vec![("x-forwarded-for", ip.to_owned())]
}

async fn answers(session: &McpSession) -> u16 {
    session.call_raw("arcade_games", json!({})).await.0
}

/// At the global cap, a flood of `initialize` from one client ends that client's own idlest
/// sessions: another client's, idler still, all answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_clients_initialize_flood_ends_only_its_own_sessions() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s| {
        told_apart(s);
        s.mcp.max_sessions = 8;
    })
    .await;
    let mut own = Vec::new();
    for _ in 0..3 {
        own.push(McpSession::open_with(&app.base_url, client("198.51.100.1")).await);
    }
    let mut flood = Vec::new();
    for _ in 0..40 {
        flood.push(McpSession::open_with(&app.base_url, client("203.0.113.66")).await);
    }
    for session in &own {
        structured(&session.call("arcade_games", json!({})).await);
    }
    assert_eq!(answers(&flood[0]).await, 404, "the flooder's idlest ended");
    assert_eq!(answers(&flood[39]).await, 200, "its newest answers");
    app.audit().await;
}

/// Below the global cap, one client holds at most `mcp.max_sessions_per_client` (default 16):
/// its 17th session ends its own idlest.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_client_holds_a_bounded_share_of_sessions() {
    let app = TestApp::spawn_with(Backend::Sqlite, told_apart).await;
    let other = McpSession::open_with(&app.base_url, client("198.51.100.1")).await;
    let mut flood = Vec::new();
    for _ in 0..17 {
        flood.push(McpSession::open_with(&app.base_url, client("203.0.113.66")).await);
    }
    assert_eq!(answers(&flood[0]).await, 404, "the 17th ended the first");
    for session in &flood[1..] {
        assert_eq!(answers(session).await, 200);
    }
    assert_eq!(answers(&other).await, 200);
    app.audit().await;
}

/// A client looping the heaviest anonymous reads (the audit feed a thousand at a time, a seed
/// batch with every used index, the list of every batch) is refused with 429 long before the
/// general bucket would, and its other requests still pass; another client's read passes once
/// it waits the `Retry-After` it is told.
async fn heavy_reads_have_a_stricter_bucket(backend: Backend) {
    let app = TestApp::spawn_with(backend, |s| {
        told_apart(s);
        s.rate_limits.enabled = true;
    })
    .await;
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    app.commit(&player).await;
    // Batch ids are drawn at random: the one this instance published.
    let batches = app.get("/api/arcade/seed-batches").await.ok();
    let batch = format!("/api/arcade/seed-batches/{}", batches[0]["batch_id"]);
    for (path, reader, other) in [
        (
            "/api/arcade/receipts?limit=1000",
            "198.51.100.9",
            "198.51.100.10",
        ),
        (batch.as_str(), "198.51.100.9", "198.51.100.11"),
        ("/api/arcade/seed-batches", "198.51.100.12", "198.51.100.13"),
    ] {
        let mut refused = 0;
        for _ in 0..40 {
            let (status, body) = request_from(&app, reader, "GET", path).await;
            match status {
                200 => {}
                429 => {
                    assert_eq!(body["code"], "rate_limited", "{body}");
                    refused += 1;
                }
                _ => panic!("{path}: {status} {body}"),
            }
        }
        assert!(refused >= 10, "{path}: only {refused} of 40 refused");
        assert_eq!(
            read_when_told(&app, other, path).await,
            200,
            "another client reads {path}"
        );
    }
    let (status, _) = request_from(&app, "198.51.100.9", "GET", "/api/arcade/games").await;
    assert_eq!(status, 200, "the general bucket is not spent");
    app.audit().await;
}

/// A read that waits out the 429s it gets, as told, a few times: its last status.
async fn read_when_told(app: &TestApp, ip: &str, path: &str) -> u16 {
    for _ in 0..3 {
        let (status, body) = request_from(app, ip, "GET", path).await;
        if status != 429 {
            return status;
        }
        let seconds = body["retry_after_s"].as_u64().unwrap();
        assert!(seconds <= 2, "{body}");
        tokio::time::sleep(std::time::Duration::from_secs(seconds)).await;
    }
    429
}

/// Readers from as many addresses as they like (a new one for every read) are refused too: all
/// clients together draw from one bucket, so their reads cannot add up to slow the plays.
async fn heavy_reads_from_many_addresses_share_one_bucket(backend: Backend) {
    let app = TestApp::spawn_with(backend, |s| {
        told_apart(s);
        s.rate_limits.enabled = true;
    })
    .await;
    let mut statuses = Vec::new();
    for n in 0..30 {
        let (status, _) = request_from(
            &app,
            &format!("10.0.0.{n}"),
            "GET",
            "/api/arcade/receipts?limit=1000",
        )
        .await;
        statuses.push(status);
    }
    let refused = statuses.iter().filter(|s| **s == 429).count();
    assert!(refused >= 15, "{refused} of 30 refused: {statuses:?}");
    assert!(
        statuses.iter().all(|s| matches!(s, 200 | 429)),
        "{statuses:?}"
    );
    app.audit().await;
}

mod heavy_reads_from_many_addresses_share_one_bucket {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::heavy_reads_from_many_addresses_share_one_bucket(crate::helpers::Backend::Sqlite)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::heavy_reads_from_many_addresses_share_one_bucket(crate::helpers::Backend::Postgres)
            .await;
    }
}

mod heavy_reads_have_a_stricter_bucket {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::heavy_reads_have_a_stricter_bucket(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::heavy_reads_have_a_stricter_bucket(crate::helpers::Backend::Postgres).await;
    }
}

/// At the global cap, one `initialize` from each of 1,024 clients of one IPv6 /54 (cheap
/// identities: a /64 each) never ends an active client's only session in another network: the
/// /54's network holds the most sessions, so its own idlest give way.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_clients_of_one_network_end_only_their_own_sessions() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s| {
        told_apart(s);
        s.mcp.max_sessions = 64;
    })
    .await;
    let honest = McpSession::open_with(&app.base_url, client("2001:db8:bbbb::1")).await;
    let mut flood = Vec::new();
    for n in 0..1024u16 {
        let ip = format!("2001:db8:aaaa:{n:x}::1");
        flood.push(McpSession::open_with(&app.base_url, client(&ip)).await);
        if n % 100 == 99 {
            assert_eq!(answers(&honest).await, 200, "after {} others", n + 1);
        }
    }
    assert_eq!(answers(&honest).await, 200);
    assert_eq!(answers(&flood[0]).await, 404, "the flood's idlest ended");
    assert_eq!(answers(&flood[1023]).await, 200, "its newest answers");
    app.audit().await;
}
