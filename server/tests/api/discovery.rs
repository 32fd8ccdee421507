//! What each paid resource says about itself for discovery (x402 v2): the `resource` fields and
//! the `bazaar` extension, in the 402 of both methods of every chip endpoint and, the same, in
//! the manifest; and payments that echo the extension, or do not, buy chips alike.

use reqwest::Method;
use serde_json::{Map, Value, json};

use crate::helpers::{Backend, TestApp};
use crate::paid_on_both_backends;
use crate::paying::{PaidApp, decode, encode, sign_payment};

const TIER_TEMPLATE: &str = "/api/arcade/chips/:tier";

/// `(path, tier, chips, routeTemplate)` of every paid resource, in the manifest's order.
const RESOURCES: [(&str, &str, u64, Option<&str>); 4] = [
    ("/api/arcade/chips", "small", 1000, None),
    ("/api/arcade/chips/micro", "micro", 100, Some(TIER_TEMPLATE)),
    (
        "/api/arcade/chips/small",
        "small",
        1000,
        Some(TIER_TEMPLATE),
    ),
    (
        "/api/arcade/chips/medium",
        "medium",
        10000,
        Some(TIER_TEMPLATE),
    ),
];

/// Printable ASCII of 1 to 32 characters, as the SDKs validate `serviceName` and each tag.
fn listable(text: &str) -> bool {
    (1..=32).contains(&text.len()) && text.bytes().all(|b| (0x20..=0x7e).contains(&b))
}

async fn every_challenge_describes_its_resource(app: &PaidApp) {
    let manifest = app.get("/api/arcade/manifest").await.ok();
    for (index, (path, tier, chips, template)) in RESOURCES.into_iter().enumerate() {
        let listed = &manifest["resources"][index];
        assert_eq!(listed["path"], path);
        for method in [Method::GET, Method::POST] {
            let reply = app.buy_by(method.clone(), path, None).await;
            assert_eq!(reply.status, 402, "{}", reply.body);
            let header = reply.headers["payment-required"].to_str().unwrap();
            assert!(
                header.len() < 4096,
                "{method} {path}: PAYMENT-REQUIRED is {} bytes",
                header.len()
            );
            let challenge = reply.header_json("payment-required");

            let resource = &challenge["resource"];
            assert_eq!(resource["url"], format!("{}{path}", app.base_url));
            assert_eq!(resource["mimeType"], "application/json");
            assert_eq!(resource["serviceName"], "Provably Fair Arcade");
            let description = resource["description"].as_str().unwrap();
            assert!(
                description.starts_with(&format!("{chips} chips (the {tier} tier, $")),
                "{description}"
            );
            let tags = resource["tags"].as_array().unwrap();
            assert!((1..=5).contains(&tags.len()), "{tags:?}");
            assert!(tags.iter().all(|tag| listable(tag.as_str().unwrap())));
            assert!(listable(resource["serviceName"].as_str().unwrap()));

            let bazaar = &challenge["extensions"]["bazaar"];
            let mut input = json!({ "type": "http", "method": method.as_str() });
            if method == Method::POST {
                input["bodyType"] = json!("json");
                input["body"] = json!({});
            }
            if template.is_some() {
                input["pathParams"] = json!({ "tier": tier });
            }
            assert_eq!(bazaar["info"]["input"], input, "{method} {path}");
            assert_eq!(
                bazaar.get("routeTemplate").and_then(Value::as_str),
                template
            );
            let output = &bazaar["info"]["output"];
            assert_eq!(output["type"], "json");
            let (example, offer) = (&output["example"], &challenge["accepts"][0]);
            assert_eq!(example["tier"], tier);
            assert_eq!(example["chips_credited"], chips);
            assert_eq!(example["amount"], offer["amount"]);
            assert_eq!(example["network"], offer["network"]);
            assert_eq!(example["asset"], offer["asset"]);
            let schema = &bazaar["schema"];
            assert_eq!(
                schema["$schema"],
                "https://json-schema.org/draft/2020-12/schema"
            );
            assert_eq!(schema["required"], json!(["input"]));
            assert_eq!(
                schema["properties"]["input"]["properties"]["type"]["const"],
                "http"
            );

            // Bodies repeat the header and add the spend-controls lines; the manifest carries
            // what each method's 402 body says,
            // but for the sign-in-with-x challenge, issued fresh by each 402.
            assert_eq!(reply.body["resource"], challenge["resource"]);
            let mut in_header = reply.body["extensions"].clone();
            let controls = in_header["spend-controls"].take();
            assert!(
                controls["info"]["npm"].is_string(),
                "the body says how to allow the token"
            );
            in_header.as_object_mut().unwrap().remove("spend-controls");
            assert_eq!(
                in_header, challenge["extensions"],
                "the header: all but spend-controls"
            );
            assert_eq!(listed["resource"], challenge["resource"]);
            let mut extensions = reply.body["extensions"].clone();
            let sign_in = extensions["sign-in-with-x"].take();
            assert_eq!(sign_in["info"]["uri"], challenge["resource"]["url"]);
            assert_eq!(sign_in["info"]["nonce"].as_str().map(str::len), Some(32));
            extensions.as_object_mut().unwrap().remove("sign-in-with-x");
            assert_eq!(listed["extensions"][method.as_str()], extensions);
        }
    }
}
paid_on_both_backends!(every_challenge_describes_its_resource);

