//! The REST edge. Each handler validates into the 422 shape, calls one service function and
//! renders its result; errors become HTTP in `crate::error`. Every request is first identified
//! and drawn from the general rate-limit bucket (`client`).
//!
//! | method | path | handler |
//! |---|---|---|
//! | GET | /api/arcade/auth-statement/{address} | `identity::auth_statement` |
//! | POST | /api/arcade/auth/rotate | `identity::rotate` |
//! | GET | /api/arcade/siwx/{address} | `sign_in::challenge` |
//! | POST | /api/arcade/free | `wallet::free` |
//! | GET | /api/arcade/balance/{address} | `wallet::balance` |
//! | POST | /api/arcade/commit | `rounds::commit` |
//! | POST | /api/arcade/flip, /dice, … (one per game) | `rounds::flip`, `dice`, … (`inputs::games`'s list) |
//! | GET | /api/arcade/rounds/{round_id} | `rounds::round` |
//! | GET | /api/arcade/verify/{bet_id} | `rounds::verify` |
//! | GET | /api/arcade/games, /recent, /house | `stats::*` |
//! | GET | /api/arcade/embed; /embed/{version}/{dir}/{file} | `embed::snippet`, `embed::file` (the element's pinned set) |
//! | GET | /api/arcade/receipts, /seed-batches, /seed-batches/{batch_id}, …/rows/{index} | `proofs::*` |
//! | GET, POST | /api/arcade/chips, /api/arcade/chips/{tier} | `chips::buy_default`, `buy_tier` (x402; the 402 is `challenge`, its discovery metadata `discovery`) |
//! | GET | /api/arcade/manifest | `manifest::manifest` |
//! | GET | /.well-known/x402 | `well_known::well_known` (the indexers' document) |
//! | POST | /api/arcade/cashout; GET /api/arcade/cashout/{cashout_id} | `cashout::cash_out`, `cashout_status` |
//! | GET | /api/housebot/status; POST /api/housebot/message | `housebot::status`, `message` |
//! | POST, GET, DELETE | /api/mcp | the same operations as MCP tools (`crate::mcp`) |
//! | GET | /api/openapi.json (also /openapi.json, where indexers look), /api/docs | the OpenAPI 3.1 document (`openapi`, with `payment_info`) and its UI |
//! | GET | /, /web/{file}, /wasm/{file}, /vectors/fairness-v1.json | the verifier page (`web`) |
//! | GET | /llms.txt, /rules.md, /docs/proofs.md, /vectors/fairness-v1-limbo.json | the documents (`documents`) |
//! | GET | /server.json | this deployment as an MCP registry entry (`server_json`) |
//! | GET | /healthz, /readyz, /metrics | for monitoring (`health`), outside the rate limits |
//!
//! Every request gets an id and is counted and timed by route (`observe`); every answer says
//! `nosniff` and `no-referrer`, and the page its CSP (`security`); every route but `/metrics`
//! allows any origin (`cors`). A request no route
//! takes (an unknown path or method) answers 404 or 405 in the error shape; it and a CORS
//! preflight are drawn from the general bucket first (`client::Unrouted`).

mod cashout;
mod challenge;
pub use challenge::header_form;
mod checked;
mod chips;
mod client;
mod cors;
mod discovery;
pub(crate) mod documents;
mod edge;
mod embed;
mod health;
mod housebot;
mod identity;
mod manifest;
mod observe;
mod openapi;
mod payment_info;
mod precompressed;
mod proofs;
mod rounds;
mod security;
mod server_json;
mod sign_in;
mod spend_controls;
mod stats;
mod wallet;
pub mod wasm_dirs;
mod web;
mod well_known;

use std::sync::Arc;

use salvo::catcher::Catcher;
use salvo::prelude::*;

pub use documents::RULES_MD;
pub use edge::Shared;
pub use observe::REQUEST_ID_HEADER;
use wasm_dirs::WasmDirs;

use crate::housebots::HouseBots;
use crate::public_url::PublicUrl;
use crate::service::Arcade;
use crate::settings::Settings;
use tokio_util::sync::CancellationToken;

pub const OPENAPI_PATH: &str = "/api/openapi.json";

pub fn service(
    arcade: Arc<Arcade>,
    house_bots: Arc<HouseBots>,
    public_url: &PublicUrl,
    base_url: String,
    settings: &Settings,
    ownership_proofs: Vec<String>,
    shutdown: CancellationToken,
) -> Service {
    let (web, metrics) = (&settings.web, &settings.metrics);
    let mcp = crate::mcp::router(
        arcade.clone(),
        public_url,
        &settings.mcp,
        settings.server.max_body_bytes,
        shutdown,
    );
    let arcade_routes = arcade_routes();
    let housebot_routes = Router::with_path("api/housebot")
        .push(Router::with_path("status").get(housebot::status))
        .push(Router::with_path("message").post(housebot::message));
    let terms = arcade.purchases.payments().ok().map(|p| &p.terms);
    let doc = openapi::document(&arcade_routes, &housebot_routes, |doc| {
        payment_info::annotate(doc, terms, &ownership_proofs)
    });
    // Behind a proxy that adds no header of its own, every request comes from loopback and names
    // a loopback host: a service whose clients reach it by another name keeps `/metrics` off its
    // main port, where nothing tells a scrape from a stranger (`metrics.listen` serves it).
    let metrics_here = metrics.enabled && metrics.listen.is_none() && public_url.is_loopback();
    let monitoring = monitoring_routes(arcade.clone(), metrics_here);
    let limited = Router::new()
        .hoop(client::identify)
        .push(arcade_routes)
        .push(housebot_routes)
        .push(mcp)
        .push(Router::with_path(".well-known/x402").get(well_known::well_known))
        .push(page_routes())
        .push(Router::with_path(OPENAPI_PATH.trim_start_matches('/')).get(doc.clone()))
        .push(Router::with_path("openapi.json").get(doc))
        .push(SwaggerUi::new(OPENAPI_PATH).into_router("api/docs"));
    let wasm = page_wasm(web.dir.as_deref());
    let unrouted = client::Unrouted(arcade.clone());
    let router = Router::new()
        .hoop(Shared {
            arcade,
            house_bots,
            base_url,
            max_body_bytes: settings.server.max_body_bytes,
            wasm,
            ownership_proofs: ownership_proofs.into(),
        })
        .push(monitoring)
        .push(limited);
    Service::new(router)
        .hoop(observe::observe)
        .hoop(unrouted)
        .hoop(security::headers)
        .hoop(cors::cors)
        .catcher(Catcher::default().hoop(edge::json_errors))
}

