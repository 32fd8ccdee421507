//! The service's Prometheus metrics, recorded through the `metrics` facade into one recorder
//! per process. Every metric's name, labels and meaning are here; the rest of the code calls
//! the functions below. Served at `/metrics` (see `api::health`).
//!
//! | metric | type | labels |
//! |---|---|---|
//! | `arcade_rounds_settled_total` | counter | `game` |
//! | `arcade_chips_wagered_total`, `arcade_chips_paid_out_total` | counter | `game` |
//! | `arcade_chips_granted_total` | counter | |
//! | `arcade_purchases_total` | counter | `state` (`settled`, `failed`) |
//! | `arcade_cashouts_total` | counter | `state` (`confirmed`, `failed`) |
//! | `arcade_pending` / `arcade_pending_oldest_age_seconds` | gauge | `kind` (`settlement`, `cashout`) |
//! | `arcade_reconcile_passes_total` | counter | `kind` (`books`, `payments`, `cashouts`) |
//! | `arcade_rpc_errors_total` | counter | `kind` (`unavailable`, `refused`) |
//! | `arcade_http_requests_total` | counter | `method` (HTTP's own or `other`), `route` (a template or `unmatched`), `status` |
//! | `arcade_http_request_duration_seconds` | histogram | `method`, `route` |
//! | `arcade_play_queue_seconds` | histogram | |
//! | `arcade_play_batch_seconds`, `arcade_play_batch_plays` | histogram | |
//! | `arcade_mcp_sessions` | gauge | |
//! | `arcade_mcp_sessions_opened_total` | counter | |
//! | `arcade_rate_limited_total` | counter | `bucket` |
//! | `arcade_house_gas_wei`, `arcade_house_token_base_units` | gauge | |
//! | `arcade_house_below_floor` | gauge (0 or 1) | `balance` (`gas`, `token`) |

use std::sync::OnceLock;
use std::time::Duration;

use alloy::primitives::U256;
use metrics::{
    Unit, counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram,
};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

const HTTP_DURATION: &str = "arcade_http_request_duration_seconds";
/// Request latency buckets, in seconds: from a cached read to a settlement's wait.
const HTTP_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

const PLAY_QUEUE: &str = "arcade_play_queue_seconds";
const PLAY_BATCH: &str = "arcade_play_batch_seconds";
const PLAY_BATCH_PLAYS: &str = "arcade_play_batch_plays";
/// A play's wait and a batch's time, in seconds: finer than `HTTP_BUCKETS` where a settled
/// play's few milliseconds go.
const PLAY_BUCKETS: [f64; 15] = [
    0.00025, 0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 1.0,
    10.0,
];
/// Plays per batch: from one at a time to the writer's most.
const BATCH_SIZE_BUCKETS: [f64; 9] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the process's recorder (once; later calls return the same handle). Until it is
/// installed, recording is a no-op.
pub fn install() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full(HTTP_DURATION.into()), &HTTP_BUCKETS)
            .and_then(|b| b.set_buckets_for_metric(Matcher::Full(PLAY_QUEUE.into()), &PLAY_BUCKETS))
            .and_then(|b| b.set_buckets_for_metric(Matcher::Full(PLAY_BATCH.into()), &PLAY_BUCKETS))
            .and_then(|b| {
                b.set_buckets_for_metric(
                    Matcher::Full(PLAY_BATCH_PLAYS.into()),
                    &BATCH_SIZE_BUCKETS,
                )
            })
            // At start; the bucket lists are non-empty constants, the one thing it checks.
            .expect("the buckets are not empty")
            .build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("another metrics recorder is installed; /metrics stays empty");
        }
        describe();
        handle
    })
}

/// The metrics in Prometheus' text format, or `None` before [`install`].
pub fn render() -> Option<String> {
    HANDLE.get().map(PrometheusHandle::render)
}

