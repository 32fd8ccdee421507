//! `GET /server.json`: this deployment as an entry of the MCP registry (its `server.json`, the
//! registry's schema of 2025-12-11), filled with the public URL: one streamable-HTTP remote at
//! `/api/mcp`. Its `name` is the public host in reverse-DNS form (the registry's namespace for
//! a domain whose owner proves it over HTTP or DNS), then `/arcade`; its `version` is the
//! server's, as MCP's `initialize` names it.

use salvo::prelude::*;
use serde_json::{Value, json};

use super::edge::shared;
use crate::error::ApiError;

/// The registry's schema this document follows.
pub const SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// What the arcade does, within the registry's 100 characters: its games are the core's.
fn description() -> String {
    format!(
        "Provably fair arcade for agents: x402 chips, {}, every round verifiable",
        arcade_core::Game::NAMES.join(", ")
    )
}

#[handler]
pub async fn server_json(depot: &mut Depot, res: &mut Response) -> Result<(), ApiError> {
    let base_url = &shared(depot)?.base_url;
    res.add_header("cache-control", "public, max-age=300", true)
        .map_err(ApiError::internal)?;
    res.render(Json(document(base_url)));
    Ok(())
}

/// The `server.json` of the arcade served at `base_url`.
pub fn document(base_url: &str) -> Value {
    json!({
        "$schema": SCHEMA,
        "name": registry_name(base_url),
        "description": description(),
        "version": env!("CARGO_PKG_VERSION"),
        "websiteUrl": format!("{base_url}/"),
        "remotes": [{ "type": "streamable-http", "url": format!("{base_url}/api/mcp") }],
    })
}

/// `arcade.example.com` → `com.example.arcade/arcade`: the host's labels reversed (a port is
/// not part of a namespace).
fn registry_name(base_url: &str) -> String {
    let host = base_url
        .split_once("://")
        .map_or(base_url, |(_, rest)| rest)
        .split(['/', ':'])
        .next()
        .unwrap_or_default();
    let namespace: Vec<&str> = host.rsplit('.').filter(|label| !label.is_empty()).collect();
    format!("{}/arcade", namespace.join("."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_is_the_public_host_in_reverse_dns_form() {
        assert_eq!(
            registry_name("https://arcade.example.com"),
            "com.example.arcade/arcade"
        );
        assert_eq!(registry_name("http://127.0.0.1:8402"), "1.0.0.127/arcade");
        assert_eq!(
            registry_name("https://play.example.org/base"),
            "org.example.play/arcade"
        );
    }

    #[test]
    fn the_description_fits_the_registry() {
        assert!(description().len() <= 100, "{}", description().len());
        assert_eq!(
            description(),
            "Provably fair arcade for agents: x402 chips, coinflip, dice, roulette, limbo, every round verifiable"
        );
    }

    #[test]
    fn the_one_remote_is_the_streamable_http_endpoint() {
        let doc = document("https://arcade.example.com");
        assert_eq!(
            doc["remotes"],
            json!([{"type": "streamable-http", "url": "https://arcade.example.com/api/mcp"}])
        );
    }
}
