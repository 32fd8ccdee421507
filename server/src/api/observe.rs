//! Every request, observed: a request id (the caller's `X-Request-Id` if it is a sane token,
//! else a fresh one) returned in the `X-Request-Id` header and carried by every log line the
//! request causes (a `request` span), and its count and latency by route for `/metrics`.
//! Requests no route takes are counted together (`unmatched`), whatever their path or method.
//! A round id in the path is logged shortened: an open round's id is what plays it, and logs
//! leak.

use std::time::Instant;

use salvo::http::{HeaderValue, StatusCode};
use salvo::prelude::*;
use tracing::Instrument;

use crate::telemetry::metrics;

pub const REQUEST_ID_HEADER: &str = "x-request-id";
/// Longest caller-chosen id kept; longer ones are replaced.
const MAX_REQUEST_ID: usize = 64;

#[handler]
pub async fn observe(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
    ctrl: &mut FlowCtrl,
) {
    let started = Instant::now();
    let id = request_id(req);
    if let Ok(value) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(REQUEST_ID_HEADER, value);
    }
    let method = req.method().clone();
    let routed = routed(res);
    let path = logged_path(req.uri().path());
    let span = tracing::info_span!("request", id = %id, method = %method, path = %path);
    ctrl.call_next(req, depot, res).instrument(span).await;
    let status = res.status_code.map_or(200, |status| status.as_u16());
    let route = if routed {
        format!("/{}", req.matched_path())
    } else {
        "unmatched".to_owned()
    };
    metrics::http_request(method.as_str(), route, status, started.elapsed());
}

/// The path as logged: a round id's segment (`r_` + hex) kept to its first 6 characters.
fn logged_path(path: &str) -> String {
    path.split('/')
        .map(|segment| match segment.strip_prefix("r_") {
            Some(rest) if rest.len() > 4 => format!("r_{}…", &rest[..rest.len().min(4)]),
            _ => segment.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether a route took the request, as a service-wide hoop sees it before the rest run: salvo
/// sets 404 (no path matched) or 405 (a path matched, not its method) before the service's
/// hoops when no route takes the request, and leaves the status unset when one does.
pub fn routed(res: &Response) -> bool {
    !matches!(
        res.status_code,
        Some(StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED)
    )
}

/// The caller's id when it is 1–64 characters of `[A-Za-z0-9._:-]`, else a fresh random one.
fn request_id(req: &Request) -> String {
    let given = req
        .headers()
        .get(REQUEST_ID_HEADER)
        .and_then(|value| value.to_str().ok())
        .filter(|id| {
            (1..=MAX_REQUEST_ID).contains(&id.len())
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
        });
    match given {
        Some(id) => id.to_owned(),
        None => fresh_id(),
    }
}

fn fresh_id() -> String {
    let mut bytes = [0u8; 12];
    if getrandom::fill(&mut bytes).is_err() {
        // The id only correlates log lines; a time-based one will do.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        return format!("{nanos:x}");
    }
    alloy::hex::encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_id_in_a_path_is_logged_shortened() {
        let id = "r_0123456789abcdef0123456789abcdef";
        assert_eq!(
            logged_path(&format!("/api/arcade/rounds/{id}")),
            "/api/arcade/rounds/r_0123…"
        );
        assert_eq!(
            logged_path("/api/arcade/verify/12"),
            "/api/arcade/verify/12"
        );
    }

    fn with_header(value: &str) -> Request {
        let mut req = Request::new();
        req.headers_mut()
            .insert(REQUEST_ID_HEADER, HeaderValue::from_str(value).unwrap());
        req
    }

    #[test]
    fn a_sane_caller_id_is_kept_and_anything_else_replaced() {
        assert_eq!(request_id(&with_header("trace-42:a.b_c")), "trace-42:a.b_c");
        for bad in ["has space", "semi;colon", &"x".repeat(65), "<script>"] {
            let id = request_id(&with_header(bad));
            assert_ne!(id, bad);
            assert_eq!(id.len(), 24, "a fresh id: {id}");
        }
        assert_eq!(request_id(&Request::new()).len(), 24);
    }
}
