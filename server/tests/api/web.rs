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
        s.web.dir = Some("/nonexistent/pkg-web".into());
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
    assert!(unbuilt.text().await.unwrap().contains("web/build.sh"));
}

async fn fetch_with(app: &TestApp, path: &str, header: (&str, &str)) -> reqwest::Response {
    app.client
        .get(format!("{}{path}", app.base_url))
        .header(header.0, header.1)
        .send()
        .await
        .unwrap()
}

fn brotli_decoded(body: &[u8]) -> Vec<u8> {
    let mut decoded = Vec::new();
    brotli::BrotliDecompress(&mut &body[..], &mut decoded).unwrap();
    decoded
}

#[tokio::test]
async fn files_come_compressed_as_the_client_accepts_and_revalidate_by_tag() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let plain = fetch(&app, "/web/app.js").await;
    assert_eq!(plain.headers().get("content-encoding"), None);
    assert_eq!(plain.headers()["vary"], "accept-encoding");
    let plain_tag = plain.headers()["etag"].to_str().unwrap().to_owned();
    let source = plain.bytes().await.unwrap();
    assert_eq!(&source[..], include_bytes!("../../../web/app.js"));

    // Chromium's own header: brotli, the smallest.
    let br = fetch_with(
        &app,
        "/web/app.js",
        ("accept-encoding", "gzip, deflate, br, zstd"),
    )
    .await;
    assert_eq!(br.headers()["content-encoding"], "br");
    let br_tag = br.headers()["etag"].to_str().unwrap().to_owned();
    let body = br.bytes().await.unwrap();
    assert!(
        body.len() * 3 < source.len(),
        "{} of {}",
        body.len(),
        source.len()
    );
    assert_eq!(brotli_decoded(&body), source);

    let gzip = fetch_with(&app, "/web/app.js", ("accept-encoding", "gzip, br;q=0")).await;
    assert_eq!(gzip.headers()["content-encoding"], "gzip");
    let mut decoded = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&gzip.bytes().await.unwrap()[..]),
        &mut decoded,
    )
    .unwrap();
    assert_eq!(decoded, source);

    // Each encoding is its own representation with its own tag; a revisit holding it gets a
    // 304 with no body, and a stale tag gets the file.
    assert_ne!(plain_tag, br_tag);
    let revisit = app
        .client
        .get(format!("{}/web/app.js", app.base_url))
        .header("accept-encoding", "br")
        .header("if-none-match", &br_tag)
        .send()
        .await
        .unwrap();
    assert_eq!(revisit.status(), 304);
    assert_eq!(revisit.headers()["etag"], br_tag.as_str());
    assert!(revisit.bytes().await.unwrap().is_empty());
    let stale = fetch_with(&app, "/web/app.js", ("if-none-match", "\"0000\"")).await;
    assert_eq!(stale.status(), 200);
    assert_eq!(stale.bytes().await.unwrap(), source);
}

#[tokio::test]
async fn a_rebuilt_wasm_package_is_served_as_rebuilt() {
    let dir = std::env::temp_dir().join(format!("arcade-web-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wasm = dir.join("arcade_wasm_bg.wasm");
    std::fs::write(&wasm, vec![7u8; 4096]).unwrap();
    let served_dir = dir.to_string_lossy().into_owned();
    let app = TestApp::spawn_with(Backend::Sqlite, |s| s.web.dir = Some(served_dir)).await;
    let path = "/wasm/arcade_wasm_bg.wasm";
    let first = fetch_with(&app, path, ("accept-encoding", "br")).await;
    assert_eq!(first.headers()["content-type"], "application/wasm");
    assert_eq!(
        brotli_decoded(&first.bytes().await.unwrap()),
        vec![7u8; 4096]
    );

    std::fs::write(&wasm, vec![8u8; 5000]).unwrap();
    let rebuilt = fetch_with(&app, path, ("accept-encoding", "br")).await;
    assert_eq!(
        brotli_decoded(&rebuilt.bytes().await.unwrap()),
        vec![8u8; 5000]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
