//! Hex text: lowercase output and `0x`-prefixed input.

use super::quote;
use crate::error::Error;

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

/// The value of one hex digit (either case).
pub(super) fn nibble(c: u8) -> Option<u8> {
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
