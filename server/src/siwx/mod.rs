//! Sign-in-with-x (x402 extension, CAIP-122 for EVM: an EIP-4361 message signed with
//! `personal_sign`): proof of address control carried in the `SIGN-IN-WITH-X` header, beside
//! the auth statement's signature.
//!
//! A challenge (`GET /api/arcade/siwx/{address}`, or the 402's `extensions`) holds a server
//! nonce ([`nonce`]) and a window of [`LIFETIME_MS`]. A proof is accepted when its domain, URI,
//! chain, version and type name this deployment, `now` is inside its window, its nonce is one
//! this deployment issued for it, and its signature recovers to the address the request acts
//! for. The address's challenge is bound to its statement generation, so rotating revokes it
//! on every instance; the 402's open challenge, which names no address, holds only for an
//! address that has never rotated (once it has, it asks for its own). Nothing is stored:
//! a proof replays within its window, as a statement signature replays until rotated.

pub mod nonce;
#[cfg(test)]
mod tests;
mod verify;
pub mod wire;

use std::sync::atomic::{AtomicU64, Ordering};

use alloy::primitives::Address;

use crate::signatures::{Generation, SignatureError};
pub use nonce::Binding;
use nonce::NonceKey;
use wire::Info;
pub use wire::SupportedChain;
pub use wire::{Declaration, HEADER, KEY};

/// How long a challenge may be signed and used: the extension's default, five minutes.
pub const LIFETIME_MS: i64 = 5 * 60 * 1000;
/// How far ahead of this instance's clock a challenge's `issuedAt` may be (another instance's
/// clock issued it).
pub const CLOCK_TOLERANCE_MS: i64 = 30 * 1000;

/// The instant a proof's window is checked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// Now (Unix milliseconds): the proof must be inside its window.
    At(i64),
    /// Not checked: the request repeats a call already settled under a proof, and only asks
    /// for its stored answer again. Everything else (deployment, nonce, generation, signer)
    /// is still checked.
    Lifted,
}

/// The deployment's side of sign-in-with-x: who it is and the key its nonces are made with.
pub struct Siwx {
    domain: String,
    uri: String,
    chain_id: u64,
    statement: String,
    key: NonceKey,
    /// Signer recoveries done so far (at most one per proof checked).
    recoveries: AtomicU64,
}

impl Siwx {
    /// `domain` is the public URL's authority, `uri` the public URL; `secret` is `auth.secret`.
    pub fn new(
        domain: impl Into<String>,
        uri: impl Into<String>,
        chain_id: u64,
        statement: impl Into<String>,
        secret: &[u8],
    ) -> Self {
        Self {
            domain: domain.into(),
            uri: uri.into(),
            chain_id,
            statement: statement.into(),
            key: NonceKey::derive(secret),
            recoveries: AtomicU64::new(0),
        }
    }

    /// How many signers proofs have been recovered from (each an ECDSA recovery).
    pub fn recoveries(&self) -> u64 {
        self.recoveries.load(Ordering::Relaxed)
    }

    /// The public URL a proof's `uri` must be under.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The ways to sign a challenge here: `eip191` on the deployment's chain.
    pub fn supported_chains(&self) -> Vec<SupportedChain> {
        vec![SupportedChain {
            chain_id: format!("eip155:{}", self.chain_id),
            kind: "eip191".into(),
        }]
    }

    /// A challenge issued at `now_ms` for `resource` (a URL under the public URL).
    pub fn declaration(&self, binding: Binding<'_>, now_ms: i64, resource: String) -> Declaration {
        let issued_at = timestamp(now_ms);
        let expiration_time = timestamp(now_ms + LIFETIME_MS);
        Declaration {
            info: Info {
                domain: self.domain.clone(),
                uri: resource.clone(),
                version: "1".into(),
                nonce: self.key.nonce(binding, &issued_at, &expiration_time),
                issued_at,
                expiration_time,
                statement: self.statement.clone(),
                resources: match binding {
                    Binding::Address(..) => vec![resource],
                    Binding::Open => Vec::new(),
                },
            },
            supported_chains: self.supported_chains(),
            schema: matches!(binding, Binding::Address(..)).then(wire::schema),
        }
    }

    /// Whether `header` proves control of `address` at `window`. `current` and `older`
    /// (newest first) are the address's statement generations, as for statement signatures.
    pub fn verify(
        &self,
        header: &str,
        address: &Address,
        current: &Generation,
        older: &[Generation],
        window: Window,
    ) -> Result<(), SignatureError> {
        let payload = wire::decode(header)?;
        verify::fields(self, &payload, address)?;
        if let Window::At(now_ms) = window {
            verify::window(&payload, now_ms)?;
        }
        verify::nonce(&self.key, &payload, address, current, older)?;
        self.recoveries.fetch_add(1, Ordering::Relaxed);
        verify::signature(&payload, address, self.chain_id)
    }
}

/// RFC 3339 in milliseconds and `Z`, as JavaScript's `toISOString` writes it.
fn timestamp(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
