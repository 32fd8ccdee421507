//! The verifier page's routes: the page, its modules (loadable from any origin), the golden
//! vectors, and a clear answer when the wasm package has not been built.

use crate::helpers::{Backend, TestApp};

async fn fetch(app: &TestApp, path: &str) -> reqwest::Response {
    app.client
        .get(format!("{}{path}", app.base_url))
        .header("origin", "https://another.example")
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_page_its_modules_and_the_vectors_are_served() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s| {
        s.web.wasm_dir = "/nonexistent/pkg-web".into();
    })
    .await;
    let page = fetch(&app, "/").await;
    assert_eq!(page.status(), 200);
    assert!(
        page.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert!(page.text().await.unwrap().contains("/web/app.js"));

    for module in ["app.js", "steps.js", "verifier.js"] {
        let response = fetch(&app, &format!("/web/{module}")).await;
        assert_eq!(response.status(), 200, "{module}");
        assert!(
            response.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/javascript")
        );
        assert_eq!(
            response.headers()["access-control-allow-origin"],
            "*",
            "{module} loads cross-origin"
        );
    }
    assert_eq!(fetch(&app, "/web/secrets.txt").await.status(), 404);
    assert_eq!(fetch(&app, "/wasm/../Cargo.toml").await.status(), 404);

    let vectors: serde_json::Value = fetch(&app, "/vectors/fairness-v1.json")
        .await
        .json()
        .await
        .unwrap();
    assert!(vectors["cases"].as_array().unwrap().len() > 100);

    let unbuilt = fetch(&app, "/wasm/arcade_wasm_bg.wasm").await;
    assert_eq!(unbuilt.status(), 503);
    assert!(unbuilt.text().await.unwrap().contains("wasm-pack build"));
}
