//! EIP-712 hashing of typed data given as JSON (`{domain, types, primaryType, message}`):
//! `encodeType`, `hashStruct` and the signing hash `keccak256(0x1901 ‖ domainSeparator ‖
//! hashStruct(message))`.
//!
//! Field types: `string`, `bytes`, `bytes1`..`bytes32`, `address`, `bool`, `uint8`..`uint256`,
//! `int8`..`int256` (`uint`/`int` mean 256), structs defined in `types` (nested), and arrays
//! of any of these (`T[]`, `T[n]`). Integers are JSON numbers (integers, safe in JS) or
//! strings, decimal (`"-12"`) or `0x` hex; each must fit its type. `bytes`, `bytesN` and
//! addresses are `0x` hex (`bytesN` exactly N bytes; addresses in any case).

mod encode;
mod hex;
mod int;
mod show;
mod types;

use serde_json::{Map, Value};
use sha3::{Digest, Keccak256};

use crate::error::Error;
use types::lookup;

pub use encode::hash_struct;
pub use hex::{from_hex, to_hex};
pub use int::{Int, int_type};
pub use show::{quote, show};
pub use types::{Field, Types, domain_fields, encode_one, encode_type, parse_fields, parse_types};

/// Keccak-256.
pub fn keccak(data: &[u8]) -> [u8; 32] {
    Keccak256::digest(data).into()
}

/// The parts of typed data.
pub struct TypedData {
    /// Struct types (`EIP712Domain` always among them).
    pub types: Types,
    /// `domain` (empty when absent).
    pub domain: Map<String, Value>,
    /// `primaryType`.
    pub primary_type: String,
    /// `message`.
    pub message: Value,
}

impl TypedData {
    /// Reads `{domain, types, primaryType, message}`.
    pub fn from_json(value: &Value) -> Result<Self, Error> {
        let object = value
            .as_object()
            .ok_or_else(|| Error::typed_data("typed data is not an object"))?;
        let mut types = parse_types(
            object
                .get("types")
                .ok_or_else(|| Error::typed_data("types is missing"))?,
        )?;
        let domain = match object.get("domain") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(map)) => map.clone(),
            Some(_) => return Err(Error::typed_data("domain is not an object")),
        };
        if lookup(&types, "EIP712Domain").is_none() {
            types.push(("EIP712Domain".to_owned(), domain_fields(&domain)));
        }
        let primary_type = object
            .get("primaryType")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::typed_data("primaryType is missing or not a string"))?
            .to_owned();
        let message = object.get("message").cloned().unwrap_or(Value::Null);
        Ok(Self {
            types,
            domain,
            primary_type,
            message,
        })
    }

    /// `hashStruct(domain)` with the `EIP712Domain` type.
    pub fn domain_separator(&self) -> Result<[u8; 32], Error> {
        hash_struct(
            &self.types,
            "EIP712Domain",
            &Value::Object(self.domain.clone()),
        )
        .map_err(|e| e.at("domain"))
    }

    /// The signing hash: `keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message))` (the
    /// message part left out when the primary type is `EIP712Domain`).
    pub fn signing_hash(&self) -> Result<[u8; 32], Error> {
        let mut data = Vec::with_capacity(66);
        data.extend_from_slice(&[0x19, 0x01]);
        data.extend_from_slice(&self.domain_separator()?);
        if self.primary_type != "EIP712Domain" {
            let hash = hash_struct(&self.types, &self.primary_type, &self.message)
                .map_err(|e| e.at("message"))?;
            data.extend_from_slice(&hash);
        }
        Ok(keccak(&data))
    }
}

/// The signing hash of typed-data JSON text.
pub fn typed_data_hash(json: &Value) -> Result<[u8; 32], Error> {
    TypedData::from_json(json)?.signing_hash()
}

#[cfg(test)]
mod tests;
