//! Server seeds, client seeds and the commitment (fairness v1, "Inputs").

use crate::digest::sha256;
use crate::error::SeedError;
use crate::hex;

/// Length of a server seed in characters (32 bytes written as hex).
pub const SERVER_SEED_LEN: usize = 64;
/// Largest client seed, in Unicode characters.
pub const MAX_CLIENT_SEED_CHARS: usize = 256;

/// A validated server seed: exactly 64 lowercase hex characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerSeed<'a>(&'a str);

impl<'a> ServerSeed<'a> {
    /// Accepts exactly 64 characters of `0-9a-f`.
    pub fn parse(text: &'a str) -> Result<Self, SeedError> {
        if text.len() != SERVER_SEED_LEN {
            return Err(SeedError::ServerSeedLength { len: text.len() });
        }
        if let Some(index) = text.bytes().position(|c| !hex::is_lower_hex_digit(c)) {
            return Err(SeedError::ServerSeedNotLowercaseHex { index });
        }
        Ok(Self(text))
    }

    /// The seed's text; its ASCII bytes are the HMAC key.
    pub fn as_str(&self) -> &'a str {
        self.0
    }

    /// The commitment published before the round is played.
    pub fn commitment(&self) -> Commitment {
        Commitment::of(self.0)
    }
}

/// Formats 32 random bytes (from the operating system's CSPRNG) as a server seed.
pub fn server_seed_from_bytes(bytes: &[u8; 32]) -> alloc::string::String {
    hex::encode(bytes)
}

/// A validated client seed: 1 to 256 Unicode characters, none of them a control character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientSeed<'a>(&'a str);

impl<'a> ClientSeed<'a> {
    /// Applies the v1 client seed rules.
    pub fn parse(text: &'a str) -> Result<Self, SeedError> {
        let mut chars = 0usize;
        for (index, c) in text.chars().enumerate() {
            if c.is_control() {
                return Err(SeedError::ClientSeedControlCharacter { index });
            }
            chars = index + 1;
        }
        match chars {
            0 => Err(SeedError::ClientSeedEmpty),
            n if n > MAX_CLIENT_SEED_CHARS => Err(SeedError::ClientSeedTooLong { chars: n }),
            _ => Ok(Self(text)),
        }
    }

    /// The seed's text; its UTF-8 bytes enter the HMAC message as they are.
    pub fn as_str(&self) -> &'a str {
        self.0
    }
}

/// The lowercase hex SHA-256 of the ASCII text of a server seed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Commitment([u8; 64]);

impl Commitment {
    /// SHA-256 over the seed's text (the 64 characters, not the decoded bytes), as
    /// `printf %s "$server_seed" | sha256sum` computes it.
    pub fn of(server_seed_text: &str) -> Self {
        let digest = sha256(&[server_seed_text.as_bytes()]);
        Self(hex::encode32(&digest))
    }

    /// The 64 hex characters.
    pub fn as_str(&self) -> &str {
        // Only ASCII hex digits are ever stored.
        core::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// Whether `claimed` (any case) names this commitment.
    pub fn matches(&self, claimed: &str) -> bool {
        // The lowercase form is the usual one: compare it whole first.
        claimed.as_bytes() == self.0 || claimed.as_bytes().eq_ignore_ascii_case(&self.0)
    }
}

impl core::fmt::Debug for Commitment {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::fmt::Display for Commitment {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = "0000000000000000000000000000000000000000000000000000000000000000";

    #[test]
    fn commitment_hashes_the_text_not_the_bytes() {
        // printf %s 0000…(64 zeros) | sha256sum
        assert_eq!(
            ServerSeed::parse(SEED).unwrap().commitment().as_str(),
            "60e05bd1b195af2f94112fa7197a5c88289058840ce7c6df9693756bc6250f55"
        );
    }

    #[test]
    fn server_seed_rules() {
        assert_eq!(
            ServerSeed::parse("abc"),
            Err(SeedError::ServerSeedLength { len: 3 })
        );
        let upper = SEED.replace('0', "A");
        assert_eq!(
            ServerSeed::parse(&upper),
            Err(SeedError::ServerSeedNotLowercaseHex { index: 0 })
        );
        let mut g = alloc::string::String::from(SEED);
        g.replace_range(10..11, "g");
        assert_eq!(
            ServerSeed::parse(&g),
            Err(SeedError::ServerSeedNotLowercaseHex { index: 10 })
        );
    }

    #[test]
    fn client_seed_rules() {
        assert_eq!(ClientSeed::parse(""), Err(SeedError::ClientSeedEmpty));
        assert!(ClientSeed::parse("a").is_ok());
        // 256 four-byte characters are fine: the limit counts characters, not bytes.
        let emoji: alloc::string::String = core::iter::repeat_n('🎲', 256).collect();
        assert!(ClientSeed::parse(&emoji).is_ok());
        let long: alloc::string::String = core::iter::repeat_n('x', 257).collect();
        assert_eq!(
            ClientSeed::parse(&long),
            Err(SeedError::ClientSeedTooLong { chars: 257 })
        );
        assert_eq!(
            ClientSeed::parse("ab\ncd"),
            Err(SeedError::ClientSeedControlCharacter { index: 2 })
        );
        assert_eq!(
            ClientSeed::parse("é\u{7f}"),
            Err(SeedError::ClientSeedControlCharacter { index: 1 })
        );
    }

    #[test]
    fn commitment_match_ignores_case_only() {
        let c = ServerSeed::parse(SEED).unwrap().commitment();
        assert!(c.matches(&c.as_str().to_ascii_uppercase()));
        assert!(!c.matches(&c.as_str()[1..]));
    }
}