/// Folds histograms' recent samples; the exporter needs it now and then.
pub fn spawn_upkeep() -> tokio::task::JoinHandle<()> {
    tokio::spawn(async {
        loop {
            tokio::time::sleep(Duration::from_secs(5)).await;
            if let Some(handle) = HANDLE.get() {
                handle.run_upkeep();
            }
        }
    })
}

fn describe() {
    describe_play();
    describe_payments();
    describe_http();
    describe_play_batches();
    describe_sessions_and_limits();
    describe_treasury();
}

/// Rounds settled and the chips they moved.
fn describe_play() {
    describe_counter!(
        "arcade_rounds_settled_total",
        "Rounds played and settled, by game."
    );
    describe_counter!(
        "arcade_chips_wagered_total",
        Unit::Count,
        "Chips wagered, by game."
    );
    describe_counter!(
        "arcade_chips_paid_out_total",
        Unit::Count,
        "Chips paid out to players (stake included), by game."
    );
    describe_counter!(
        "arcade_chips_granted_total",
        Unit::Count,
        "Free chips granted."
    );
}

/// Purchases, cashouts and the reconciler that finishes them.
fn describe_payments() {
    describe_counter!(
        "arcade_purchases_total",
        "Chip purchases that reached a final state, by state."
    );
    describe_counter!(
        "arcade_cashouts_total",
        "Cashouts that reached a final state, by state."
    );
    describe_gauge!(
        "arcade_pending",
        "Payments settling and cashouts not yet confirmed, by kind."
    );
    describe_gauge!(
        "arcade_pending_oldest_age_seconds",
        Unit::Seconds,
        "Age of the oldest pending payment or cashout, by kind (0: none)."
    );
    describe_counter!(
        "arcade_reconcile_passes_total",
        "Reconciler passes over unfinished payments and cashouts."
    );
    describe_counter!(
        "arcade_rpc_errors_total",
        "Chain RPC calls without an answer (unavailable) or refused by the node."
    );
}

/// Requests answered over HTTP.
fn describe_http() {
    describe_counter!(
        "arcade_http_requests_total",
        "HTTP requests answered, by method, route and status."
    );
    describe_histogram!(
        HTTP_DURATION,
        Unit::Seconds,
        "HTTP request latency, by method and route."
    );
}

/// The writer's batches of plays.
fn describe_play_batches() {
    describe_histogram!(
        PLAY_QUEUE,
        Unit::Seconds,
        "Time a play waited for the writer to take it into a batch."
    );
    describe_histogram!(
        PLAY_BATCH,
        Unit::Seconds,
        "Time the writer took to settle and commit one batch of plays."
    );
    describe_histogram!(
        PLAY_BATCH_PLAYS,
        Unit::Count,
        "Plays settled together in one batch (one transaction)."
    );
}

/// MCP sessions and requests refused by a rate limit.
fn describe_sessions_and_limits() {
    describe_gauge!("arcade_mcp_sessions", "Live MCP sessions.");
    describe_counter!("arcade_mcp_sessions_opened_total", "MCP sessions opened.");
    describe_counter!(
        "arcade_rate_limited_total",
        "Requests refused by a rate limit, by bucket."
    );
}

/// The house's balances at the last treasury check.
fn describe_treasury() {
    describe_gauge!(
        "arcade_house_gas_wei",
        "The house's native balance (wei) at the last treasury check."
    );
    describe_gauge!(
        "arcade_house_token_base_units",
        "The house's token balance (base units) at the last treasury check."
    );
    describe_gauge!(
        "arcade_house_below_floor",
        "1 while the house's balance is under its floor, by balance (gas, token)."
    );
}

/// One play settled: its wager and what it paid back (0 on a loss).
pub fn round_settled(game: &str, wager: i64, payout: i64) {
    let game = game.to_owned();
    counter!("arcade_rounds_settled_total", "game" => game.clone()).increment(1);
    counter!("arcade_chips_wagered_total", "game" => game.clone()).increment(wager.unsigned_abs());
    counter!("arcade_chips_paid_out_total", "game" => game).increment(payout.unsigned_abs());
}