/// Where the page's wasm files are (`web.dir`, else beside the binary, else the source tree),
/// said in the log, and their compressed forms made in the background.
fn page_wasm(dir: Option<&str>) -> WasmDirs {
    let wasm = WasmDirs::locate(dir);
    if wasm.found == wasm_dirs::Found::Nowhere {
        tracing::error!(
            "the page's wasm files are {}: the page cannot check rounds ({})",
            wasm.describe(),
            wasm_dirs::NOT_FOUND_FIX
        );
    } else {
        tracing::info!("the page's wasm files: {}", wasm.describe());
    }
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(web::warm(wasm.clone()));
    }
    wasm
}

/// `/healthz`, `/readyz`, and `/metrics` when this listener serves it (loopback clients only).
fn monitoring_routes(arcade: Arc<Arcade>, with_metrics: bool) -> Router {
    let router = Router::new()
        .push(Router::with_path("healthz").get(health::healthz))
        .push(Router::with_path("readyz").get(health::readyz));
    if !with_metrics {
        return router;
    }
    router.push(Router::with_path("metrics").get(health::MetricsEndpoint {
        arcade,
        loopback_only: true,
    }))
}

/// The separate `metrics.listen` listener's service: `/metrics` for anyone who reaches it.
pub fn metrics_service(arcade: Arc<Arcade>) -> Service {
    Service::new(Router::with_path("metrics").get(health::MetricsEndpoint {
        arcade,
        loopback_only: false,
    }))
}

/// `POST /api/arcade/<endpoint>` for each game of the list.
fn game_routes() -> Router {
    macro_rules! routes {
        ($($Game:ident, $endpoint:literal, $Input:ty, $handler:ident, $about:literal;)*) => {
            Router::new()$(.push(Router::with_path($endpoint).post(rounds::$handler)))*
        };
    }
    crate::inputs::games::for_each_game_input!(routes)
}

/// `/api/arcade/*`: the interface's operations.
fn arcade_routes() -> Router {
    Router::with_path("api/arcade")
        .push(Router::with_path("auth-statement/{address}").get(identity::auth_statement))
        .push(Router::with_path("auth/rotate").post(identity::rotate))
        .push(Router::with_path("siwx/{address}").get(sign_in::challenge))
        .push(Router::with_path("free").post(wallet::free))
        .push(Router::with_path("balance/{address}").get(wallet::balance))
        .push(Router::with_path("commit").post(rounds::commit))
        .push(game_routes())
        .push(Router::with_path("rounds/{round_id}").get(rounds::round))
        .push(Router::with_path("verify/{bet_id}").get(rounds::verify))
        .push(Router::with_path("games").get(stats::games))
        .push(Router::with_path("recent").get(stats::recent))
        .push(Router::with_path("house").get(stats::house))
        .push(Router::with_path("embed").get(embed::snippet))
        .push(Router::with_path("receipts").get(proofs::receipts))
        .push(Router::with_path("seed-batches").get(proofs::seed_batches))
        .push(Router::with_path("seed-batches/{batch_id}").get(proofs::seed_batch))
        .push(Router::with_path("seed-batches/{batch_id}/rows/{index}").get(proofs::seed_row))
        .push(
            Router::with_path("chips")
                .get(chips::buy_default)
                .post(chips::buy_default),
        )
        .push(
            Router::with_path("chips/{tier}")
                .get(chips::buy_tier)
                .post(chips::buy_tier),
        )
        .push(Router::with_path("manifest").get(manifest::manifest))
        .push(Router::with_path("cashout").post(cashout::cash_out))
        .push(Router::with_path("cashout/{cashout_id}").get(cashout::cashout_status))
}

/// The verifier page, its modules, the wasm, the golden vectors and the documents, each
/// compressed once (`precompressed`), and the element's versioned set.
fn page_routes() -> Router {
    Router::new()
        .push(documents::routes())
        .push(Router::with_path("server.json").get(server_json::server_json))
        .push(Router::with_path("web/{file}").get(web::asset))
        .push(Router::with_path("wasm/{file}").get(web::wasm))
        .push(Router::with_path("vectors/fairness-v1.json").get(web::vectors))
        .push(Router::with_path("embed/{version}/{dir}/{file}").get(embed::file))
        .push(Router::new().get(web::page))
}
