use serde_json::json;

use crate::helpers::{Backend, TestApp};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openapi_document_describes_every_route() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let doc = app.get("/api/openapi.json").await.ok();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    let paths = doc["paths"].as_object().unwrap();
    for path in [
        "/api/arcade/auth-statement/{address}",
        "/api/arcade/free",
        "/api/arcade/balance/{address}",
        "/api/arcade/commit",
        "/api/arcade/flip",
        "/api/arcade/dice",
        "/api/arcade/roulette",
        "/api/arcade/verify/{bet_id}",
        "/api/arcade/games",
        "/api/arcade/recent",
        "/api/arcade/house",
    ] {
        assert!(paths.contains_key(path), "{path} missing");
    }
    let schemas = &doc["components"]["schemas"];
    assert!(schemas["HTTPValidationError"]["properties"]["detail"].is_object());
    let flip_422 = &paths["/api/arcade/flip"]["post"]["responses"]["422"];
    let reference = flip_422["content"]["application/json"]["schema"]["$ref"]
        .as_str()
        .unwrap();
    assert_eq!(reference, "#/components/schemas/HTTPValidationError");
    let flip_body = &paths["/api/arcade/flip"]["post"]["requestBody"];
    assert!(flip_body.is_object(), "the flip body is documented");
    let docs = app
        .client
        .get(format!("{}/api/docs/", app.base_url))
        .send()
        .await
        .unwrap();
    assert_eq!(docs.status(), 200);
}

/// The document states the interface's version and the constraints the server enforces: the
/// same schema checks the request (`inputs`), so what it says is what is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_states_the_interface_version_and_every_constraint() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let doc = app.get("/api/openapi.json").await.ok();
    assert_eq!(doc["info"]["version"], "1.0.0", "the interface's version");
    assert_eq!(doc["info"]["x-server-version"], env!("CARGO_PKG_VERSION"));
    let schemas = &doc["components"]["schemas"];
    let loc = &schemas["ValidationError"]["properties"]["loc"]["items"]["anyOf"];
    assert_eq!(loc, &json!([{ "type": "string" }, { "type": "integer" }]));

    let seed = &schemas["FlipInput"]["properties"]["client_seed"];
    assert_eq!(
        (seed["minLength"].as_u64(), seed["maxLength"].as_u64()),
        (Some(1), Some(256))
    );
    for game in ["FlipInput", "DiceInput", "RouletteInput", "LimboInput"] {
        let wager = &schemas[game]["properties"]["wager"];
        assert_eq!(wager["maximum"], 1000, "{game}: the wager limit");
    }
    // Each game's call rule is in the document, so a request it calls valid is never a 422:
    // a straight bet names its number and no other bet does; limbo's target is the core's
    // pattern as text, or a whole number.
    let roulette = &schemas["RouletteInput"];
    assert_eq!(roulette["if"]["properties"]["bet"]["const"], "straight");
    assert_eq!(roulette["then"]["required"], json!(["number"]));
    assert_eq!(roulette["else"]["properties"]["number"]["type"], "null");
    let target = &schemas["LimboInput"]["properties"]["target"]["anyOf"];
    assert_eq!(target[0]["pattern"], arcade_core::limbo::TARGET_PATTERN);
    assert_eq!(
        (
            &target[1]["type"],
            &target[1]["minimum"],
            &target[1]["maximum"]
        ),
        (&json!("integer"), &json!(2), &json!(1_000_000))
    );
    let chips = &schemas["CashoutInput"]["properties"]["chips"];
    assert_eq!(
        (chips["minimum"].as_i64(), chips["maximum"].as_i64()),
        (Some(100), Some(250_000))
    );
    let parameter = |path: &str, method: &str, name: &str| {
        doc["paths"][path][method]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()["schema"]
            .clone()
    };
    let address = parameter("/api/arcade/balance/{address}", "get", "address");
    assert_eq!(address["pattern"], "^0[xX][0-9a-fA-F]{40}$");
    let limit = parameter("/api/arcade/recent", "get", "limit");
    assert_eq!(limit["maximum"], 100);
    let bet_id = parameter("/api/arcade/verify/{bet_id}", "get", "bet_id");
    assert_eq!(bet_id["maximum"], i64::MAX);
    // One operation per tier, each at its fixed price (`payment_info`).
    for tier in ["micro", "small", "medium"] {
        let path = format!("/api/arcade/chips/{tier}");
        assert!(
            doc["paths"][&path]["post"]["x-payment-info"].is_object(),
            "{path}"
        );
    }
    assert!(doc["paths"].get("/api/arcade/chips/{tier}").is_none());

    let link = &doc["paths"]["/api/arcade/commit"]["post"]["responses"]["200"]["links"]["flip"];
    assert_eq!(link["operationRef"], "#/paths/~1api~1arcade~1flip/post");
}

/// A browser MCP client on an allowed origin can send and read the session headers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cors_lets_browsers_speak_mcp() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let preflight = app
        .client
        .request(
            reqwest::Method::OPTIONS,
            format!("{}/api/mcp", app.base_url),
        )
        .header("origin", &app.base_url)
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "mcp-session-id, mcp-protocol-version",
        )
        .send()
        .await
        .unwrap();
    let allowed = preflight.headers()["access-control-allow-headers"]
        .to_str()
        .unwrap();
    assert!(allowed.contains("mcp-session-id") && allowed.contains("mcp-protocol-version"));
    let answer = app
        .client
        .get(format!("{}/api/arcade/games", app.base_url))
        .send()
        .await
        .unwrap();
    let exposed = answer.headers()["access-control-expose-headers"]
        .to_str()
        .unwrap();
    assert!(
        exposed.contains("mcp-session-id") && exposed.contains("mcp-protocol-version"),
        "{exposed}"
    );
}