pub fn chips_granted(chips: i64) {
    counter!("arcade_chips_granted_total").increment(chips.unsigned_abs());
}

pub fn purchase_finished(state: &'static str) {
    counter!("arcade_purchases_total", "state" => state).increment(1);
}

pub fn cashout_finished(state: &'static str) {
    counter!("arcade_cashouts_total", "state" => state).increment(1);
}

/// `count` rows of `kind` unfinished, the oldest created `oldest_age` ago.
pub fn pending(kind: &'static str, count: i64, oldest_age: Duration) {
    gauge!("arcade_pending", "kind" => kind).set(count as f64);
    gauge!("arcade_pending_oldest_age_seconds", "kind" => kind).set(oldest_age.as_secs_f64());
}

pub fn reconcile_pass(kind: &'static str) {
    counter!("arcade_reconcile_passes_total", "kind" => kind).increment(1);
}

pub fn rpc_error(kind: &'static str) {
    counter!("arcade_rpc_errors_total", "kind" => kind).increment(1);
}

/// One answered request. `method` is one of HTTP's own methods or `other`, `route` the matched
/// route's template or `unmatched`: labels from fixed sets, so invented methods and paths add
/// no series.
pub fn http_request(method: &str, route: String, status: u16, elapsed: Duration) {
    let method = method_label(method);
    counter!("arcade_http_requests_total", "method" => method, "route" => route.clone(), "status" => status.to_string())
        .increment(1);
    histogram!(HTTP_DURATION, "method" => method, "route" => route).record(elapsed.as_secs_f64());
}

/// The methods HTTP defines keep their name; any other is `other`.
fn method_label(method: &str) -> &'static str {
    const KNOWN: [&str; 9] = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE",
    ];
    KNOWN
        .into_iter()
        .find(|known| *known == method)
        .unwrap_or("other")
}

/// The writer took a batch of plays that had waited `waits` in its queue.
pub fn play_batch_taken(waits: impl Iterator<Item = Duration>) {
    let queue = histogram!(PLAY_QUEUE);
    let mut plays = 0_u32;
    for wait in waits {
        queue.record(wait.as_secs_f64());
        plays += 1;
    }
    histogram!(PLAY_BATCH_PLAYS).record(f64::from(plays));
}

/// The writer settled (or gave up on) one batch in `elapsed`, its retries included.
pub fn play_batch_settled(elapsed: Duration) {
    histogram!(PLAY_BATCH).record(elapsed.as_secs_f64());
}

pub fn mcp_session_opened(live: usize) {
    counter!("arcade_mcp_sessions_opened_total").increment(1);
    mcp_sessions(live);
}

pub fn mcp_sessions(live: usize) {
    gauge!("arcade_mcp_sessions").set(live as f64);
}

pub fn rate_limited(bucket: &'static str) {
    counter!("arcade_rate_limited_total", "bucket" => bucket).increment(1);
}

/// The house's balances as last read, and whether each is under its floor.
pub fn house_balances(gas_wei: U256, token: U256, gas_low: bool, token_low: bool) {
    gauge!("arcade_house_gas_wei").set(f64::from(gas_wei));
    gauge!("arcade_house_token_base_units").set(f64::from(token));
    gauge!("arcade_house_below_floor", "balance" => "gas").set(f64::from(u8::from(gas_low)));
    gauge!("arcade_house_below_floor", "balance" => "token").set(f64::from(u8::from(token_low)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invented_methods_share_one_label() {
        assert_eq!(method_label("GET"), "GET");
        assert_eq!(method_label("DELETE"), "DELETE");
        for invented in ["BREW", "get", "PROPFIND", "X".repeat(1_000).as_str()] {
            assert_eq!(method_label(invented), "other");
        }
    }
}
