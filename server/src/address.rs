//! Wallet addresses: accepted in any case as `0x` + 40 hex, stored lowercase, shown checksummed.

use alloy::primitives::Address;

pub const ADDRESS_RULE: &str = "address must be 0x followed by 40 hex characters";
/// [`ADDRESS_RULE`] as a JSON Schema pattern (with `minLength`/`maxLength` 42 beside it).
pub const ADDRESS_PATTERN: &str = "^0[xX][0-9a-fA-F]{40}$";
/// An address for examples (EIP-55's own test vector).
pub const EXAMPLE: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

pub fn parse(text: &str) -> Option<Address> {
    let hex = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))?;
    if hex.len() != 40 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    hex.parse().ok()
}

/// The form kept in the database: `0x` + lowercase hex.
pub fn key(address: &Address) -> String {
    format!("{address:#x}")
}

/// EIP-55 checksummed, as every response shows it.
pub fn display(address: &Address) -> String {
    address.to_checksum(None)
}

/// Checksummed from the stored form.
pub fn display_key(key: &str) -> String {
    parse(key).map_or_else(|| key.to_owned(), |a| display(&a))
}

/// `0x1234…abcd`, for public listings.
pub fn truncated(key: &str) -> String {
    let shown = display_key(key);
    match (shown.get(..6), shown.get(shown.len().saturating_sub(4)..)) {
        (Some(head), Some(tail)) if shown.len() > 10 => format!("{head}…{tail}"),
        _ => shown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_case_in_checksummed_out() {
        let lower = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed";
        let address = parse(lower).unwrap();
        assert_eq!(
            display(&address),
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
        );
        assert_eq!(
            parse(&lower.to_uppercase().replace("0X", "0x")),
            Some(address)
        );
        assert_eq!(key(&address), lower);
        assert_eq!(truncated(lower), "0x5aAe…eAed");
    }

    #[test]
    fn refuses_what_is_not_an_address() {
        for bad in [
            "",
            "0x",
            "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
            "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae",
            "0xzaaeb6053f3e94c9b9a09f33669435e7ef1beaed",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
