//! The embed an attacker on the server cannot hijack, the page's security headers and a
//! `/metrics` no web page can read. `GET /api/arcade/embed` names every file the element loads
//! at a versioned path with its SRI hash; each path serves exactly those bytes, immutable; any
//! other version or file is a 404 no cache keeps. The page sends its CSP, and every answer
//! `nosniff` and a referrer policy.

use std::path::PathBuf;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;
use sha2::{Digest, Sha384};

use crate::helpers::{Backend, TestApp};

/// Both wasm packages' files in one directory, as a release lays them out (`web.dir`), with
/// stand-in glue and wasm bytes: the server reads them as files, not as code. The fairness
/// package's entry is the real one.
struct Packages {
    root: PathBuf,
}

impl Packages {
    fn new(name: &str) -> Self {
        let root = std::env::temp_dir().join(format!("arcade-embed-{name}-{}", std::process::id()));
        let (wasm, proofs) = (root.join("pkg-web"), root.join("pkg-web"));
        std::fs::create_dir_all(&wasm).unwrap();
        let write = |path: PathBuf, bytes: &[u8]| std::fs::write(path, bytes).unwrap();
        write(
            wasm.join("arcade.js"),
            include_bytes!("../../../wasm/js/arcade.js"),
        );
        write(
            wasm.join("fields.js"),
            include_bytes!("../../../wasm/js/fields.js"),
        );
        write(
            wasm.join("slots.js"),
            include_bytes!("../../../wasm/js/slots.js"),
        );
        write(
            wasm.join("games.js"),
            include_bytes!("../../../wasm/js/games.js"),
        );
        write(wasm.join("arcade_wasm.js"), &glue("arcade_wasm_bg.wasm"));
        write(wasm.join("arcade_wasm_bg.wasm"), b"\0asm\x01\0\0\0fairness");
        write(
            proofs.join("arcade_proofs.js"),
            &glue("arcade_proofs_bg.wasm"),
        );
        write(
            proofs.join("arcade_proofs_bg.wasm"),
            b"\0asm\x01\0\0\0proofs",
        );
        Self { root }
    }

    fn wasm_dir(&self) -> PathBuf {
        self.root.join("pkg-web")
    }

    async fn app(&self) -> TestApp {
        let dir = self.wasm_dir().to_string_lossy().into_owned();
        TestApp::spawn_with(Backend::Sqlite, |s| s.web.dir = Some(dir)).await
    }
}

impl Drop for Packages {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// wasm-bindgen's web glue, as far as the server reads it: the wasm it fetches by default.
fn glue(wasm: &str) -> Vec<u8> {
    format!(
        "export default async function init(module_or_path) {{\n  \
         module_or_path ??= new URL('{wasm}', import.meta.url);\n}}\n\
         export function initSync() {{}}\n"
    )
    .into_bytes()
}

async fn get(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut request = app.client.get(format!("{}{path}", app.base_url));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

fn header<'a>(response: &'a reqwest::Response, name: &str) -> &'a str {
    response
        .headers()
        .get(name)
        .map_or("", |value| value.to_str().unwrap())
}

fn sri(bytes: &[u8]) -> String {
    format!("sha384-{}", STANDARD.encode(Sha384::digest(bytes)))
}

async fn embed(app: &TestApp) -> Value {
    let answer = get(app, "/api/arcade/embed", &[]).await;
    assert_eq!(answer.status(), 200);
    assert_eq!(header(&answer, "x-content-type-options"), "nosniff");
    answer.json().await.unwrap()
}

fn files(embed: &Value) -> Vec<(String, String)> {
    embed["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let text = |key: &str| f[key].as_str().unwrap().to_owned();
            (text("path"), text("integrity"))
        })
        .collect()
}

