//! EIP-712 hashing of typed data given as JSON (`{domain, types, primaryType, message}`):
//! `encodeType`, `hashStruct` and the signing hash `keccak256(0x1901 ‖ domainSeparator ‖
//! hashStruct(message))`.
//!
//! Field types: `string`, `bytes`, `bytes1`..`bytes32`, `address`, `bool`, `uint8`..`uint256`,
//! `int8`..`int256` (`uint`/`int` mean 256), structs defined in `types` (nested), and arrays
//! of any of these (`T[]`, `T[n]`). Integers are JSON numbers (integers, safe in JS) or
//! strings, decimal (`"-12"`) or `0x` hex; each must fit its type. `bytes`, `bytesN` and
//! addresses are `0x` hex (`bytesN` exactly N bytes; addresses in any case).

use serde_json::{Map, Value};
use sha3::{Digest, Keccak256};

use crate::error::Error;

/// Keccak-256.
pub fn keccak(data: &[u8]) -> [u8; 32] {
    Keccak256::digest(data).into()
}

/// Lowercase hex without a prefix.
pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Decodes `0x`-prefixed hex (either case).
pub fn from_hex(text: &str) -> Result<Vec<u8>, Error> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .ok_or_else(|| Error::typed_data(format!("{} is not 0x-prefixed hex", quote(text))))?;
    let bytes = digits.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return Err(Error::typed_data(format!(
            "{} has an odd number of hex digits",
            quote(text)
        )));
    }
    bytes
        .chunks(2)
        .map(|pair| match (nibble(pair[0]), nibble(pair[1])) {
            (Some(hi), Some(lo)) => Ok(hi << 4 | lo),
            _ => Err(Error::typed_data(format!("{} is not hex", quote(text)))),
        })
        .collect()
}

/// A string in double quotes for messages, as JSON writes it (long ones cut).
pub fn quote(text: &str) -> String {
    let cut: String = text.chars().take(80).collect();
    let quoted = Value::String(cut.clone()).to_string();
    if cut.len() < text.len() {
        format!("{quoted}…")
    } else {
        quoted
    }
}

/// A value as compact JSON for messages (long ones cut).
pub fn show(value: &Value) -> String {
    match value {
        Value::String(s) => quote(s),
        other => {
            let text = other.to_string();
            if text.chars().count() > 80 {
                format!("{}…", text.chars().take(80).collect::<String>())
            } else {
                text
            }
        }
    }
}

/// An integer of at most 256 bits of magnitude, with its sign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Int {
    /// Negative (never set for zero).
    pub negative: bool,
    /// Big-endian magnitude.
    pub magnitude: [u8; 32],
}

