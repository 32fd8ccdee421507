//! Field types several inputs share, each with its one schema: a wallet address, a client
//! seed, and a choice among the names a core type (or the tier table) defines.

use std::borrow::Cow;

use alloy::primitives::Address;
use arcade_core::{BetKind, Direction, MAX_CLIENT_SEED_CHARS, Side};
use rmcp::schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer};

use super::patterns::NO_CONTROL_CHARACTERS;
use crate::address;
use crate::tiers::{TIERS, Tier};

/// `0x` + 40 hex characters, any case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalletAddress(pub Address);

impl JsonSchema for WalletAddress {
    fn schema_name() -> Cow<'static, str> {
        "WalletAddress".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "minLength": 42,
            "maxLength": 42,
            "pattern": address::ADDRESS_PATTERN,
            "x-rule": address::ADDRESS_RULE,
            "examples": [address::EXAMPLE],
        })
    }
}

impl<'de> Deserialize<'de> for WalletAddress {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        address::parse(&text)
            .map(Self)
            .ok_or_else(|| serde::de::Error::custom(address::ADDRESS_RULE))
    }
}

/// The player's own seed: 1 to 256 characters, none of them a control character (the core's
/// `ClientSeed` rule, stated as a schema).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct ClientSeedText(pub String);

impl JsonSchema for ClientSeedText {
    fn schema_name() -> Cow<'static, str> {
        "ClientSeed".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_CLIENT_SEED_CHARS,
            "pattern": NO_CONTROL_CHARACTERS,
            "x-rule": "a client seed is 1 to 256 characters, none of them a control character",
            "examples": ["f3a9c1e07b2d4e55"],
        })
    }
}

/// Types whose values are a fixed list of names.
pub trait Named: Copy + 'static {
    /// Every value, in the order the documents list them.
    fn all() -> &'static [Self];
    fn name(self) -> &'static str;
}

impl Named for Side {
    fn all() -> &'static [Self] {
        &Side::ALL
    }

    fn name(self) -> &'static str {
        self.as_str()
    }
}

impl Named for Direction {
    fn all() -> &'static [Self] {
        &Direction::ALL
    }

    fn name(self) -> &'static str {
        self.as_str()
    }
}

impl Named for BetKind {
    fn all() -> &'static [Self] {
        &BetKind::ALL
    }

    fn name(self) -> &'static str {
        self.as_str()
    }
}

impl Named for &'static Tier {
    fn all() -> &'static [Self] {
        static ALL: [&Tier; 3] = [&TIERS[0], &TIERS[1], &TIERS[2]];
        &ALL
    }

    fn name(self) -> &'static str {
        self.name
    }
}

/// One of `T`'s names, published as a string `enum`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice<T: Named>(pub T);

impl<T: Named> Choice<T> {
    pub fn value(self) -> T {
        self.0
    }
}

impl<T: Named> JsonSchema for Choice<T> {
    fn schema_name() -> Cow<'static, str> {
        let names: Vec<&str> = T::all().iter().map(|v| v.name()).collect();
        format!("OneOf_{}", names.join("_")).into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<&str> = T::all().iter().map(|v| v.name()).collect();
        json_schema!({ "type": "string", "enum": names, "examples": [names[0]] })
    }
}

impl<'de, T: Named> Deserialize<'de> for Choice<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        T::all()
            .iter()
            .find(|v| v.name() == text)
            .map(|v| Self(*v))
            .ok_or_else(|| serde::de::Error::custom(format!("{text:?} is not one of the names")))
    }
}