#[tokio::test]
#[allow(clippy::print_stdout)] // the snippet, shown with --nocapture
async fn every_file_the_element_loads_is_versioned_immutable_and_pinned() {
    let packages = Packages::new("pinned");
    let app = packages.app().await;
    let embed = embed(&app).await;
    let version = embed["version"].as_str().unwrap();
    assert_eq!(version.len(), 16, "{version}");
    assert!(
        version
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    );
    let files = files(&embed);
    let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    for file in [
        "web/verifier.js",
        "web/steps.js",
        "web/stats.mjs",
        "web/cores.js",
        "web/wasm-pins.js",
        "wasm/arcade.js",
        "wasm/fields.js",
        "wasm/slots.js",
        "wasm/games.js",
        "wasm/arcade_wasm.js",
        "wasm/arcade_wasm_bg.wasm",
        "wasm/arcade_proofs.js",
        "wasm/arcade_proofs_bg.wasm",
    ] {
        let path = format!("/embed/{version}/{file}");
        assert!(paths.contains(&path.as_str()), "{path} in {paths:?}");
    }
    assert!(
        !paths.iter().any(|p| p.ends_with("/app.js")),
        "only the element's graph"
    );

    let snippet = embed["snippet"].as_str().unwrap();
    println!("GET /api/arcade/embed → snippet:\n{snippet}");
    for (path, integrity) in &files {
        let served = get(&app, path, &[("origin", "https://blog.example")]).await;
        assert_eq!(served.status(), 200, "{path}");
        let kind = if path.ends_with(".wasm") {
            "application/wasm"
        } else {
            "text/javascript; charset=utf-8"
        };
        assert_eq!(header(&served, "content-type"), kind, "{path}");
        assert_eq!(
            header(&served, "cache-control"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(
            header(&served, "access-control-allow-origin"),
            "*",
            "{path} loads cross-origin"
        );
        assert_eq!(header(&served, "x-content-type-options"), "nosniff");
        let bytes = served.bytes().await.unwrap();
        assert_eq!(
            &sri(&bytes),
            integrity,
            "{path}: the integrity is the served bytes' sha384"
        );
        if path.ends_with(".js") {
            let url = format!("{}{path}", app.base_url);
            assert!(
                snippet.contains(&format!("\"{url}\": \"{integrity}\"")),
                "the import map pins {url}"
            );
        }
    }
    let entry = files
        .iter()
        .find(|(p, _)| p.ends_with("/web/verifier.js"))
        .unwrap();
    assert!(snippet.contains(&format!(
        "<script type=\"module\" src=\"{}{}\" integrity=\"{}\" crossorigin=\"anonymous\"></script>",
        app.base_url, entry.0, entry.1
    )));
    assert!(snippet.starts_with("<script type=\"importmap\">"));

    // The wasm is fetched, not imported: the pinned wasm-pins.js carries its hashes.
    let pins = get(&app, &format!("/embed/{version}/web/wasm-pins.js"), &[]).await;
    let pins = pins.text().await.unwrap();
    for wasm in ["arcade_wasm_bg.wasm", "arcade_proofs_bg.wasm"] {
        let (_, integrity) = files.iter().find(|(p, _)| p.ends_with(wasm)).unwrap();
        assert!(pins.contains(&format!("'{wasm}': '{integrity}'")), "{pins}");
    }
}

#[tokio::test]
async fn another_version_or_a_file_outside_the_set_is_a_404_no_cache_keeps() {
    let packages = Packages::new("outside");
    let app = packages.app().await;
    let version = embed(&app).await["version"].as_str().unwrap().to_owned();
    let upper = version.to_uppercase();
    let short = &version[..8];
    for path in [
        "/embed/0000000000000000/web/verifier.js".to_owned(),
        format!("/embed/{upper}/web/verifier.js"),
        format!("/embed/{short}/web/verifier.js"),
        format!("/embed/{version}/web/app.js"),
        format!("/embed/{version}/web/monitor.js"),
        format!("/embed/{version}/vectors/fairness-v1.json"),
        format!("/embed/{version}/wasm/arcade_wasm.d.ts"),
        format!("/embed/{version}/wasm/..%2f..%2f..%2fCargo.toml"),
        format!("/embed/{version}/web/%2e%2e%2fwasm%2farcade.js"),
        format!("/embed/{version}/web/verifier.js/x"),
        format!("/embed/{version}/verifier.js"),
    ] {
        let answer = get(&app, &path, &[]).await;
        assert_eq!(answer.status(), 404, "{path}");
        assert!(
            !header(&answer, "cache-control").contains("immutable"),
            "{path}"
        );
        assert_eq!(header(&answer, "x-content-type-options"), "nosniff");
    }
}

#[tokio::test]
async fn a_rebuilt_package_is_a_new_version_and_the_old_one_is_gone() {
    let packages = Packages::new("rebuilt");
    let app = packages.app().await;
    let before = embed(&app).await;
    let old = before["version"].as_str().unwrap();
    let wasm = packages.wasm_dir().join("arcade_wasm_bg.wasm");
    std::fs::write(&wasm, b"\0asm\x01\0\0\0fairness, rebuilt").unwrap();
    let after = embed(&app).await;
    let new = after["version"].as_str().unwrap();
    assert_ne!(old, new);
    let gone = get(&app, &format!("/embed/{old}/wasm/arcade_wasm_bg.wasm"), &[]).await;
    assert_eq!(gone.status(), 404, "an old version never serves new bytes");
    let (_, integrity) = files(&after)
        .into_iter()
        .find(|(p, _)| p.ends_with("/arcade_wasm_bg.wasm"))
        .unwrap();
    assert_eq!(integrity, sri(b"\0asm\x01\0\0\0fairness, rebuilt"));
    let pins = get(&app, &format!("/embed/{new}/web/wasm-pins.js"), &[]).await;
    assert!(pins.text().await.unwrap().contains(&integrity));
    // The page's own copy of the pins follows the files /wasm/ serves.
    let page_pins = get(&app, "/web/wasm-pins.js", &[]).await;
    assert_eq!(header(&page_pins, "cache-control"), "no-cache");
    assert!(page_pins.text().await.unwrap().contains(&integrity));
}

#[tokio::test]
async fn the_snippet_names_the_configured_origin_whatever_the_request_says() {
    let packages = Packages::new("origin");
    let app = packages.app().await;
    let forged = get(
        &app,
        "/api/arcade/embed",
        &[
            ("host", "evil.example"),
            ("x-forwarded-host", "evil.example"),
            ("forwarded", "host=evil.example;proto=https"),
        ],
    )
    .await;
    let snippet = forged.json::<Value>().await.unwrap()["snippet"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(!snippet.contains("evil.example"), "{snippet}");
    assert!(snippet.contains(&format!("src=\"{}/embed/", app.base_url)));
}

#[tokio::test]
async fn without_its_wasm_the_element_is_not_offered() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s| {
        s.web.dir = Some("/nonexistent/pkg-web".into());
    })
    .await;
    let answer = app.get("/api/arcade/embed").await;
    assert_eq!(answer.status, 503);
    assert_eq!(answer.body["code"], "wasm_not_built");
    assert!(
        answer.body["detail"]
            .as_str()
            .unwrap()
            .contains("web/build.sh")
    );
}

#[allow(clippy::print_stdout)] // the headers, shown with --nocapture
fn print_headers(path: &str, response: &reqwest::Response) {
    println!("GET {path} → {}", response.status());
    for (name, value) in response.headers() {
        if name != "date" && name != "x-request-id" {
            println!("  {name}: {}", value.to_str().unwrap());
        }
    }
}

#[tokio::test]
async fn the_page_sends_its_policy_and_every_answer_nosniff() {
    let packages = Packages::new("headers");
    let app = packages.app().await;
    let page = get(&app, "/", &[]).await;
    print_headers("/", &page);
    let policy = header(&page, "content-security-policy");
    for directive in [
        "default-src 'none'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "require-trusted-types-for 'script'",
    ] {
        assert!(
            policy.split("; ").any(|d| d == directive),
            "{directive} in {policy}"
        );
    }
    assert!(!policy.contains("unsafe-inline") && !policy.contains("'unsafe-eval'"));
    assert_eq!(header(&page, "referrer-policy"), "no-referrer");
    assert_eq!(header(&page, "x-content-type-options"), "nosniff");

    let version = embed(&app).await["version"].as_str().unwrap().to_owned();
    for path in [
        "/web/app.js".to_owned(),
        format!("/embed/{version}/web/verifier.js"),
        "/wasm/arcade_wasm_bg.wasm".to_owned(),
        "/api/arcade/games".to_owned(),
        "/api/arcade/rounds/not-a-round".to_owned(),
        "/no/such/route".to_owned(),
    ] {
        let answer = get(&app, &path, &[]).await;
        print_headers(&path, &answer);
        assert_eq!(
            header(&answer, "x-content-type-options"),
            "nosniff",
            "{path}"
        );
        assert_eq!(header(&answer, "referrer-policy"), "no-referrer", "{path}");
    }
    // The API docs keep working (their page has its own inline script, and no page policy).
    let docs = get(&app, "/api/docs/", &[]).await;
    assert_eq!(docs.status(), 200);
    assert_eq!(header(&docs, "content-security-policy"), "");
}

#[tokio::test]
async fn no_web_page_can_read_the_metrics() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let origin = ("origin", "https://evil.example");
    for path in ["/metrics", "/metrics/"] {
        let scraped = get(&app, path, &[origin]).await;
        print_headers(path, &scraped);
        assert_eq!(scraped.status(), 200, "{path}: loopback scrapes it");
        let cors: Vec<_> = scraped
            .headers()
            .keys()
            .filter(|name| name.as_str().starts_with("access-control-"))
            .collect();
        assert!(cors.is_empty(), "{path}: {cors:?}");
    }
    let preflight = app
        .client
        .request(
            reqwest::Method::OPTIONS,
            format!("{}/metrics", app.base_url),
        )
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "GET")
        .send()
        .await
        .unwrap();
    assert!(
        !preflight
            .headers()
            .keys()
            .any(|name| name.as_str().starts_with("access-control-")),
        "{:?}",
        preflight.headers()
    );
    // The rest of the API stays open to every origin.
    let games = get(&app, "/api/arcade/games", &[origin]).await;
    assert_eq!(header(&games, "access-control-allow-origin"), "*");
}

#[tokio::test]
async fn a_name_rebound_to_loopback_cannot_read_the_metrics() {
    // DNS rebinding: a page at http://evil.example:PORT whose name the attacker then points at
    // 127.0.0.1 reads that port as its own origin, so CORS never applies; but its requests
    // carry its own name as the Host.
    let app = TestApp::spawn(Backend::Sqlite).await;
    let port = app.base_url.rsplit(':').next().unwrap().to_owned();
    for host in [
        format!("evil.example:{port}"),
        "evil.example".to_owned(),
        format!("127.0.0.1.evil.example:{port}"),
    ] {
        let rebound = get(&app, "/metrics", &[("host", &host)]).await;
        assert_eq!(rebound.status(), 404, "Host: {host}");
    }
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ] {
        let scraped = get(&app, "/metrics", &[("host", &host)]).await;
        assert_eq!(scraped.status(), 200, "Host: {host}");
    }
}