impl Int {
    /// From a JSON number (an integer, safe in JS if it is a float) or a decimal / `0x` hex
    /// string with an optional `-`.
    pub fn from_json(value: &Value) -> Result<Self, Error> {
        match value {
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    Ok(Self::from_u64(u, false))
                } else if let Some(i) = n.as_i64() {
                    Ok(Self::from_u64(i.unsigned_abs(), i < 0))
                } else {
                    // A float: only integers JS holds exactly (larger ones lost digits already).
                    Err(Error::typed_data(format!(
                        "{n} is not an integer below 2^64 (give large integers as decimal strings)"
                    )))
                }
            }
            Value::String(s) => Self::parse(s),
            other => Err(Error::typed_data(format!(
                "{} is not an integer (a number or a decimal string)",
                show(other)
            ))),
        }
    }

    fn from_u64(u: u64, negative: bool) -> Self {
        let mut magnitude = [0u8; 32];
        magnitude[24..].copy_from_slice(&u.to_be_bytes());
        Self {
            negative: negative && u != 0,
            magnitude,
        }
    }

    /// Decimal or `0x` hex, with an optional leading `-`.
    pub fn parse(text: &str) -> Result<Self, Error> {
        let bad = || Error::typed_data(format!("{} is not an integer", quote(text)));
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (radix, digits) = match rest.strip_prefix("0x").or_else(|| rest.strip_prefix("0X")) {
            Some(hex) => (16u8, hex),
            None => (10u8, rest),
        };
        if digits.is_empty() {
            return Err(bad());
        }
        let mut magnitude = [0u8; 32];
        for c in digits.bytes() {
            let d = nibble(c).filter(|d| *d < radix).ok_or_else(bad)?;
            let mut carry = u16::from(d);
            for byte in magnitude.iter_mut().rev() {
                let v = u16::from(*byte) * u16::from(radix) + carry;
                let [lo, hi] = v.to_le_bytes();
                *byte = lo;
                carry = u16::from(hi);
            }
            if carry != 0 {
                return Err(Error::typed_data(format!(
                    "{} does not fit in 256 bits",
                    quote(text)
                )));
            }
        }
        let zero = magnitude == [0u8; 32];
        Ok(Self {
            negative: negative && !zero,
            magnitude,
        })
    }

    /// Bits needed for the magnitude.
    fn bit_len(&self) -> u32 {
        match self.magnitude.iter().position(|b| *b != 0) {
            None => 0,
            Some(i) => {
                let bytes_after = u32::try_from(31 - i).unwrap_or(0);
                bytes_after * 8 + (8 - self.magnitude[i].leading_zeros())
            }
        }
    }

    fn is_power_of_two(&self) -> bool {
        self.magnitude.iter().map(|b| b.count_ones()).sum::<u32>() == 1
    }

    /// The 32-byte ABI word of this value as `uintN` / `intN`, after checking its range.
    pub fn encode(&self, signed: bool, bits: u32) -> Result<[u8; 32], Error> {
        let kind = if signed { "int" } else { "uint" };
        let fits = if !signed {
            !self.negative && self.bit_len() <= bits
        } else if self.negative {
            self.bit_len() < bits || (self.bit_len() == bits && self.is_power_of_two())
        } else {
            self.bit_len() < bits
        };
        if !fits {
            return Err(Error::typed_data(format!("out of range for {kind}{bits}")));
        }
        let mut word = self.magnitude;
        if self.negative {
            // Two's complement: invert, add one.
            for b in &mut word {
                *b = !*b;
            }
            for b in word.iter_mut().rev() {
                let (sum, overflow) = b.overflowing_add(1);
                *b = sum;
                if !overflow {
                    break;
                }
            }
        }
        Ok(word)
    }
}

/// One `{name, type}` member of a struct type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// Its name.
    pub name: String,
    /// Its type (`uint256`, `Person`, `string[]`, …).
    pub kind: String,
}

impl Field {
    /// A member.
    pub fn new(name: &str, kind: &str) -> Self {
        Self {
            name: name.to_owned(),
            kind: kind.to_owned(),
        }
    }
}

/// Every struct type by name.
pub type Types = Vec<(String, Vec<Field>)>;

/// Parses `types` (`{Name: [{name, type}, …], …}`).
pub fn parse_types(value: &Value) -> Result<Types, Error> {
    let map = value
        .as_object()
        .ok_or_else(|| Error::typed_data("types is not an object"))?;
    map.iter()
        .map(|(name, fields)| {
            Ok((
                name.clone(),
                parse_fields(fields).map_err(|e| e.at(&format!("types.{name}")))?,
            ))
        })
        .collect()
}

/// Parses one struct type's member list.
pub fn parse_fields(value: &Value) -> Result<Vec<Field>, Error> {
    let list = value
        .as_array()
        .ok_or_else(|| Error::typed_data("not a list of {name, type}"))?;
    list.iter()
        .map(|field| {
            let name = field.get("name").and_then(Value::as_str);
            let kind = field.get("type").and_then(Value::as_str);
            match (name, kind) {
                (Some(name), Some(kind)) => Ok(Field::new(name, kind)),
                _ => Err(Error::typed_data(format!(
                    "{} is not {{name, type}}",
                    show(field)
                ))),
            }
        })
        .collect()
}

fn lookup<'a>(types: &'a Types, name: &str) -> Option<&'a [Field]> {
    types
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, fields)| fields.as_slice())
}

/// `T` of `T[]` / `T[n]` / `T[][3]`: the element type with every array suffix removed.
fn base_type(kind: &str) -> &str {
    kind.find('[').map_or(kind, |i| &kind[..i])
}

