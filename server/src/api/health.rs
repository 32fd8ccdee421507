//! What monitoring polls: `GET /healthz` (the process answers), `GET /readyz` (it can serve:
//! 200, or 503 `not_ready` naming the failing part) and `GET /metrics` (Prometheus text).
//! None of them draws from the rate limits.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use salvo::http::HeaderValue;
use salvo::http::header::{CONTENT_TYPE, HOST};
use salvo::prelude::*;
use serde_json::json;

use super::edge::arcade;
use crate::error::ApiError;
use crate::service::{Arcade, now_ms};
use crate::store;
use crate::telemetry::metrics;

const PROMETHEUS_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

#[handler]
pub async fn healthz(res: &mut Response) {
    res.render(Json(json!({ "status": "ok" })));
}

#[handler]
pub async fn readyz(depot: &mut Depot, res: &mut Response) {
    let readiness = match arcade(depot) {
        Ok(arcade) => arcade.readiness.check().await,
        Err(error) => return error.render(res),
    };
    if readiness.ready {
        res.render(Json(readiness));
    } else {
        ApiError::NotReady(Box::new(readiness)).render(res);
    }
}

/// `GET /metrics`. On the main listener (`loopback_only`) it answers only requests from this
/// machine, for a loopback name, that no proxy forwarded; on `metrics.listen` it answers anyone
/// who reaches it.
pub struct MetricsEndpoint {
    pub arcade: Arc<Arcade>,
    pub loopback_only: bool,
}

#[async_trait]
impl Handler for MetricsEndpoint {
    async fn handle(
        &self,
        req: &mut Request,
        _depot: &mut Depot,
        res: &mut Response,
        _ctrl: &mut FlowCtrl,
    ) {
        if self.loopback_only && !from_this_machine(req) {
            return ApiError::NotFound.render(res);
        }
        refresh_pending(&self.arcade).await;
        let Some(text) = metrics::render() else {
            return ApiError::NotFound.render(res);
        };
        res.headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static(PROMETHEUS_TEXT));
        res.write_body(text).ok();
    }
}

/// A loopback client no proxy forwarded, that asked for this machine by a loopback name: a
/// page whose own name an attacker points at 127.0.0.1 (DNS rebinding) is a loopback client
/// too, and CORS does not stop it (it reads what it takes for its own origin), but its Host is
/// its own name.
fn from_this_machine(req: &Request) -> bool {
    let forwarded = ["x-forwarded-for", "forwarded", "x-real-ip"]
        .iter()
        .any(|name| req.headers().contains_key(*name));
    let host = req
        .headers()
        .get(HOST)
        .and_then(|value| value.to_str().ok())
        .or_else(|| req.uri().host());
    !forwarded
        && req.remote_addr().ip().is_some_and(|ip| ip.is_loopback())
        && host.is_none_or(names_this_machine)
}

/// Whether a Host (`127.0.0.1:8080`, `[::1]`, `localhost`) names a loopback address.
fn names_this_machine(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The pending settlements' and cashouts' gauges, read at scrape time.
async fn refresh_pending(arcade: &Arcade) {
    let now = now_ms();
    let age = |oldest: Option<i64>| {
        Duration::from_millis(oldest.map_or(0, |at| u64::try_from(now - at).unwrap_or(0)))
    };
    match store::payments::settling(&arcade.db).await {
        Ok(found) => metrics::pending("settlement", found.count, age(found.oldest_at)),
        Err(error) => tracing::warn!(%error, "counting pending settlements for /metrics"),
    }
    match store::cashouts::unfinished(&arcade.db).await {
        Ok(found) => metrics::pending("cashout", found.count, age(found.oldest_at)),
        Err(error) => tracing::warn!(%error, "counting pending cashouts for /metrics"),
    }
}
