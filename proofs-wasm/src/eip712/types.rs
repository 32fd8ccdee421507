//! Struct types: their member lists as typed data gives them, and EIP-712 `encodeType`.

use serde_json::{Map, Value};

use super::{quote, show};
use crate::error::Error;

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

pub(super) fn lookup<'a>(types: &'a Types, name: &str) -> Option<&'a [Field]> {
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
