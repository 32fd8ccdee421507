//! Challenge nonces that need no storage: 16 bytes of an HMAC, under a key derived from
//! `auth.secret`, of what the challenge binds (the address and its statement generation, or
//! nothing for the 402's open challenge) and of its `issuedAt` and `expirationTime`. Only this
//! deployment can issue one, a client cannot move its window, and checking one reads nothing
//! that a database restore could roll back.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::address;
use crate::signatures::Generation;
use alloy::primitives::Address;

/// What a nonce binds besides its window.
#[derive(Debug, Clone, Copy)]
pub enum Binding<'a> {
    /// One address at one statement generation: rotating revokes it.
    Address(&'a Address, &'a Generation),
    /// No address (the 402 cannot know the payer): valid for proofs issued after the
    /// address's last rotation.
    Open,
}

pub struct NonceKey([u8; 32]);

impl NonceKey {
    pub fn derive(secret: &[u8]) -> Self {
        Self(mac(secret, &[b"arcade sign-in-with-x nonce key"]))
    }

    /// 32 hex characters.
    pub fn nonce(&self, binding: Binding<'_>, issued_at: &str, expiration: &str) -> String {
        let bound = match binding {
            Binding::Address(address, generation) => {
                format!(
                    "{}:{}:{}",
                    address::key(address),
                    generation.number,
                    generation.nonce
                )
            }
            Binding::Open => String::new(),
        };
        let parts: [&[u8]; 5] = [
            bound.as_bytes(),
            b"\n",
            issued_at.as_bytes(),
            b"\n",
            expiration.as_bytes(),
        ];
        alloy::hex::encode(&mac(&self.0, &parts)[..16])
    }

    /// Whether `nonce` is the one this key issues for `binding` and the window, compared in
    /// constant time.
    pub fn issued(
        &self,
        nonce: &str,
        binding: Binding<'_>,
        issued_at: &str,
        expiration: &str,
    ) -> bool {
        let expected = self.nonce(binding, issued_at, expiration);
        expected.len() == nonce.len()
            && expected
                .bytes()
                .zip(nonce.bytes())
                .fold(0u8, |diff, (a, b)| diff | (a ^ b))
                == 0
    }
}

fn mac(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes a key of any length");
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::signers::local::PrivateKeySigner;

    #[test]
    fn a_nonce_is_bound_to_its_address_generation_and_window() {
        let key = NonceKey::derive(b"secret");
        let address = PrivateKeySigner::random().address();
        let other = PrivateKeySigner::random().address();
        let first = Generation {
            number: 0,
            nonce: "aa".into(),
            issued_at: 0,
        };
        let second = Generation {
            number: 1,
            nonce: "bb".into(),
            issued_at: 5,
        };
        let (at, until) = ("2030-01-01T00:00:00.000Z", "2030-01-01T00:05:00.000Z");
        let nonce = key.nonce(Binding::Address(&address, &first), at, until);
        assert_eq!(nonce.len(), 32);
        assert!(key.issued(&nonce, Binding::Address(&address, &first), at, until));
        assert!(!key.issued(&nonce, Binding::Address(&address, &second), at, until));
        assert!(!key.issued(&nonce, Binding::Address(&other, &first), at, until));
        assert!(!key.issued(&nonce, Binding::Open, at, until));
        assert!(!key.issued(
            &nonce,
            Binding::Address(&address, &first),
            at,
            "2030-01-02T00:05:00.000Z"
        ));
        assert!(!NonceKey::derive(b"other").issued(
            &nonce,
            Binding::Address(&address, &first),
            at,
            until
        ));
        assert!(!key.issued(&nonce[..31], Binding::Address(&address, &first), at, until));
    }
}
