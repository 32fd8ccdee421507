//! What an agent given only the base URL reads first: `/llms.txt` with the whole flow, the
//! fairness rules and the proofs as markdown, both golden vector files, every entry point linked
//! from `/` and from `/llms.txt`, and a 404 that says where to start.

use std::path::Path;

use arcade_server::entry_points::ENTRY_POINTS;

use crate::helpers::{Backend, TestApp};
use crate::paying::PaidApp;

/// A file of the repository, as the binary compiled it in.
fn repository_file(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap()
}

async fn fetch(app: &TestApp, path: &str) -> (u16, String, String) {
    let response = app
        .client
        .get(format!("{}{path}", app.base_url))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, kind, response.text().await.unwrap())
}

/// The site paths a text links to: markdown `](/…)` and HTML `href="/…"`.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (start, end) in [("](/", ')'), ("href=\"/", '"')] {
        for piece in text.split(start).skip(1) {
            let path = piece.split(end).next().unwrap();
            found.push(format!("/{path}"));
        }
    }
    found
}

#[tokio::test]
async fn the_documents_are_served_as_the_repository_has_them() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let documents = [
        ("/rules.md", "text/markdown", "docs/fairness.md"),
        ("/vectors/README.md", "text/markdown", "docs/vectors.md"),
        (
            "/vectors/fairness-v1-limbo.json",
            "application/json",
            "tests/vectors/fairness-v1-limbo.json",
        ),
        (
            "/vectors/fairness-v1.json",
            "application/json",
            "tests/vectors/fairness-v1.json",
        ),
    ];
    for (path, kind, file) in documents {
        let (status, served_kind, body) = fetch(&app, path).await;
        assert_eq!(status, 200, "{path}");
        assert!(served_kind.starts_with(kind), "{path}: {served_kind}");
        assert_eq!(body, repository_file(file), "{path}");
    }
    let (status, kind, llms) = fetch(&app, "/llms.txt").await;
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/plain"), "{kind}");
    let template = repository_file("docs/llms.txt");
    let (before, after) = template.split_once("{payment_terms}").unwrap();
    assert!(llms.starts_with(before) && llms.ends_with(after), "{llms}");
    assert!(
        llms.contains("sells no chips"),
        "no chain, no purchase: {llms}"
    );
    let (status, kind, proofs) = fetch(&app, "/docs/proofs.md").await;
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/markdown"), "{kind}");
    assert_fills(&repository_file("docs/proofs.md"), &proofs);
    let manifest = app.get("/api/arcade/manifest").await.ok();
    let signer = manifest["signer"].as_str().unwrap();
    assert!(
        proofs.contains(&format!("\"signer\": \"{signer}\"")),
        "{proofs}"
    );
    let domain = &manifest["signing_domain"];
    assert!(
        proofs.contains(&format!("\"signing_domain\": {domain}")),
        "{domain}"
    );
    let (_, _, rules) = fetch(&app, "/rules.md").await;
    for part in [
        "## Byte stream and floats",
        "bonus = 1 iff",
        "## Addendum: limbo",
    ] {
        assert!(rules.contains(part), "the rules have {part}");
    }
}

/// `served` is `template` with each `{deployment.…}` mark replaced: every other part in order.
fn assert_fills(template: &str, served: &str) {
    assert!(
        template.contains("{deployment."),
        "the template has its marks"
    );
    assert!(!served.contains("{deployment."), "every mark filled in");
    let mut rest = served;
    for (i, part) in template.split("{deployment.").enumerate() {
        let fixed = if i == 0 {
            part
        } else {
            part.split_once('}').unwrap().1
        };
        let at = rest
            .find(fixed)
            .unwrap_or_else(|| panic!("the served text keeps {fixed:.80}"));
        assert!(i > 0 || at == 0, "it starts as the template does");
        rest = &rest[at + fixed.len()..];
    }
    assert!(rest.is_empty(), "it ends as the template does");
}

#[tokio::test]
async fn every_entry_point_is_linked_from_the_page_and_from_llms_txt() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let entry_points = ENTRY_POINTS.map(|(_, path)| path);
    for page in ["/", "/llms.txt"] {
        let (_, _, text) = fetch(&app, page).await;
        let linked = links(&text);
        for entry in entry_points.iter().filter(|entry| **entry != page) {
            assert!(linked.iter().any(|l| l == entry), "{page} links {entry}");
        }
        for link in linked
            .iter()
            .filter(|l| !l.starts_with("/web/") && !l.starts_with("/wasm/"))
        {
            let (status, ..) = fetch(&app, link).await;
            assert_ne!(status, 404, "{page} links {link}, which answers 404");
        }
    }
}

/// The manifest names each entry point, by name, as a full URL that answers.
#[tokio::test]
async fn the_x402_manifest_links_every_entry_point_by_name() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let manifest = app.get("/.well-known/x402").await.ok();
    for (name, path) in ENTRY_POINTS {
        let url = manifest["links"][name]
            .as_str()
            .unwrap_or_else(|| panic!("{name}"));
        assert_eq!(url, format!("{}{path}", app.base_url), "{name}");
        let (status, ..) = fetch(&app, path).await;
        assert_ne!(status, 404, "{name}: {path}");
    }
}

/// The manifest says which fairness versions and which API shapes this server speaks, as the
/// client libraries check at connect: the core's version and the OpenAPI document's major.
#[tokio::test]
async fn the_manifest_announces_the_fairness_and_api_versions() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let manifest = app.get("/api/arcade/manifest").await.ok();
    assert_eq!(
        manifest["fairness_versions"],
        serde_json::json!([arcade_core::FAIRNESS_VERSION])
    );
    let openapi = app.get("/api/openapi.json").await.ok();
    let full = openapi["info"]["version"].as_str().unwrap();
    let major = full.split('.').next().unwrap();
    assert_eq!(manifest["api_version"], major, "OpenAPI {full}");
}

#[tokio::test]
async fn a_404_says_where_to_start() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let missing = app.get("/api/arcade/nothing-here").await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.body["code"], "not_found");
    assert!(
        missing.body["detail"]
            .as_str()
            .unwrap()
            .contains("/llms.txt"),
        "{}",
        missing.body
    );
}

/// With a chain, `/llms.txt` names the network and token the 402 offers, and the official
/// clients' setting that allows them.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn llms_txt_names_the_token_the_402_offers() {
    let app = PaidApp::spawn(Backend::Sqlite).await;
    let challenge = app.challenge("/api/arcade/chips").await;
    let offer = &challenge["accepts"][0];
    let (network, asset) = (
        offer["network"].as_str().unwrap(),
        offer["asset"].as_str().unwrap(),
    );
    let (_, _, llms) = fetch(&app, "/llms.txt").await;
    let allowed = format!(r#"{{ network: "{network}", asset: "{asset}" }}"#);
    assert!(
        llms.contains(&format!(
            "client.setSpendControls({{ allowedAssets: [{allowed}] }});"
        )),
        "{llms}"
    );
    let allowed = format!(r#"{{"network": "{network}", "asset": "{asset}"}}"#);
    assert!(
        llms.contains(&format!(
            r#"client.set_spend_controls({{"allowed_assets": [{allowed}]}})"#
        )),
        "{llms}"
    );
}
