//! `GET /api/arcade/manifest`: the live list of paid resources, with their prices and the terms
//! they are sold on (indexers read `/.well-known/x402`, `well_known`). Without a chain the resources are still
//! listed, each `available: false` with the reason.

use salvo::oapi::ToSchema;
use salvo::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value};

use super::discovery::{self, ChipsResource, Method};
use super::edge::{arcade, shared};
use super::sign_in::{SignInWithX, advertised};
use crate::error::ApiError;
use crate::proofs::HouseSigner;
use crate::service::seeds::signer_address;
use crate::service::signed_marks::SignedMarks;
use crate::tiers::CHIP_VALUE_USD;
use crate::x402::{Terms, X402_VERSION};

/// The paid resources (chip tiers) with their prices, and the network, token and pay-to address
/// payments settle on; per resource, the 402's `resource` and, per method, its `extensions`
/// (the x402 `bazaar` discovery metadata). The 402 of each resource is authoritative; this is
/// its summary.
#[endpoint(tags("chips"))]
pub async fn manifest(depot: &mut Depot) -> Result<Json<Manifest>, ApiError> {
    let base_url = &shared(depot)?.base_url;
    let arcade = arcade(depot)?;
    let terms = arcade
        .purchases
        .payments()
        .ok()
        .map(|payments| &payments.terms);
    let proofs = &arcade.proofs;
    Ok(Json(manifest_of(
        terms,
        arcade.seed_batches.signer(),
        proofs.marks(),
        base_url,
        advertised(arcade.auth.identity().siwx(), base_url),
    )))
}

/// Why nothing is for sale when no chain is configured.
const NO_CHAIN: &str = "no chain is configured on this deployment, so chips cannot be bought; free chips can still be claimed and played";

