//! What stands between a test server and its anvil, so a test can make the RPC misbehave the
//! ways a real provider does: a loopback TCP proxy that can be cut (the RPC unreachable), in
//! front of a JSON-RPC shim that answers on any path (providers put API keys in the path) and
//! can lag: hide receipts (a lagging RPC answers null for a mined transaction) and answer
//! transaction counts from before (a node some blocks behind), or refuse every call with 429
//! (a hosted RPC's rate limit); answer logs short (empty, as a node behind does) or refuse wide
//! log ranges (a provider's cap), and hide transactions. Both count what reaches them: what a
//! failure costs.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// The RPC path a test server is given: the TCP proxy, then the shim, then anvil.
pub struct Rpc {
    pub proxy: RpcProxy,
    pub shim: RpcShim,
}

impl Rpc {
    pub async fn start(anvil_url: &str) -> Self {
        let shim = RpcShim::start(anvil_url).await;
        let proxy = RpcProxy::start(shim.port).await;
        Self { proxy, shim }
    }
}

/// A loopback TCP proxy. Down, it drops every connection, open or new: to the server, the
/// chain's RPC is unreachable.
pub struct RpcProxy {
    port: u16,
    up: watch::Sender<bool>,
    /// Connections accepted, up or down.
    pub connections: Arc<AtomicU64>,
}

impl RpcProxy {
    async fn start(upstream_port: u16) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (up, watching) = watch::channel(true);
        let connections = Arc::new(AtomicU64::new(0));
        let counted = Arc::clone(&connections);
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                counted.fetch_add(1, Ordering::SeqCst);
                let mut down = watching.clone();
                if !*down.borrow() {
                    continue;
                }
                tokio::spawn(async move {
                    let Ok(mut outbound) = TcpStream::connect(("127.0.0.1", upstream_port)).await
                    else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = down.wait_for(|up| !*up) => {}
                    }
                });
            }
        });
        Self {
            port,
            up,
            connections,
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn set_up(&self, up: bool) {
        self.up.send_replace(up);
    }
}

/// Forwards JSON-RPC posted on any path to anvil's root; can answer every
/// `eth_getTransactionReceipt` with null, as a lagging provider does.
pub struct RpcShim {
    port: u16,
    hide_receipts: Arc<AtomicBool>,
    stale_count: Arc<AtomicU64>,
    rate_limited: Arc<AtomicBool>,
    lies: Arc<Lies>,
    /// JSON-RPC requests that reached the shim (answered or refused).
    pub calls: Arc<AtomicU64>,
}

/// How the shim answers logs and transactions short.
struct Lies {
    /// Every `eth_getLogs` answers no logs.
    empty_logs: AtomicBool,
    /// `eth_getLogs` over more blocks than this is refused as over the provider's cap (0: none).
    logs_range_cap: AtomicU64,
    /// `eth_getLogs` over a range holding this block is refused (`NOT_STALE`: none), as a
    /// provider refuses a block stuffed with more transfers than it answers.
    stuffed_block: AtomicU64,
    /// `eth_getTransactionByHash` and full blocks answer null.
    hide_transactions: AtomicBool,
    /// Requests by method.
    methods: Mutex<HashMap<String, u64>>,
}

impl Default for Lies {
    fn default() -> Self {
        Self {
            empty_logs: AtomicBool::default(),
            logs_range_cap: AtomicU64::default(),
            stuffed_block: AtomicU64::new(NOT_STALE),
            hide_transactions: AtomicBool::default(),
            methods: Mutex::default(),
        }
    }
}

struct Upstream {
    url: String,
    client: reqwest::Client,
    hide_receipts: Arc<AtomicBool>,
    rate_limited: Arc<AtomicBool>,
    lies: Arc<Lies>,
    calls: Arc<AtomicU64>,
    /// `NOT_STALE`, or the transaction count every `eth_getTransactionCount` answers.
    stale_count: Arc<AtomicU64>,
}

const NOT_STALE: u64 = u64::MAX;

impl RpcShim {
    pub async fn start(anvil_url: &str) -> Self {
        let hide_receipts = Arc::new(AtomicBool::new(false));
        let stale_count = Arc::new(AtomicU64::new(NOT_STALE));
        let rate_limited = Arc::new(AtomicBool::new(false));
        let calls = Arc::new(AtomicU64::new(0));
        let lies = Arc::new(Lies::default());
        let upstream = Arc::new(Upstream {
            lies: Arc::clone(&lies),
            url: anvil_url.to_owned(),
            client: reqwest::Client::new(),
            hide_receipts: Arc::clone(&hide_receipts),
            stale_count: Arc::clone(&stale_count),
            rate_limited: Arc::clone(&rate_limited),
            calls: Arc::clone(&calls),
        });
        let app = axum::Router::new().fallback(forward).with_state(upstream);
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self {
            port,
            hide_receipts,
            stale_count,
            rate_limited,
            lies,
            calls,
        }
    }

