//! CORS for every route: any origin may call the REST API from a browser (no cookies, no
//! credentials), send the x402 payment and sign-in-with-x headers and read the x402 response
//! headers, speak MCP (send and read its session and version headers) and read a 429's `Retry-After`. `/api/mcp`
//! additionally checks the Origin itself, so only the allowed origins get that far.
//!
//! `/metrics` alone carries no CORS header, and a preflight for it is not answered: the main
//! listener serves it to loopback clients only, and a browser on the server's machine is one,
//! so without this any page open in it could read the house's balances and traffic.

use salvo::http::{Method, StatusCode};
use salvo::prelude::*;

const ALLOW_HEADERS: &str = "content-type, accept, payment-signature, x-payment, sign-in-with-x, \
     idempotency-key, \
     access-control-expose-headers, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, \
     last-event-id";
const EXPOSE_HEADERS: &str = "payment-required, payment-response, x-payment-response, \
     mcp-session-id, mcp-protocol-version, retry-after";

/// A browser's CORS preflight (answered here, before any route: `client::Unrouted` draws it
/// from the general bucket first).
pub fn is_preflight(req: &Request) -> bool {
    req.method() == Method::OPTIONS && req.headers().contains_key("access-control-request-method")
}

/// `/metrics` (and `/metrics/`), which no other origin may read.
fn is_metrics(req: &Request) -> bool {
    req.uri().path().trim_end_matches('/') == "/metrics"
}

#[handler]
pub async fn cors(req: &mut Request, res: &mut Response, ctrl: &mut FlowCtrl) {
    if is_metrics(req) {
        return;
    }
    res.add_header("access-control-allow-origin", "*", true)
        .ok();
    res.add_header("access-control-expose-headers", EXPOSE_HEADERS, true)
        .ok();
    if is_preflight(req) {
        res.add_header(
            "access-control-allow-methods",
            "GET, POST, DELETE, OPTIONS",
            true,
        )
        .ok();
        res.add_header("access-control-allow-headers", ALLOW_HEADERS, true)
            .ok();
        res.add_header("access-control-max-age", "86400", true).ok();
        res.status_code(StatusCode::NO_CONTENT);
        ctrl.skip_rest();
    }
}
