//! Reading the fields of a JSON answer, with a problem that names the missing or bad one.

use serde_json::Value;

use super::unix_seconds;
use crate::eip712::show;
use crate::error::Error;

/// The value at a dotted `path`, missing when absent or null.
pub(super) fn field<'a>(object: &'a Value, path: &str) -> Result<&'a Value, Error> {
    let mut value = object;
    for key in path.split('.') {
        value = value
            .get(key)
            .filter(|v| !v.is_null())
            .ok_or_else(|| Error::input(format!("{path} is missing")))?;
    }
    Ok(value)
}

/// A string field.
pub(super) fn text<'a>(object: &'a Value, path: &str) -> Result<&'a str, Error> {
    let value = field(object, path)?;
    value
        .as_str()
        .ok_or_else(|| Error::input(format!("{path} is {}, not a string", show(value))))
}

/// A non-negative integer field.
pub(super) fn unsigned(object: &Value, path: &str) -> Result<u64, Error> {
    let value = field(object, path)?;
    value.as_u64().ok_or_else(|| {
        Error::input(format!(
            "{path} is {}, not a non-negative integer",
            show(value)
        ))
    })
}

/// An integer field.
pub(super) fn signed(object: &Value, path: &str) -> Result<i64, Error> {
    let value = field(object, path)?;
    value
        .as_i64()
        .ok_or_else(|| Error::input(format!("{path} is {}, not an integer", show(value))))
}

/// `0x` + the 64 lowercase hex digits of a hash or seed (given with or without `0x`).
pub(super) fn bytes32(object: &Value, path: &str) -> Result<String, Error> {
    let raw = text(object, path)?;
    let digits = raw.strip_prefix("0x").unwrap_or(raw);
    if digits.len() != 64 || !digits.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(Error::input(format!(
            "{path} is {}, not 64 hex digits",
            show(&Value::from(raw))
        )));
    }
    Ok(format!("0x{}", digits.to_ascii_lowercase()))
}

/// A full address field, as given.
pub(super) fn address(object: &Value, path: &str) -> Result<String, Error> {
    let raw = text(object, path)?;
    if crate::signature::parse_address(raw).is_none() {
        return Err(Error::input(format!(
            "{path} is {}, not a full address (0x + 40 hex)",
            show(&Value::from(raw))
        )));
    }
    Ok(raw.to_owned())
}

/// An RFC 3339 time field in unix seconds.
pub(super) fn seconds(object: &Value, path: &str) -> Result<u64, Error> {
    let raw = text(object, path)?;
    unix_seconds(raw).ok_or_else(|| {
        Error::input(format!(
            "{path} is {}, not an RFC 3339 time after 1970",
            show(&Value::from(raw))
        ))
    })
}
