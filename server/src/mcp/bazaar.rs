//! Bazaar's MCP-tool form (x402 v2 `specs/extensions/bazaar.md`, `info.input.type = "mcp"`) for
//! the MCP challenge of `arcade_buy_chips`: `info.input` names the tool, its transport, its input
//! schema (as the tool publishes it) and an example call; `info.output` an example purchase;
//! `schema` validates `info`.
//! Shaped as npm `@x402/extensions` `declareDiscoveryExtension({ toolName, … })` shapes it (its
//! `transport` enum is the one transport declared; the PyPI helper lists both transports).

use serde_json::{Map, Value, json};

use super::arguments::published;
use crate::inputs::chips::TierPath;
use crate::inputs::schema;
use crate::service::purchases::Purchase;
use crate::tiers::Tier;
use crate::x402::Terms;

/// The transport the tool is served over (`/api/mcp`).
const TRANSPORT: &str = "streamable-http";
/// JSON Schema's dialect, as the bazaar extension requires it.
const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The `bazaar` extension of the tool `tool_name`, described by `description`, buying `tier`.
pub fn extension(terms: &Terms, tier: &Tier, tool_name: &str, description: &str) -> Value {
    let example = serde_json::to_value(Purchase::example(tier, terms)).unwrap_or_default();
    json!({
        "info": {
            "input": {
                "type": "mcp",
                "toolName": tool_name,
                "description": description,
                "transport": TRANSPORT,
                "inputSchema": Value::Object(published(&schema::of::<TierPath>())),
                "example": { "tier": tier.name },
            },
            "output": { "type": "json", "example": example },
        },
        "schema": info_schema(),
    })
}

/// The schema of `info`: the input's fields as the helpers type them, the output's example as a
/// purchase.
fn info_schema() -> Value {
    let mut purchase: Map<String, Value> = schema::of::<Purchase>().as_ref().clone();
    purchase.insert("type".into(), json!("object"));
    json!({
        "$schema": DIALECT,
        "type": "object",
        "properties": {
            "input": {
                "type": "object",
                "properties": {
                    "type": { "type": "string", "const": "mcp" },
                    "toolName": { "type": "string" },
                    "description": { "type": "string" },
                    "transport": { "type": "string", "enum": [TRANSPORT] },
                    "inputSchema": { "type": "object" },
                    "example": { "type": "object" },
                },
                "required": ["type", "toolName", "inputSchema"],
                "additionalProperties": false,
            },
            "output": {
                "type": "object",
                "properties": {
                    "type": { "type": "string" },
                    "example": purchase,
                },
                "required": ["type"],
            },
        },
        "required": ["input"],
    })
}

#[cfg(test)]
mod tests {
    use alloy::primitives::Address;

    use super::*;
    use crate::tiers::TIERS;

    #[test]
    fn the_example_call_and_answer_name_the_tier() {
        let terms = Terms {
            network: "eip155:8453".into(),
            asset: Address::repeat_byte(0x83),
            pay_to: Address::repeat_byte(0x20),
            token_name: "USD Coin".into(),
            token_version: "2".into(),
            max_timeout_seconds: 300,
        };
        for tier in &TIERS {
            let bazaar = extension(&terms, tier, "arcade_buy_chips", "buys chips");
            assert_eq!(
                bazaar["info"]["input"]["example"],
                json!({ "tier": tier.name })
            );
            assert_eq!(bazaar["info"]["output"]["example"]["tier"], tier.name);
            let properties = &bazaar["schema"]["properties"]["input"]["properties"];
            let info = bazaar["info"]["input"].as_object().unwrap();
            assert!(
                info.keys().all(|key| properties.get(key).is_some()),
                "{info:?}"
            );
        }
    }
}
