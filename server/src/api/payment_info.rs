//! What the OpenAPI document tells x402 indexers and schema-driven clients beyond what salvo
//! generates from the routes, following x402scan's `docs/DISCOVERY.md` ("A) OpenAPI-First
//! Discovery") and the profile its validator implements (npm `@agentcash/discovery`,
//! `docs/SPECIFICATION.md` §6-§8):
//! - each paid operation declares `x-payment-info` (`price: {mode: "fixed", currency: "USD",
//!   amount}` in decimal dollars, as the profile prices; `protocols: [{x402: {…}}]` with the
//!   offer's network, asset, `payTo` and amount in token base units), `security: []` (no key:
//!   paid by x402 alone) and its 402 response;
//! - the tier route is one operation per tier (`/api/arcade/chips/micro`, …), so that each has
//!   its fixed price and a URL an indexer can probe;
//! - the payment headers are declared as what the server decodes: non-empty standard base64;
//! - a wager's maximum is the limit every game applies (`Limits`); above it, and above a
//!   call's payout limit, the answer is 400 `wager_above_limit` or `payout_above_limit`;
//! - `x-discovery.ownershipProofs` at the top, when the deployment has them (`x402::ownership`),
//!   and `info.x-guidance`, where an agent starts.

use arcade_core::{Game, Limits};
use serde_json::{Value, json};

use super::discovery::ChipsResource;
use crate::inputs::games::endpoint;
use crate::tiers::{TIERS, Tier};
use crate::x402::{PAYMENT_HEADERS, SCHEME, Terms, X402_VERSION};

/// Standard base64 (padded), at least one group: what `PAYMENT-SIGNATURE` and `X-PAYMENT` carry.
pub const BASE64_PATTERN: &str =
    "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$";

/// Where an agent starts, in a line (`info.x-guidance`).
const GUIDANCE: &str = "Buy chips with x402 at /api/arcade/chips (or /api/arcade/chips/{micro,small,medium}); the 402's extensions[\"spend-controls\"] says how to allow the token. Then prove an address (GET /api/arcade/auth-statement/{address}), commit, play, verify and cash out: /llms.txt has the whole flow, /rules.md the fairness rules.";

/// The tier route as the generated document names it.
const TIER_PATH: &str = "/api/arcade/chips/{tier}";

/// Adds the payment, limit and ownership metadata to the generated document.
pub fn annotate(doc: &mut Value, terms: Option<&Terms>, ownership_proofs: &[String]) {
    split_tier_route(doc);
    for resource in ChipsResource::all() {
        let path = resource.path();
        for method in ["get", "post"] {
            if let Some(operation) = doc["paths"][&path].get_mut(method) {
                paid(operation, resource.tier(), terms);
            }
        }
    }
    declare_wager_maximum(doc, Limits::SPEC.max_wager_chips);
    doc["info"]["x-guidance"] = json!(GUIDANCE);
    if !ownership_proofs.is_empty() {
        doc["x-discovery"] = json!({ "ownershipProofs": ownership_proofs });
    }
}

/// Replaces the tier route by one path per tier, without the `tier` parameter.
fn split_tier_route(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    let Some(Value::Object(route)) = paths.remove(TIER_PATH) else {
        return;
    };
    for tier in &TIERS {
        let mut item = route.clone();
        for (method, operation) in item.iter_mut() {
            if let Some(parameters) = operation
                .get_mut("parameters")
                .and_then(Value::as_array_mut)
            {
                parameters.retain(|p| p["name"] != "tier");
            }
            operation["operationId"] = json!(format!("buy_{}_{method}", tier.name));
            operation["summary"] = json!(format!(
                "Buy the {} tier: {} chips for {} over x402",
                tier.name,
                tier.chips,
                tier.price_text()
            ));
        }
        paths.insert(ChipsResource::Tier(tier).path(), Value::Object(item));
    }
}

/// One paid operation: its price, its protocol, no key, a 402, and the payment headers' form.
fn paid(operation: &mut Value, tier: &Tier, terms: Option<&Terms>) {
    let x402 = terms.map_or_else(
        || json!({}),
        |terms| {
            json!({
                "version": X402_VERSION,
                "scheme": SCHEME,
                "network": terms.network,
                "asset": terms.asset.to_checksum(None),
                "payTo": terms.pay_to.to_checksum(None),
                "amount": tier.price_base_units().to_string(),
            })
        },
    );
    operation["x-payment-info"] = json!({
        "price": {
            "mode": "fixed",
            "currency": "USD",
            "amount": tier.price_text().trim_start_matches('$'),
        },
        "protocols": [{ "x402": x402 }],
    });
    operation["security"] = json!([]);
    if operation["responses"].get("402").is_none() {
        operation["responses"]["402"] = json!({ "description": "Payment Required" });
    }
    if let Some(parameters) = operation
        .get_mut("parameters")
        .and_then(Value::as_array_mut)
    {
        for parameter in parameters.iter_mut().filter(|p| is_payment_header(p)) {
            parameter["schema"] = json!({
                "type": "string",
                "minLength": 4,
                "pattern": BASE64_PATTERN,
            });
        }
    }
}

