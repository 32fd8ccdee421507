//! Malformed requests get the interface's 422 body (`HTTPValidationError`) on every route.

use alloy::signers::local::PrivateKeySigner;
use serde_json::{Value, json};

use crate::helpers::TestApp;
use crate::on_both_backends;

fn body(field: &str) -> [Value; 2] {
    [json!("body"), json!(field)]
}

async fn bodies_are_checked_field_by_field(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    let round_id = app.commit(&player).await;
    let good = json!({ "round_id": round_id, "client_seed": "ok", "wager": 5, "call": "heads" });
    let with = |field: &str, value: Value| {
        let mut b = good.clone();
        b[field] = value;
        b
    };
    let without = |field: &str| {
        let mut b = good.clone();
        b.as_object_mut().unwrap().remove(field);
        b
    };
    let flip = "/api/arcade/flip";
    app.post(flip, &without("round_id"))
        .await
        .invalid(&body("round_id"), "missing");
    app.post(flip, &without("wager"))
        .await
        .invalid(&body("wager"), "missing");
    app.post(flip, &with("wager", json!("5")))
        .await
        .invalid(&body("wager"), "int_type");
    app.post(flip, &with("wager", json!(2.5)))
        .await
        .invalid(&body("wager"), "int_from_float");
    app.post(flip, &with("wager", json!(0)))
        .await
        .invalid(&body("wager"), "greater_than_equal");
    app.post(flip, &with("wager", json!(-3)))
        .await
        .invalid(&body("wager"), "greater_than_equal");
    // A number without a fractional part is an integer (JSON Schema's rule): 1e300 is one,
    // far above the int64 bound.
    app.post(flip, &with("wager", json!(1e300)))
        .await
        .invalid(&body("wager"), "less_than_equal");
    app.post(flip, &with("call", json!("edge")))
        .await
        .invalid(&body("call"), "enum");
    app.post(flip, &with("round_id", json!(7)))
        .await
        .invalid(&body("round_id"), "string_type");
    app.post(flip, &with("client_seed", json!("x".repeat(257))))
        .await
        .invalid(&body("client_seed"), "string_too_long");
    app.post(flip, &with("client_seed", json!("")))
        .await
        .invalid(&body("client_seed"), "value_error");
    app.post(flip, &with("client_seed", json!("tab\there")))
        .await
        .invalid(&body("client_seed"), "value_error");
    app.post(flip, &with("signature", json!(12)))
        .await
        .invalid(&body("signature"), "string_type");
    let all = app
        .post(flip, &json!({}))
        .await
        .invalid(&body("call"), "missing");
    assert_eq!(
        all["detail"].as_array().unwrap().len(),
        4,
        "every problem at once"
    );
    assert_eq!(
        app.chips(player.address()).await,
        100,
        "refusals move no chips"
    );
    app.post(flip, &with("client_seed", json!("é".repeat(256))))
        .await
        .ok();
    // 7.0 is the integer 7, where an integer is asked (JSON Schema's rule, and pydantic's).
    let mut whole = good.clone();
    whole["round_id"] = json!(app.commit(&player).await);
    whole["wager"] = json!(7.0);
    assert_eq!(app.post(flip, &whole).await.ok()["wager"], 7);

    let dice = json!({ "round_id": round_id, "client_seed": "ok", "wager": 5, "target": 0 });
    app.post("/api/arcade/dice", &dice)
        .await
        .invalid(&body("target"), "greater_than_equal");
    let dice = json!({ "round_id": round_id, "client_seed": "ok", "wager": 5, "target": 100 });
    app.post("/api/arcade/dice", &dice)
        .await
        .invalid(&body("target"), "less_than_equal");
    let dice = json!({ "round_id": round_id, "client_seed": "ok", "wager": 5, "target": 50, "direction": "sideways" });
    app.post("/api/arcade/dice", &dice)
        .await
        .invalid(&body("direction"), "enum");
    let roulette = json!({ "round_id": round_id, "client_seed": "ok", "wager": 5, "bet": "straight", "number": 37 });
    app.post("/api/arcade/roulette", &roulette)
        .await
        .invalid(&body("number"), "less_than_equal");
    let roulette =
        json!({ "round_id": round_id, "client_seed": "ok", "wager": 5, "bet": "purple" });
    app.post("/api/arcade/roulette", &roulette)
        .await
        .invalid(&body("bet"), "enum");

    app.post("/api/arcade/commit", &json!({ "address": "0x123" }))
        .await
        .invalid(&body("address"), "value_error");
    app.post("/api/arcade/free", &json!({ "address": null }))
        .await
        .invalid(&body("address"), "string_type");
    app.post("/api/arcade/free", &json!({}))
        .await
        .invalid(&body("address"), "missing");
}
on_both_backends!(bodies_are_checked_field_by_field);

async fn broken_json_and_bad_paths_are_422(app: &TestApp) {
    let malformed = app.post_raw("/api/arcade/commit", "{\"address\": ").await;
    let problem = &malformed.body["detail"][0];
    assert_eq!(
        (malformed.status, problem["type"].as_str()),
        (422, Some("json_invalid")),
        "{}",
        malformed.body
    );
    assert_eq!(problem["loc"][0], "body");
    assert!(problem["loc"][1].is_u64());
    app.post_raw("/api/arcade/commit", "")
        .await
        .invalid(&[json!("body")], "missing");
    app.post_raw("/api/arcade/flip", "[1, 2]")
        .await
        .invalid(&[json!("body")], "model_attributes_type");
    let path = |name: &str| [json!("path"), json!(name)];
    app.get("/api/arcade/balance/0xnothex")
        .await
        .invalid(&path("address"), "value_error");
    app.get("/api/arcade/auth-statement/42")
        .await
        .invalid(&path("address"), "value_error");
    app.get("/api/arcade/verify/abc")
        .await
        .invalid(&path("bet_id"), "int_parsing");
    app.get("/api/arcade/verify/0")
        .await
        .invalid(&path("bet_id"), "greater_than_equal");
    let query = [json!("query"), json!("limit")];
    app.get("/api/arcade/recent?limit=many")
        .await
        .invalid(&query, "int_parsing");
    app.get("/api/arcade/recent?limit=0")
        .await
        .invalid(&query, "greater_than_equal");
    app.get("/api/arcade/recent?limit=101")
        .await
        .invalid(&query, "less_than_equal");
    app.get("/api/arcade/recent?limit=100").await.ok();

    app.get("/api/arcade/nothing-here")
        .await
        .error(404, "not_found");
    app.get("/api/arcade/flip")
        .await
        .error(405, "method_not_allowed");
    let huge = format!("{{\"address\": \"{}\"}}", "a".repeat(100_000));
    let response = app.post_raw("/api/arcade/free", huge).await;
    assert_eq!(response.status, 413, "{}", response.body);
}
on_both_backends!(broken_json_and_bad_paths_are_422);
