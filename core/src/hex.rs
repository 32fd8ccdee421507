//! Lowercase hexadecimal text, the form in which seeds and digests travel.

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Writes `bytes` as lowercase hex into `out`, which must be exactly twice as long.
pub(crate) fn encode_into(bytes: &[u8], out: &mut [u8]) {
    debug_assert_eq!(out.len(), bytes.len() * 2);
    for (i, &byte) in bytes.iter().enumerate() {
        if 2 * i + 1 < out.len() {
            out[2 * i] = DIGITS[usize::from(byte >> 4)];
            out[2 * i + 1] = DIGITS[usize::from(byte & 0x0f)];
        }
    }
}

/// Lowercase hex of 32 bytes, as a fixed buffer (no allocation).
pub(crate) fn encode32(bytes: &[u8; 32]) -> [u8; 64] {
    let mut out = [0u8; 64];
    encode_into(bytes, &mut out);
    out
}

/// Lowercase hex of any bytes.
pub fn encode(bytes: &[u8]) -> alloc::string::String {
    let mut out = alloc::vec![0u8; bytes.len() * 2];
    encode_into(bytes, &mut out);
    // Only ASCII hex digits were written.
    alloc::string::String::from_utf8(out).unwrap_or_default()
}

/// The 32 bytes that 64 hex characters (either case, no prefix) name; `None` otherwise.
pub fn decode32(text: &str) -> Option<[u8; 32]> {
    let text = text.as_bytes();
    if text.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (byte, pair) in out.iter_mut().zip(text.chunks_exact(2)) {
        *byte = (digit(pair[0])? << 4) | digit(pair[1])?;
    }
    Some(out)
}

fn digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Whether `c` is a lowercase hex digit (`0-9a-f`).
pub(crate) fn is_lower_hex_digit(c: u8) -> bool {
    c.is_ascii_digit() || (b'a'..=b'f').contains(&c)
}

#[cfg(test)]
mod tests {
    #[test]
    fn encodes_lowercase() {
        assert_eq!(super::encode(&[0x00, 0xab, 0xff, 0x10]), "00abff10");
    }

    #[test]
    fn decodes_32_bytes_or_nothing() {
        let text = "00ABff10".repeat(8);
        let bytes = super::decode32(&text).unwrap();
        assert_eq!(super::encode(&bytes), text.to_lowercase());
        assert_eq!(super::decode32(&text[..62]), None);
        assert_eq!(super::decode32(&"zz".repeat(32)), None);
    }
}