/// The example is the body a purchase answers, and the official clients' echo of the
/// extension (this repo's client echoes it too) is neither needed nor checked.
async fn payments_with_or_without_the_echo_buy_chips(app: &PaidApp) {
    let path = "/api/arcade/chips/micro";
    let payer = app.payer(2 * 10_000).await;

    let challenge = app.challenge(path).await;
    let (echoing, _) = sign_payment(&challenge, &payer, |_| {});
    assert_eq!(decode(&echoing)["extensions"], challenge["extensions"]);
    let reply = app.buy(path, Some(&echoing)).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let example = &challenge["extensions"]["bazaar"]["info"]["output"]["example"];
    let shape = |value: &Value| -> Vec<(String, &'static str)> {
        let kind = |v: &Value| match v {
            Value::String(_) => "string",
            Value::Number(_) => "number",
            _ => "other",
        };
        let object: &Map<String, Value> = value.as_object().unwrap();
        object.iter().map(|(k, v)| (k.clone(), kind(v))).collect()
    };
    assert_eq!(
        shape(example),
        shape(&reply.body),
        "{example} vs {}",
        reply.body
    );
    for field in [
        "tier",
        "chips_credited",
        "balance",
        "amount",
        "network",
        "asset",
    ] {
        assert_eq!(example[field], reply.body[field], "{field}");
    }

    let challenge = app.challenge_by(Method::GET, path).await;
    let (signed, _) = sign_payment(&challenge, &payer, |_| {});
    let mut silent = decode(&signed);
    silent.as_object_mut().unwrap().remove("extensions");
    let reply = app.buy_by(Method::GET, path, Some(&encode(&silent))).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["balance"], 200);
}
paid_on_both_backends!(payments_with_or_without_the_echo_buy_chips);

#[tokio::test]
async fn without_a_chain_the_manifest_still_describes_each_resource() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let manifest = app.get("/api/arcade/manifest").await.ok();
    let resources = manifest["resources"].as_array().unwrap();
    for (listed, (path, tier, chips, _)) in resources.iter().zip(RESOURCES) {
        let resource = &listed["resource"];
        assert_eq!(resource["url"], format!("{}{path}", app.base_url));
        assert_eq!(resource["mimeType"], "application/json");
        assert!(
            resource["description"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{chips} chips (the {tier} tier"))
        );
        // How to pay and what a purchase answers need the chain's terms.
        assert_eq!(listed["extensions"], json!({}));
    }
}
