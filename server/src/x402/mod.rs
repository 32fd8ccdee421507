//! x402 v2, the `exact` scheme on EVM (EIP-3009): the wire shapes, the header codec, the offer a
//! paid resource makes and the checks a payment must pass before it is settled. How the
//! arcade's routes present themselves to buyers (the 402 challenge, the discovery metadata)
//! is the edge's (`api::challenge`, `api::discovery`).
//! Settlement itself (the chain, the ledger) lives in `service::purchases`; `facilitator` is the
//! client of an x402 facilitator for deployments that settle through one.

pub mod client;
pub mod facilitator;
pub mod ownership;
pub mod payment_identifier;
pub mod reasons;
pub mod verify;
pub mod wire;

use alloy::primitives::Address;
use serde_json::json;

use crate::tiers::Tier;
use wire::PaymentRequirements;

pub const X402_VERSION: u64 = 2;
pub const SCHEME: &str = "exact";

/// Request headers that carry a payment: the v2 name first, then the name the interface uses.
pub const PAYMENT_HEADERS: [&str; 2] = ["payment-signature", "x-payment"];
pub const PAYMENT_REQUIRED_HEADER: &str = "payment-required";
/// Response headers that carry the settlement: the v2 name and the v1 name clients fall back to.
pub const PAYMENT_RESPONSE_HEADERS: [&str; 2] = ["payment-response", "x-payment-response"];

/// What every offer of this deployment has in common: where, in what, to whom.
#[derive(Debug, Clone)]
pub struct Terms {
    /// CAIP-2, `eip155:<chain id>`.
    pub network: String,
    pub asset: Address,
    pub pay_to: Address,
    /// The token's EIP-712 domain name and version, as read from the token.
    pub token_name: String,
    pub token_version: String,
    pub max_timeout_seconds: u64,
}

impl Terms {
    /// The one payment this deployment accepts for a tier.
    pub fn requirements(&self, tier: &Tier) -> PaymentRequirements {
        PaymentRequirements {
            scheme: SCHEME.into(),
            network: self.network.clone(),
            amount: tier.price_base_units().to_string(),
            asset: self.asset.to_checksum(None),
            pay_to: self.pay_to.to_checksum(None),
            max_timeout_seconds: self.max_timeout_seconds,
            extra: json!({ "name": self.token_name, "version": self.token_version }),
        }
    }
}