/// `Name(type1 name1,type2 name2)`.
pub fn encode_one(name: &str, fields: &[Field]) -> String {
    let members: Vec<String> = fields
        .iter()
        .map(|f| format!("{} {}", f.kind, f.name))
        .collect();
    format!("{name}({})", members.join(","))
}

/// EIP-712 `encodeType`: the primary type, then every struct it references (transitively),
/// sorted by name.
pub fn encode_type(types: &Types, primary: &str) -> Result<String, Error> {
    let fields = lookup(types, primary)
        .ok_or_else(|| Error::typed_data(format!("types has no {}", quote(primary))))?;
    let mut found: Vec<&str> = Vec::new();
    let mut stack: Vec<&str> = vec![primary];
    while let Some(name) = stack.pop() {
        for field in lookup(types, name).unwrap_or_default() {
            let base = base_type(&field.kind);
            if base != primary && !found.contains(&base) && lookup(types, base).is_some() {
                found.push(base);
                stack.push(base);
            }
        }
    }
    // Insertion sort: a handful of names, and no generic sort in the module.
    for i in 1..found.len() {
        let mut j = i;
        while j > 0 && found[j - 1] > found[j] {
            found.swap(j - 1, j);
            j -= 1;
        }
    }
    let mut out = encode_one(primary, fields);
    for name in found {
        out.push_str(&encode_one(name, lookup(types, name).unwrap_or_default()));
    }
    Ok(out)
}

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

fn encode_field(types: &Types, kind: &str, value: &Value, depth: usize) -> Result<[u8; 32], Error> {
    if let Some(open) = kind.rfind('[') {
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
            let word = encode_field(types, element, item, depth + 1)
                .map_err(|e| e.at(&format!("[{i}]")))?;
            data.extend_from_slice(&word);
        }
        return Ok(keccak(&data));
    }
    if lookup(types, kind).is_some() {
        return hash_struct_at(types, kind, value, depth + 1);
    }
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
                word[..size].copy_from_slice(&bytes);
                return Ok(word);
            }
            let (signed, bits) = int_type(kind)
                .ok_or_else(|| Error::typed_data(format!("unknown type {}", quote(kind))))?;
            Int::from_json(value)?.encode(signed, bits)
        }
    }
}

/// `(signed, bits)` of `uintN` / `intN` (`uint` and `int` are 256 bits).
pub fn int_type(kind: &str) -> Option<(bool, u32)> {
    let (signed, size) = if let Some(size) = kind.strip_prefix("uint") {
        (false, size)
    } else {
        (true, kind.strip_prefix("int")?)
    };
    if size.is_empty() {
        return Some((signed, 256));
    }
    let bits: u32 = size.parse().ok()?;
    ((8..=256).contains(&bits) && bits.is_multiple_of(8) && !size.starts_with('0'))
        .then_some((signed, bits))
}

fn hex_string(value: &Value) -> Result<&str, Error> {
    value
        .as_str()
        .ok_or_else(|| Error::typed_data(format!("{} is not a 0x hex string", show(value))))
}

