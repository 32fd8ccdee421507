//! A minimal MCP Streamable HTTP client, speaking the protocol as the official clients do:
//! `initialize`, the `initialized` notification, then `tools/call`s on the session. The official
//! SDK clients themselves run in the Node and Python suites.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

const PROTOCOL: &str = "2025-11-25";

pub struct McpSession {
    client: reqwest::Client,
    url: String,
    pub id: String,
    /// Sent with every request (e.g. `X-Forwarded-For` in the rate-limit tests).
    headers: Vec<(&'static str, String)>,
    next_id: AtomicU64,
}

impl McpSession {
    pub async fn open(base_url: &str) -> Self {
        Self::open_with(base_url, Vec::new()).await
    }

    pub async fn open_with(base_url: &str, headers: Vec<(&'static str, String)>) -> Self {
        let mut session = Self {
            client: reqwest::Client::new(),
            url: format!("{base_url}/api/mcp"),
            id: String::new(),
            headers,
            next_id: AtomicU64::new(2),
        };
        let initialized = session
            .post(
                json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": PROTOCOL, "capabilities": {},
                "clientInfo": { "name": "arcade-api-tests", "version": "1" } } }),
            )
            .await;
        assert_eq!(initialized.status(), 200, "initialize");
        session.id = initialized.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        json_rpc_result(&initialized.text().await.unwrap());
        let notified = session
            .post(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await;
        assert!(notified.status().is_success(), "initialized notification");
        session
    }

    /// A `tools/call`: its `result` (`isError` set for a tool error).
    pub async fn call(&self, tool: &str, arguments: Value) -> Value {
        let (status, text) = self.call_raw(tool, arguments).await;
        assert_eq!(status, 200, "{tool}: {text}");
        json_rpc_result(&text)
    }

    /// A `tools/call` with the request's `_meta` (the x402 payment travels there).
    pub async fn call_with_meta(&self, tool: &str, arguments: Value, meta: Value) -> Value {
        let params = json!({ "name": tool, "arguments": arguments, "_meta": meta });
        let (status, text) = self.call_params(params).await;
        assert_eq!(status, 200, "{tool}: {text}");
        json_rpc_result(&text)
    }

    /// A `tools/call` as HTTP status and body text (a session that ended answers 404).
    pub async fn call_raw(&self, tool: &str, arguments: Value) -> (u16, String) {
        self.call_params(json!({ "name": tool, "arguments": arguments }))
            .await
    }

    /// Any other request on the session (`tools/list`, …): its `result`.
    pub async fn request(&self, method: &str, params: Value) -> Value {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let response = self
            .post(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        assert_eq!(response.status(), 200, "{method}");
        json_rpc_result(&response.text().await.unwrap())
    }

    async fn call_params(&self, params: Value) -> (u16, String) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let response = self
            .post(json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }))
            .await;
        let status = response.status().as_u16();
        (status, response.text().await.unwrap())
    }

    async fn post(&self, body: Value) -> reqwest::Response {
        let mut request = self
            .client
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .json(&body);
        if !self.id.is_empty() {
            request = request
                .header("mcp-session-id", &self.id)
                .header("mcp-protocol-version", PROTOCOL);
        }
        for (name, value) in &self.headers {
            request = request.header(*name, value);
        }
        request.send().await.unwrap()
    }
}

/// The structured content of a successful tool result.
pub fn structured(result: &Value) -> &Value {
    assert_ne!(result["isError"], true, "a tool error: {result}");
    &result["structuredContent"]
}

/// The error code of a tool error.
pub fn tool_error(result: &Value) -> &str {
    assert_eq!(result["isError"], true, "not a tool error: {result}");
    result["structuredContent"]["code"]
        .as_str()
        .unwrap_or_default()
}

/// The `result` of a JSON-RPC answer sent as JSON or as server-sent events.
pub fn json_rpc_result(text: &str) -> Value {
    let message: Value = text
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str(data.trim()).ok())
        .find(|message: &Value| message.get("result").is_some() || message.get("error").is_some())
        .or_else(|| serde_json::from_str(text).ok())
        .unwrap_or_else(|| panic!("no JSON-RPC answer in {text}"));
    message["result"].clone()
}
