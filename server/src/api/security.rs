//! The headers every answer carries, and the verifier page's own policy.
//!
//! Every answer gets `X-Content-Type-Options: nosniff`, so a browser runs a file as a script
//! or a stylesheet only when it is served as one (with the page's `script-src 'self'`, a JSON
//! answer that echoes its input can never become a script), and `Referrer-Policy:
//! no-referrer`, so a link followed from the page does not tell another site which bet was
//! being looked at.
//!
//! The page (`/`) gets a Content-Security-Policy that allows exactly what it loads: its own
//! modules and stylesheet, the wasm compiled from its own files (`'wasm-unsafe-eval'`: compiling
//! wasm, not `eval`), and calls to its own API (every fetch of `app.js` and `monitor.js` is
//! same-origin). Nothing may frame it, no `<base>` or form target can redirect it, no plugin
//! loads, and Trusted Types close the DOM's string-to-code sinks (the page only ever sets
//! `textContent`). The element's files under `/embed/` are scripts and wasm loaded by other
//! sites, which their own policy governs, so no page policy goes with them. `/api/docs/` (the
//! Swagger UI, with its inline script) keeps no policy of its own beyond these two headers.

use salvo::http::header::{CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS};
use salvo::prelude::*;

pub const PAGE_POLICY: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'; require-trusted-types-for 'script'; trusted-types 'none'";

#[handler]
pub async fn headers(res: &mut Response) {
    res.add_header(X_CONTENT_TYPE_OPTIONS, "nosniff", true).ok();
    res.add_header(REFERRER_POLICY, "no-referrer", true).ok();
}

/// The verifier page's Content-Security-Policy (see the module's header).
pub fn page_policy(res: &mut Response) {
    res.add_header(CONTENT_SECURITY_POLICY, PAGE_POLICY, true)
        .ok();
}
