//! What monitoring polls: `GET /healthz` (the process answers), `GET /readyz` (it can serve:
//! 200, or 503 `not_ready` naming the failing part) and `GET /metrics` (Prometheus text).
//! None of them draws from the rate limits.

use std::sync::Arc;
use std::time::Duration;

use salvo::http::HeaderValue;
use salvo::http::header::CONTENT_TYPE;
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
        Ok(arcade) => arcade.readiness().await,
        Err(error) => return error.render(res),
    };
    if readiness.ready {
        res.render(Json(readiness));
    } else {
        ApiError::NotReady(Box::new(readiness)).render(res);
    }
}

/// `GET /metrics`. On the main listener (`loopback_only`) it answers only requests from this
/// machine that no proxy forwarded; on `metrics.listen` it answers anyone who reaches it.
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

fn from_this_machine(req: &Request) -> bool {
    let forwarded = ["x-forwarded-for", "forwarded", "x-real-ip"]
        .iter()
        .any(|name| req.headers().contains_key(*name));
    !forwarded && req.remote_addr().ip().is_some_and(|ip| ip.is_loopback())
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
