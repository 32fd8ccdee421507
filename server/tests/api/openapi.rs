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
