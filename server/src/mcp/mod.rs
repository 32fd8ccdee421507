//! `/api/mcp`: the arcade's tools, resources, prompts and completions over MCP Streamable HTTP,
//! served by the official Rust SDK (rmcp) inside salvo (`handler.rs` hands each request to its
//! module). Both protocol eras are served: clients that `initialize` get a session
//! (`Mcp-Session-Id`; POST, the GET stream, DELETE answered 200), clients of the 2026-07-28
//! revision are answered statelessly.
//!
//! A browser page from a foreign origin is refused (403 `origin_forbidden`) before rmcp sees
//! the request; rmcp itself checks the Host header against the public URL's host and loopback.
//! An idle session ends after `mcp.session_idle_secs`; later calls with its id get 404 and the
//! client initializes again. One client holds at most `mcp.max_sessions_per_client` and all
//! together at most `mcp.max_sessions` (`sessions.rs`: a client's flood of `initialize` ends its
//! own idlest sessions, never another client's while it holds the most), and a body is bounded
//! by `server.max_body_bytes` like every other route's.

mod annotations;
mod arguments;
mod bazaar;
mod buy;
mod completions;
mod errors;
mod eviction;
mod games;
mod handler;
mod origin;
mod output;
mod prompts;
mod resources;
mod router;
mod rules;
mod schema_reduce;
mod sessions;
mod summaries;
mod tools;

use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use salvo::http::{Method, ReqBody};
use salvo::prelude::*;
use tokio_util::sync::CancellationToken;

use crate::error::ApiError;
use crate::public_url::PublicUrl;
use crate::rate_limits::{Caller, ClientKey};
use crate::service::Arcade;
use crate::settings::McpSettings;
pub use origin::AllowedOrigins;
use sessions::CappedSessions;

/// The `/api/mcp` router: origin check, then rmcp.
pub fn router(
    arcade: Arc<Arcade>,
    public_url: &PublicUrl,
    settings: &McpSettings,
    max_body_bytes: usize,
    shutdown: CancellationToken,
) -> Router {
    let origins = AllowedOrigins::new(public_url, &settings.allowed_origins);
    let hosts = vec![
        "localhost".to_owned(),
        "127.0.0.1".to_owned(),
        "::1".to_owned(),
        public_url.host(),
    ];
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins.list())
        .with_cancellation_token(shutdown);
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(Duration::from_secs(settings.session_idle_secs));
    let sessions = Arc::new(CappedSessions::new(
        sessions,
        settings.max_sessions,
        settings.max_sessions_per_client,
    ));
    let tools = router::router();
    let service = StreamableHttpService::new(
        move || Ok(tools::ArcadeTools::new(arcade.clone(), tools.clone())),
        sessions,
        config,
    );
    Router::with_path("api/mcp")
        .hoop(origins)
        .hoop(BoundedBody(max_body_bytes))
        .goal(ForClient(TowerServiceCompat::<ReqBody, _, _, _>::compat(
            service,
        )))
}

/// rmcp, run on behalf of the request's client (`api::client::identify` put it in the request's
/// extensions): rmcp creates a session within this call, and the cap counts it as that client's.
/// A session ended by DELETE is answered 200 where rmcp says 202: the specification fixes no
/// status, and the official PyPI client takes only 200 or 204 (it logs "Session termination
/// failed: 202"; the npm one takes any 2xx).
struct ForClient<H>(H);

#[async_trait]
impl<H: Handler> Handler for ForClient<H> {
    async fn handle(
        &self,
        req: &mut Request,
        depot: &mut Depot,
        res: &mut Response,
        ctrl: &mut FlowCtrl,
    ) {
        let client = req
            .extensions()
            .get::<Caller>()
            .copied()
            .unwrap_or(Caller::Client(ClientKey::Overflow));
        sessions::on_behalf_of(client, self.0.handle(req, depot, res, ctrl)).await;
        if req.method() == Method::DELETE && res.status_code == Some(StatusCode::ACCEPTED) {
            res.status_code(StatusCode::OK);
        }
    }
}

/// Reads the body within `server.max_body_bytes` (413 beyond it) before rmcp sees it.
struct BoundedBody(usize);

#[async_trait]
impl Handler for BoundedBody {
    async fn handle(
        &self,
        req: &mut Request,
        _depot: &mut Depot,
        res: &mut Response,
        ctrl: &mut FlowCtrl,
    ) {
        match req.payload_with_max_size(self.0).await {
            Ok(bytes) => {
                let bytes = bytes.to_vec();
                *req.body_mut() = ReqBody::Once(bytes.into());
            }
            Err(_) => {
                ApiError::PayloadTooLarge.render(res);
                ctrl.skip_rest();
            }
        }
    }
}
