//! Inputs of the chip purchases: the tier in the path, and a body that is absent or `{}`.

use rmcp::schemars::JsonSchema;
use serde::Deserialize;

use super::fields::Choice;
use super::{Input, Place};
use crate::tiers::Tier;

/// `/api/arcade/chips/{tier}`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct TierPath {
    /// `micro` (100 chips, 0.01 USD), `small` (1000, 0.10) or `medium` (10000, 1.00).
    pub tier: Choice<&'static Tier>,
}

impl Input for TierPath {
    const PLACE: Place = Place::Path;
}

/// A purchase takes no input: the body may be absent or `{}`; the chips go to the payment's
/// signer.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoBody {}

impl Input for NoBody {
    const PLACE: Place = Place::Body;
    const OPTIONAL_BODY: bool = true;
}
