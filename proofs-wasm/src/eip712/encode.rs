//! EIP-712 `hashStruct` and `encodeData`: every member value as its 32-byte word.

use serde_json::Value;

use super::types::lookup;
use super::{Int, Types, encode_type, from_hex, int_type, keccak, quote, show};
use crate::error::Error;

/// EIP-712 `hashStruct(value)` of type `name`.
pub fn hash_struct(types: &Types, name: &str, value: &Value) -> Result<[u8; 32], Error> {
    hash_struct_at(types, name, value, 0)
}

const MAX_DEPTH: usize = 32;

fn hash_struct_at(
    types: &Types,
    name: &str,
    value: &Value,
    depth: usize,
) -> Result<[u8; 32], Error> {
    if depth > MAX_DEPTH {
        return Err(Error::typed_data("structs nest too deeply"));
    }
    let fields = lookup(types, name)
        .ok_or_else(|| Error::typed_data(format!("types has no {}", quote(name))))?;
    let object = value
        .as_object()
        .ok_or_else(|| Error::typed_data(format!("{} is not an object", show(value))))?;
    let mut data = Vec::with_capacity(32 * (fields.len() + 1));
    data.extend_from_slice(&keccak(encode_type(types, name)?.as_bytes()));
    for field in fields {
        let member = object
            .get(&field.name)
            .ok_or_else(|| Error::typed_data(format!("{} is missing", field.name)))?;
        let word =
            encode_field(types, &field.kind, member, depth).map_err(|e| e.at(&field.name))?;
        data.extend_from_slice(&word);
    }
    Ok(keccak(&data))
}

/// The word of one member: arrays and structs hashed, atomic types encoded.
fn encode_field(types: &Types, kind: &str, value: &Value, depth: usize) -> Result<[u8; 32], Error> {
    if let Some(open) = kind.rfind('[') {
        return encode_array(types, kind, open, value, depth);
    }
    if lookup(types, kind).is_some() {
        return hash_struct_at(types, kind, value, depth + 1);
    }
    encode_atomic(kind, value)
}

/// `T[]` / `T[n]` (the last `[` at `open`): the hash of its items' words.
fn encode_array(
    types: &Types,
    kind: &str,
    open: usize,
    value: &Value,
    depth: usize,
) -> Result<[u8; 32], Error> {
    let element = &kind[..open];
    let length = kind[open + 1..]
        .strip_suffix(']')
        .ok_or_else(|| Error::typed_data(format!("unknown type {}", quote(kind))))?;
    let items = value
        .as_array()
        .ok_or_else(|| Error::typed_data(format!("{} is not an array", show(value))))?;
    if !length.is_empty() && length.parse::<usize>().ok() != Some(items.len()) {
        return Err(Error::typed_data(format!(
            "{kind} needs {length} items, not {}",
            items.len()
        )));
    }
    let mut data = Vec::with_capacity(32 * items.len());
    for (i, item) in items.iter().enumerate() {
        let word =
            encode_field(types, element, item, depth + 1).map_err(|e| e.at(&format!("[{i}]")))?;
        data.extend_from_slice(&word);
    }
    Ok(keccak(&data))
}

/// `string`, `bytes`, `bool`, `address`, `bytesN`, `uintN` and `intN`.
fn encode_atomic(kind: &str, value: &Value) -> Result<[u8; 32], Error> {
    let mut word = [0u8; 32];
    match kind {
        "string" => {
            let text = value
                .as_str()
                .ok_or_else(|| Error::typed_data(format!("{} is not a string", show(value))))?;
            Ok(keccak(text.as_bytes()))
        }
        "bytes" => Ok(keccak(&from_hex(hex_string(value)?)?)),
        "bool" => {
            let b = value.as_bool().ok_or_else(|| {
                Error::typed_data(format!("{} is not true or false", show(value)))
            })?;
            word[31] = u8::from(b);
            Ok(word)
        }
        "address" => {
            let bytes = from_hex(hex_string(value)?)?;
            if bytes.len() != 20 {
                return Err(Error::typed_data(format!(
                    "{} is not an address (20 bytes)",
                    show(value)
                )));
            }
            word[12..].copy_from_slice(&bytes);
            Ok(word)
        }
        _ => {
            if let Some(size) = kind.strip_prefix("bytes") {
                return encode_fixed_bytes(kind, size, value);
            }
            let (signed, bits) = int_type(kind)
                .ok_or_else(|| Error::typed_data(format!("unknown type {}", quote(kind))))?;
            Int::from_json(value)?.encode(signed, bits)
        }
    }
}

/// `bytesN` (`size` the text after `bytes`): exactly N bytes, left-aligned.
fn encode_fixed_bytes(kind: &str, size: &str, value: &Value) -> Result<[u8; 32], Error> {
    let size: usize = size
        .parse()
        .ok()
        .filter(|n| (1..=32).contains(n) && !size.starts_with('0'))
        .ok_or_else(|| Error::typed_data(format!("unknown type {}", quote(kind))))?;
    let bytes = from_hex(hex_string(value)?)?;
    if bytes.len() != size {
        return Err(Error::typed_data(format!(
            "{} is {} bytes, not {size}",
            show(value),
            bytes.len()
        )));
    }
    let mut word = [0u8; 32];
    word[..size].copy_from_slice(&bytes);
    Ok(word)
}

fn hex_string(value: &Value) -> Result<&str, Error> {
    value
        .as_str()
        .ok_or_else(|| Error::typed_data(format!("{} is not a 0x hex string", show(value))))
}