fn is_payment_header(parameter: &Value) -> bool {
    parameter["in"] == "header"
        && parameter["name"]
            .as_str()
            .is_some_and(|name| PAYMENT_HEADERS.contains(&name.to_ascii_lowercase().as_str()))
}

/// Sets `maximum` on every game's `wager`, wherever its body schema is (inline or a component).
fn declare_wager_maximum(doc: &mut Value, max: u64) {
    let mut schemas = Vec::new();
    for game in Game::ALL {
        let path = format!("/api/arcade/{}", endpoint(game));
        let body =
            &doc["paths"][&path]["post"]["requestBody"]["content"]["application/json"]["schema"];
        match body["$ref"].as_str() {
            Some(reference) => schemas.push(reference.trim_start_matches('#').to_owned()),
            None => schemas.push(format!(
                "/paths/{}/post/requestBody/content/application~1json/schema",
                path.replace('/', "~1")
            )),
        }
    }
    for pointer in schemas {
        if let Some(wager) = doc
            .pointer_mut(&format!("{pointer}/properties/wager"))
            .filter(|w| w.is_object())
        {
            wager["maximum"] = json!(max);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::discovery::tests::terms;

    fn generated() -> Value {
        let operation = json!({
            "parameters": [
                { "name": "tier", "in": "path" },
                { "name": "PAYMENT-SIGNATURE", "in": "header", "schema": { "type": "string" } },
                { "name": "X-PAYMENT", "in": "header", "schema": { "type": "string" } },
            ],
            "responses": { "200": {} },
        });
        json!({ "info": {}, "paths": {
            "/api/arcade/chips": { "get": operation.clone(), "post": operation.clone() },
            "/api/arcade/chips/{tier}": { "get": operation.clone(), "post": operation },
        } })
    }

    #[test]
    fn every_tier_is_a_paid_operation_at_a_fixed_price() {
        let mut doc = generated();
        annotate(&mut doc, Some(&terms()), &[]);
        assert!(doc["paths"].get(TIER_PATH).is_none());
        assert!(doc.get("x-discovery").is_none(), "no proof, no x-discovery");
        for (path, dollars, units) in [
            ("/api/arcade/chips", "0.10", "100000"),
            ("/api/arcade/chips/micro", "0.01", "10000"),
            ("/api/arcade/chips/medium", "1.00", "1000000"),
        ] {
            let post = &doc["paths"][path]["post"];
            let info = &post["x-payment-info"];
            assert_eq!(
                info["price"],
                json!({ "mode": "fixed", "currency": "USD", "amount": dollars })
            );
            assert_eq!(info["protocols"][0]["x402"]["amount"], units, "{path}");
            assert_eq!(post["security"], json!([]));
            assert!(post["responses"]["402"].is_object());
            let header = &post["parameters"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == "PAYMENT-SIGNATURE")
                .unwrap()["schema"];
            assert_eq!(header["pattern"], BASE64_PATTERN);
        }
        let micro = &doc["paths"]["/api/arcade/chips/micro"]["get"]["parameters"];
        assert!(
            micro
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["name"] != "tier")
        );
    }

    #[test]
    fn proofs_go_in_x_discovery() {
        let mut doc = generated();
        annotate(&mut doc, None, &["0xab".to_owned()]);
        assert_eq!(doc["x-discovery"]["ownershipProofs"], json!(["0xab"]));
        let info = &doc["paths"]["/api/arcade/chips"]["get"]["x-payment-info"];
        assert_eq!(info["protocols"], json!([{ "x402": {} }]));
    }

    #[test]
    fn the_pattern_takes_standard_base64_and_nothing_else() {
        let pattern = regex::Regex::new(BASE64_PATTERN).unwrap();
        for good in ["e30=", "eyJhIjoxfQ==", "abcd", "ab+/"] {
            assert!(pattern.is_match(good), "{good}");
        }
        for bad in ["", "e30", "e3=0", "ab-_", "abcd\n", "====", "a===", " abcd"] {
            assert!(!pattern.is_match(bad), "{bad}");
        }
    }
}