#[derive(Debug, Serialize, ToSchema)]
pub struct Manifest {
    pub x402_version: u64,
    /// The fairness versions rounds are settled under here (`/rules.md`): a client that
    /// re-derives only others must refuse this server.
    pub fairness_versions: Vec<u32>,
    /// The major version of the API's shapes (paths, bodies, answers; OpenAPI's `info.version`
    /// is the full one): a client that reads only others must refuse this server.
    pub api_version: String,
    /// Whether chips can be bought here now.
    pub available: bool,
    /// Why not, when `available` is false.
    pub unavailable_reason: Option<String>,
    /// CAIP-2, e.g. `eip155:8453` (null without a chain).
    pub network: Option<String>,
    /// The token paid in (EIP-55; null without a chain).
    pub asset: Option<String>,
    pub token: Option<TokenInfo>,
    /// Where payments go (EIP-55; null without a chain).
    pub pay_to: Option<String>,
    pub chip_value_usd: f64,
    /// How long a signed authorization may be valid, in seconds.
    pub max_timeout_seconds: Option<u64>,
    pub resources: Vec<PaidResource>,
    /// The address that signs commitments, receipts and seed batches (EIP-712, EIP-55).
    pub signer: String,
    /// The EIP-712 domain of those signatures: `{name, version, chainId}`.
    #[salvo(schema(value_type = Object))]
    pub signing_domain: serde_json::Value,
    /// The signed marks: from which bet on every receipt carries its proofs, and signs
    /// `house_agent` (`/docs/proofs.md`).
    pub signed_marks: SignedMarks,
    /// Where to start, by name: `llms_txt` (the whole flow), `rules`, `proofs`, `vectors`,
    /// `openapi`, `api_docs`, `mcp`, `mcp_server_json`, `x402_manifest`, `verifier`.
    #[salvo(schema(value_type = Object))]
    pub links: Map<String, Value>,
    /// Proof of address control by the x402 `sign-in-with-x` extension: a `SIGN-IN-WITH-X`
    /// header in place of the auth statement's signature.
    pub sign_in_with_x: SignInWithX,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TokenInfo {
    /// EIP-712 domain name, read from the token.
    pub name: String,
    /// EIP-712 domain version, read from the token.
    pub version: String,
    pub decimals: u8,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PaidResource {
    pub methods: Vec<String>,
    pub path: String,
    pub url: String,
    pub tier: String,
    pub chips: u64,
    /// USD, e.g. `0.10`.
    pub price_usd: String,
    /// Token base units, decimal.
    pub amount: String,
    pub description: String,
    /// Whether it can be bought now.
    pub available: bool,
    /// The x402 `PaymentRequirements` the 402 offers for this resource (empty when it is not
    /// available).
    #[salvo(schema(value_type = Vec<Object>))]
    pub accepts: Vec<Value>,
    /// The 402's `resource`, as x402 v2 spells it: `url`, `description`, `mimeType`,
    /// `serviceName` and `tags`.
    #[salvo(schema(value_type = Object))]
    pub resource: Value,
    /// Per method (`GET`, `POST`), the `extensions` of the 402 that method gets: `bazaar`, with
    /// `info` (how to call the resource, an example of its answer) and the JSON Schema that
    /// validates it, and `spend-controls` (how the official clients allow the token); empty
    /// when the resource is not available.
    #[salvo(schema(value_type = Object))]
    pub extensions: Map<String, Value>,
}

/// The manifest from what the arcade sells on (`terms`, none without a chain) and who signs.
fn manifest_of(
    terms: Option<&Terms>,
    signer: &HouseSigner,
    marks: &SignedMarks,
    base_url: &str,
    sign_in_with_x: SignInWithX,
) -> Manifest {
    let resources = ChipsResource::all()
        .map(|resource| paid_resource(resource, terms, base_url))
        .collect();
    Manifest {
        x402_version: X402_VERSION,
        fairness_versions: vec![arcade_core::FAIRNESS_VERSION],
        api_version: super::openapi::api_version().to_owned(),
        available: terms.is_some(),
        unavailable_reason: terms.is_none().then(|| NO_CHAIN.to_owned()),
        network: terms.map(|t| t.network.clone()),
        asset: terms.map(|t| t.asset.to_checksum(None)),
        token: terms.map(token_info),
        pay_to: terms.map(|t| t.pay_to.to_checksum(None)),
        chip_value_usd: CHIP_VALUE_USD,
        signer: signer_address(signer),
        signing_domain: signer.domain(),
        signed_marks: marks.clone(),
        max_timeout_seconds: terms.map(|t| t.max_timeout_seconds),
        resources,
        links: super::well_known::links(base_url),
        sign_in_with_x,
    }
}

/// One paid resource as the manifest lists it: its offer and each method's 402 extensions.
fn paid_resource(resource: ChipsResource, terms: Option<&Terms>, base_url: &str) -> PaidResource {
    let tier = resource.tier();
    PaidResource {
        methods: Method::ALL.map(|m| m.as_str().to_owned()).to_vec(),
        url: resource.url(base_url),
        path: resource.path(),
        tier: tier.name.into(),
        chips: tier.chips,
        price_usd: tier.price_text().trim_start_matches('$').to_owned(),
        amount: tier.price_base_units().to_string(),
        description: discovery::describe(tier),
        available: terms.is_some(),
        accepts: terms
            .map(|terms| serde_json::to_value(terms.requirements(tier)).unwrap_or_default())
            .into_iter()
            .collect(),
        resource: serde_json::to_value(discovery::resource_info(resource, base_url))
            .unwrap_or_default(),
        extensions: terms
            .map(|terms| {
                Method::ALL
                    .iter()
                    .map(|&method| {
                        let extensions =
                            super::challenge::extensions(terms, resource, method, base_url);
                        (method.as_str().to_owned(), Value::Object(extensions))
                    })
                    .collect()
            })
            .unwrap_or_default(),
    }
}

fn token_info(terms: &Terms) -> TokenInfo {
    TokenInfo {
        name: terms.token_name.clone(),
        version: terms.token_version.clone(),
        decimals: 6,
    }
}
