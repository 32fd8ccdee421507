//! `arcade_buy_chips`: chips bought inside MCP, paid by the x402 MCP transport
//! (`transports-v2/mcp.md`). Without a payment the result has `isError` and the
//! `PaymentRequired` (in `structuredContent`, and as its JSON in `content[0].text`). A call
//! carrying `_meta["x402/payment"]` (the payment payload, JSON) settles through the one
//! purchase path REST uses, as the same payment header; the answer carries
//! `_meta["x402/payment-response"]`. Refusals answer as REST does: a 402's body (the challenge,
//! its `error`, `detail` and `code`) as that `PaymentRequired`, with the failed settlement REST
//! sends in `PAYMENT-RESPONSE` (`success: false`, `errorReason`, `settlement_pending` while in
//! flight) in `_meta["x402/payment-response"]` when a payment was presented; any other error as
//! a tool error. The challenge's `extensions` carry bazaar's MCP-tool form and
//! `payment-identifier`.

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, JsonObject, MetaObject, Tool};
use serde_json::json;

use super::arguments::published;
use super::bazaar;
use super::output;
use super::summaries::Summary;
use super::tools::{ArcadeTools, answer, caller};
use crate::error::ApiError;
use crate::inputs::chips::TierPath;
use crate::inputs::{self, Place, schema};
use crate::rate_limits::{Caller, ClientKey};
use crate::service::purchases::Purchase;
use crate::tiers::Tier;
use crate::x402::payment_identifier::{self, PAYMENT_IDENTIFIER};
use crate::x402::wire::{PaymentRequired, ResourceInfo, SettleResponse, encode_header};
use crate::x402::{Terms, X402_VERSION};

pub const NAME: &str = "arcade_buy_chips";
/// Where the payment travels in a `tools/call`'s `_meta`, and where the settlement comes back.
pub const PAYMENT_META: &str = "x402/payment";
pub const PAYMENT_RESPONSE_META: &str = "x402/payment-response";
/// The key of bazaar's discovery extension in `extensions`.
const BAZAAR: &str = "bazaar";

const DESCRIPTION: &str = "Buy chips over x402: called without payment it answers the PaymentRequired (isError); call again with the signed payment in _meta[\"x402/payment\"].";

pub fn route() -> ToolRoute<ArcadeTools> {
    let input_schema = published(&schema::of::<TierPath>());
    let tool = Tool::new(NAME, DESCRIPTION, Arc::new(input_schema))
        .with_raw_output_schema(output::paid::<Purchase>());
    ToolRoute::new_dyn(tool, |context: ToolCallContext<'_, ArcadeTools>| {
        Box::pin(async move {
            let payment = context
                .request_context
                .meta
                .get(PAYMENT_META)
                .map(encode_header);
            let caller = context
                .request_context
                .extensions
                .get::<http::request::Parts>()
                .map_or(Caller::Client(ClientKey::Overflow), caller);
            let arguments = context.arguments.unwrap_or_default();
            let result = context
                .service
                .buy(arguments, payment.as_deref(), caller)
                .await;
            Ok(CallToolResponse::Complete(result))
        })
    })
}

impl ArcadeTools {
    /// Parses the tier, then buys it through the purchase service with `payment` (the payload
    /// as a payment header).
    async fn buy(
        &self,
        arguments: JsonObject,
        payment: Option<&str>,
        caller: Caller,
    ) -> CallToolResult {
        let tier = match inputs::parse::<TierPath>(arguments, Place::Body) {
            Ok(input) => input.tier.value(),
            Err(error) => return answer::<Purchase, ApiError>(Err(error.into())),
        };
        let purchases = &self.arcade.purchases;
        match purchases.buy_chips(tier, payment, caller).await {
            Ok(purchase) => paid(purchase),
            Err(error) => match purchases.payments() {
                Ok(payments) => refused(ApiError::purchase(error, required(&payments.terms, tier))),
                // No chain: 503, before any challenge could be made.
                Err(_) => answer::<Purchase, ApiError>(Err(error.into())),
            },
        }
    }
}

/// The purchase, with the settlement in `_meta["x402/payment-response"]`.
fn paid(purchase: Purchase) -> CallToolResult {
    let settlement = SettleResponse {
        success: true,
        error_reason: None,
        error_message: None,
        payer: Some(purchase.address.clone()),
        transaction: purchase.tx_hash.clone(),
        network: purchase.network.clone(),
    };
    let mut result = answer::<Purchase, ApiError>(Ok(purchase));
    let mut meta = MetaObject::new();
    meta.insert(PAYMENT_RESPONSE_META.into(), json!(settlement));
    result.meta = Some(meta);
    result
}

/// A 402 as the transport wants it: the body (the `PaymentRequired`, with `error`, `detail`
/// and `code`) in `structuredContent` and as JSON in `content[0].text`, and the failed
/// settlement of a presented payment in `_meta`; other errors as the other tools answer them.
fn refused(error: ApiError) -> CallToolResult {
    let ApiError::PaymentRequired(challenge) = &error else {
        return answer::<Purchase, _>(Err(error));
    };
    let body = error.body();
    let mut result = CallToolResult::structured_error(body.clone());
    result.content = vec![ContentBlock::text(body.to_string())];
    if let Some(settlement) = challenge.settlement() {
        let mut meta = MetaObject::new();
        meta.insert(PAYMENT_RESPONSE_META.into(), json!(settlement));
        result.meta = Some(meta);
    }
    result
}

/// The challenge of `tier` inside MCP: the tier's one offer, the tool as the resource, and the
/// `bazaar` (its MCP-tool form) and `payment-identifier` extensions.
pub fn required(terms: &Terms, tier: &Tier) -> PaymentRequired {
    PaymentRequired {
        x402_version: X402_VERSION,
        error: None,
        resource: ResourceInfo {
            url: format!("mcp://tool/{NAME}"),
            description: Some(format!(
                "{} chips (the {} tier), credited to the address that signs the payment",
                tier.chips, tier.name
            )),
            mime_type: Some("application/json".into()),
            service_name: None,
            tags: Vec::new(),
        },
        accepts: vec![terms.requirements(tier)],
        extensions: [
            (
                BAZAAR.to_owned(),
                bazaar::extension(terms, tier, NAME, DESCRIPTION),
            ),
            (
                PAYMENT_IDENTIFIER.to_owned(),
                payment_identifier::declaration(),
            ),
        ]
        .into_iter()
        .collect(),
    }
}

impl Summary for Purchase {
    fn summary(&self) -> String {
        format!(
            "{} bought {} chips ({} tier) in transaction {}; balance {}.",
            self.address, self.chips_credited, self.tier, self.tx_hash, self.balance
        )
    }
}