/// The `EIP712Domain` fields of a domain without an explicit type: the standard members it
/// has, in the standard order (as viem and ethers derive it).
pub fn domain_fields(domain: &Map<String, Value>) -> Vec<Field> {
    [
        ("name", "string"),
        ("version", "string"),
        ("chainId", "uint256"),
        ("verifyingContract", "address"),
        ("salt", "bytes32"),
    ]
    .into_iter()
    .filter(|(name, _)| domain.contains_key(*name))
    .map(|(name, kind)| Field::new(name, kind))
    .collect()
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
mod tests {
    use super::*;
    use serde_json::json;

    pub fn mail() -> Value {
        json!({
            "types": {
                "EIP712Domain": [
                    {"name": "name", "type": "string"},
                    {"name": "version", "type": "string"},
                    {"name": "chainId", "type": "uint256"},
                    {"name": "verifyingContract", "type": "address"}
                ],
                "Person": [
                    {"name": "name", "type": "string"},
                    {"name": "wallet", "type": "address"}
                ],
                "Mail": [
                    {"name": "from", "type": "Person"},
                    {"name": "to", "type": "Person"},
                    {"name": "contents", "type": "string"}
                ]
            },
            "primaryType": "Mail",
            "domain": {
                "name": "Ether Mail",
                "version": "1",
                "chainId": 1,
                "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"
            },
            "message": {
                "from": {"name": "Cow", "wallet": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},
                "to": {"name": "Bob", "wallet": "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},
                "contents": "Hello, Bob!"
            }
        })
    }

    #[test]
    fn mail_vector_from_the_eip() {
        let data = TypedData::from_json(&mail()).unwrap();
        assert_eq!(
            encode_type(&data.types, "Mail").unwrap(),
            "Mail(Person from,Person to,string contents)Person(string name,address wallet)"
        );
        assert_eq!(
            to_hex(&keccak(
                encode_type(&data.types, "Mail").unwrap().as_bytes()
            )),
            "a0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2"
        );
        assert_eq!(
            to_hex(&data.domain_separator().unwrap()),
            "f2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f"
        );
        assert_eq!(
            to_hex(&hash_struct(&data.types, "Mail", &data.message).unwrap()),
            "c52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e"
        );
        assert_eq!(
            to_hex(&data.signing_hash().unwrap()),
            "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
        );
    }

    #[test]
    fn a_tampered_field_changes_the_hash() {
        let mut mail = mail();
        mail["message"]["contents"] = json!("Hello, Bob?");
        assert_ne!(
            to_hex(&typed_data_hash(&mail).unwrap()),
            "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
        );
    }

    #[test]
    fn domain_type_is_derived_when_absent() {
        let mut mail = mail();
        mail["types"]
            .as_object_mut()
            .unwrap()
            .remove("EIP712Domain");
        assert_eq!(
            to_hex(&typed_data_hash(&mail).unwrap()),
            "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
        );
    }

    #[test]
    fn integers_encode_in_range_only() {
        let word = |v: Value, signed, bits| Int::from_json(&v).and_then(|i| i.encode(signed, bits));
        assert_eq!(word(json!(-1), true, 256).unwrap(), [0xff; 32]);
        assert_eq!(word(json!("-1"), true, 8).unwrap(), [0xff; 32]);
        let mut min8 = [0xff; 32];
        min8[31] = 0x80;
        assert_eq!(word(json!(-128), true, 8).unwrap(), min8);
        assert!(word(json!(-129), true, 8).is_err());
        assert!(word(json!(128), true, 8).is_err());
        assert!(word(json!(255), false, 8).is_ok());
        assert!(word(json!(256), false, 8).is_err());
        assert!(word(json!(-1), false, 256).is_err());
        let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
        assert_eq!(word(json!(max), false, 256).unwrap(), [0xff; 32]);
        assert!(
            word(
                json!(
                    "115792089237316195423570985008687907853269984665640564039457584007913129639936"
                ),
                false,
                256
            )
            .is_err()
        );
        assert!(word(json!(max), true, 256).is_err());
        let min256 =
            "-57896044618658097711785492504343953926634992332820282019728792003956564819968";
        let mut min = [0u8; 32];
        min[0] = 0x80;
        assert_eq!(word(json!(min256), true, 256).unwrap(), min);
        assert_eq!(word(json!("0x0102"), false, 16).unwrap()[30..], [1, 2]);
        assert!(word(json!(1.5), false, 256).is_err());
        assert!(word(json!("12a"), false, 256).is_err());
        assert!(word(json!(""), false, 256).is_err());
        assert!(word(json!(true), false, 256).is_err());
        assert_eq!(word(json!("-0"), true, 256).unwrap(), [0; 32]);
    }

    #[test]
    fn arrays_and_unknown_types() {
        let data = json!({
            "types": {"EIP712Domain": [], "A": [{"name": "xs", "type": "uint8[2]"}]},
            "primaryType": "A", "domain": {}, "message": {"xs": [1, 2]}
        });
        assert!(typed_data_hash(&data).is_ok());
        let mut short = data.clone();
        short["message"]["xs"] = json!([1]);
        assert!(typed_data_hash(&short).is_err());
        let mut unknown = data;
        unknown["types"]["A"][0]["type"] = json!("uint7");
        let err = typed_data_hash(&unknown).unwrap_err();
        assert!(err.message.contains("unknown type"), "{err}");
    }
}
