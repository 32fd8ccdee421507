//! The settings' value types: amounts written as decimal strings, and secrets kept out of
//! every log and debug output.

use std::fmt;

use alloy::primitives::U256;
use serde::{Deserialize, Serialize};

/// A non-negative integer amount (wei or token base units): a decimal string or a number in
/// settings, as money is on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Amount(pub U256);

impl From<u64> for Amount {
    fn from(value: u64) -> Self {
        Self(U256::from(value))
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for Amount {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0.to_string())
    }
}

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Amount;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a non-negative integer (a decimal string or a number)")
            }
            fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Amount, E> {
                Ok(Amount::from(value))
            }
            fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Amount, E> {
                u64::try_from(value)
                    .map(Amount::from)
                    .map_err(|_| E::custom("a negative amount"))
            }
            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Amount, E> {
                let digits = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
                digits
                    .then(|| U256::from_str_radix(value, 10).ok())
                    .flatten()
                    .map(Amount)
                    .ok_or_else(|| E::custom(format!("{value:?} is not a decimal amount")))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// A value that never appears in logs or debug output.
#[derive(Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// A list setting that may also be given as one value (`ARCADE__CHAIN__RPC_URLS=http://…`).
pub fn one_or_many<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany<T> {
        One(T),
        Many(Vec<T>),
    }
    Ok(match OneOrMany::deserialize(deserializer)? {
        OneOrMany::One(value) => vec![value],
        OneOrMany::Many(values) => values,
    })
}
