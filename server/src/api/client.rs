//! Who is calling, for the rate limits: the peer's IP (or the client a trusted proxy names in
//! `X-Forwarded-For`), or the house's own agents when they present this process's token. The
//! caller is kept for the handler (depot) and for MCP tools (request extensions, which rmcp
//! hands them); every request then draws from the general bucket. Requests no route takes
//! (unknown paths, invented methods) and CORS preflights (answered before any route) draw from
//! it too (`Unrouted`).

use std::sync::Arc;

use salvo::prelude::*;

use super::cors::is_preflight;
use super::edge::shared;
use super::observe::routed;
use crate::error::ApiError;
use crate::rate_limits::{Caller, ClientKey, HOUSE_AGENT_HEADER, RateLimits};
use crate::service::Arcade;

#[handler]
pub async fn identify(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
    ctrl: &mut FlowCtrl,
) {
    let limits = match shared(depot) {
        Ok(shared) => shared.arcade.clone(),
        Err(error) => return error.render(res),
    };
    let limits = &limits.rate_limits;
    let caller = caller_of(req, limits);
    req.extensions_mut().insert(caller);
    depot.insert_typed(caller);
    if let Err(limited) = limits.request(caller) {
        ApiError::from(limited).render(res);
        ctrl.skip_rest();
    }
}

/// A service-wide hoop for the requests that never reach `identify` (the routes' hoop): those
/// no route takes, and CORS preflights, which `cors` answers first. They are drawn from the
/// general bucket here, and past it answer 429 like any other request.
pub struct Unrouted(pub Arc<Arcade>);

#[async_trait]
impl Handler for Unrouted {
    async fn handle(
        &self,
        req: &mut Request,
        _depot: &mut Depot,
        res: &mut Response,
        ctrl: &mut FlowCtrl,
    ) {
        if routed(res) && !is_preflight(req) {
            return;
        }
        let limits = &self.0.rate_limits;
        if let Err(limited) = limits.request(caller_of(req, limits)) {
            ApiError::from(limited).render(res);
            ctrl.skip_rest();
        }
    }
}

/// The caller `identify` found (the shared overflow bucket if it did not run).
pub fn caller(depot: &Depot) -> Caller {
    depot
        .get_typed::<Caller>()
        .copied()
        .unwrap_or(Caller::Client(ClientKey::Overflow))
}

fn caller_of(req: &Request, limits: &RateLimits) -> Caller {
    let house = req
        .headers()
        .get(HOUSE_AGENT_HEADER)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|token| limits.is_house_token(token));
    if house {
        return Caller::House;
    }
    let Some(peer) = req.remote_addr().ip() else {
        return Caller::Client(ClientKey::Overflow);
    };
    let forwarded: Vec<&str> = req
        .headers()
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .collect();
    Caller::Client(ClientKey::of(limits.proxies().client_ip(peer, &forwarded)))
}