    /// While set, every `eth_getLogs` answers an empty list (a node behind, a short answer).
    pub fn empty_logs(&self, empty: bool) {
        self.lies.empty_logs.store(empty, Ordering::SeqCst);
    }

    /// While `Some(n)`, `eth_getLogs` over more than `n` blocks is refused with the error a
    /// provider gives past its cap on results.
    pub fn cap_log_ranges(&self, blocks: Option<u64>) {
        self.lies
            .logs_range_cap
            .store(blocks.unwrap_or(0), Ordering::SeqCst);
    }

    /// While `Some(block)`, `eth_getLogs` over any range holding `block` is refused as too large.
    pub fn stuff_block(&self, block: Option<u64>) {
        self.lies
            .stuffed_block
            .store(block.unwrap_or(NOT_STALE), Ordering::SeqCst);
    }

    /// While set, transactions read by hash, and blocks read with their transactions, are null.
    pub fn hide_transactions(&self, hide: bool) {
        self.lies.hide_transactions.store(hide, Ordering::SeqCst);
    }

    /// How many `method` requests reached the shim.
    pub fn method_calls(&self, method: &str) -> u64 {
        let methods = self.lies.methods.lock().unwrap();
        methods.get(method).copied().unwrap_or(0)
    }

    /// While set, every call is answered HTTP 429, as a rate-limited hosted RPC answers.
    pub fn rate_limit(&self, limited: bool) {
        self.rate_limited.store(limited, Ordering::SeqCst);
    }

    /// While `Some(n)`, every transaction count answers `n` (a node from before later
    /// transactions were mined).
    pub fn stale_transaction_count(&self, count: Option<u64>) {
        self.stale_count
            .store(count.unwrap_or(NOT_STALE), Ordering::SeqCst);
    }

    /// While set, every receipt lookup answers null.
    pub fn hide_receipts(&self, hide: bool) {
        self.hide_receipts.store(hide, Ordering::SeqCst);
    }
}

async fn forward(State(upstream): State<Arc<Upstream>>, body: Bytes) -> Response {
    upstream.calls.fetch_add(1, Ordering::SeqCst);
    if upstream.rate_limited.load(Ordering::SeqCst) {
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [("retry-after", "1")],
            "rate limited",
        )
            .into_response();
    }
    let request = serde_json::from_slice::<Value>(&body).unwrap_or_default();
    let answer = |result: Value| {
        axum::Json(json!({ "jsonrpc": "2.0", "id": request["id"], "result": result }))
            .into_response()
    };
    if let Some(lie) = upstream.lies.lie(&request) {
        return axum::Json(lie).into_response();
    }
    if upstream.hide_receipts.load(Ordering::SeqCst)
        && request["method"] == "eth_getTransactionReceipt"
    {
        return answer(Value::Null);
    }
    let stale = upstream.stale_count.load(Ordering::SeqCst);
    if stale != NOT_STALE && request["method"] == "eth_getTransactionCount" {
        return answer(json!(format!("{stale:#x}")));
    }
    let answer = upstream
        .client
        .post(&upstream.url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await;
    match answer {
        Ok(answer) => {
            let status = StatusCode::from_u16(answer.status().as_u16()).unwrap();
            let bytes = answer.bytes().await.unwrap_or_default();
            (status, [("content-type", "application/json")], bytes).into_response()
        }
        Err(_) => StatusCode::BAD_GATEWAY.into_response(),
    }
}

impl Lies {
    /// The short answer to `request`, if one is set for it.
    fn lie(&self, request: &Value) -> Option<Value> {
        let method = request["method"].as_str().unwrap_or_default();
        *self
            .methods
            .lock()
            .unwrap()
            .entry(method.to_owned())
            .or_default() += 1;
        let result =
            |result: Value| json!({ "jsonrpc": "2.0", "id": request["id"], "result": result });
        match method {
            "eth_getLogs" if self.empty_logs.load(Ordering::SeqCst) => Some(result(json!([]))),
            "eth_getLogs" => {
                let cap = self.logs_range_cap.load(Ordering::SeqCst);
                let block = |key: &str| {
                    let text = request["params"][0][key].as_str()?;
                    u64::from_str_radix(text.trim_start_matches("0x"), 16).ok()
                };
                let (from, to) = (block("fromBlock")?, block("toBlock")?);
                let stuffed = (from..=to).contains(&self.stuffed_block.load(Ordering::SeqCst));
                (stuffed || cap > 0 && to.saturating_sub(from) + 1 > cap).then(|| {
                    json!({ "jsonrpc": "2.0", "id": request["id"], "error": {
                        "code": -32602,
                        "message": "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response."
                    } })
                })
            }
            "eth_getTransactionByHash" if self.hide_transactions.load(Ordering::SeqCst) => {
                Some(result(Value::Null))
            }
            "eth_getBlockByNumber"
                if self.hide_transactions.load(Ordering::SeqCst)
                    && request["params"][1] == json!(true) =>
            {
                Some(result(Value::Null))
            }
            _ => None,
        }
    }
}
