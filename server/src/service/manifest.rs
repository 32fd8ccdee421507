//! The live x402 manifest: every paid resource with its price, and the terms it is sold on.
//! Served at `GET /api/arcade/manifest` and `/.well-known/x402`.

use salvo::oapi::ToSchema;
use serde::Serialize;
use serde_json::Value;

use super::Arcade;
use crate::error::ApiError;
use crate::tiers::{CHIP_VALUE_USD, DEFAULT_TIER, TIERS, Tier};
use crate::x402::{X402_VERSION, describe};

#[derive(Debug, Serialize, ToSchema)]
pub struct Manifest {
    pub x402_version: u64,
    /// CAIP-2, e.g. `eip155:8453`.
    pub network: String,
    /// The token paid in (EIP-55).
    pub asset: String,
    pub token: TokenInfo,
    /// Where payments go (EIP-55).
    pub pay_to: String,
    pub chip_value_usd: f64,
    /// How long a signed authorization may be valid, in seconds.
    pub max_timeout_seconds: u64,
    pub resources: Vec<PaidResource>,
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
    /// The x402 `PaymentRequirements` the 402 offers for this resource.
    #[salvo(schema(value_type = Object))]
    pub accepts: Vec<Value>,
}

impl Arcade {
    pub fn manifest(&self, base_url: &str) -> Result<Manifest, ApiError> {
        let terms = &self.payments()?.terms;
        let resource = |path: String, tier: &Tier| PaidResource {
            methods: vec!["GET".into(), "POST".into()],
            url: format!("{base_url}{path}"),
            path,
            tier: tier.name.into(),
            chips: tier.chips,
            price_usd: tier.price_text().trim_start_matches('$').to_owned(),
            amount: tier.price_base_units().to_string(),
            description: describe(tier),
            accepts: vec![serde_json::to_value(terms.requirements(tier)).unwrap_or_default()],
        };
        let mut resources = vec![resource("/api/arcade/chips".into(), &DEFAULT_TIER)];
        resources.extend(
            TIERS
                .iter()
                .map(|tier| resource(format!("/api/arcade/chips/{}", tier.name), tier)),
        );
        Ok(Manifest {
            x402_version: X402_VERSION,
            network: terms.network.clone(),
            asset: terms.asset.to_checksum(None),
            token: TokenInfo {
                name: terms.token_name.clone(),
                version: terms.token_version.clone(),
                decimals: 6,
            },
            pay_to: terms.pay_to.to_checksum(None),
            chip_value_usd: CHIP_VALUE_USD,
            max_timeout_seconds: terms.max_timeout_seconds,
            resources,
        })
    }
}
