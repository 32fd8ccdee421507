//! Proof of address control, in the wallets' own format: an EIP-4361 (Sign-In with Ethereum)
//! message, signed with `personal_sign` (EIP-191). It names the deployment (`domain` and
//! `URI` of the public URL), the address and the chain, and a `Nonce` and `Issued At` that stay
//! the same for the address until it rotates, so an agent signs once. Rotating starts a new
//! generation: every older statement's signature is then refused, named revoked when it signs
//! one of the [`OLDER_CHECKED`] statements before the current one. Older ones are not looked
//! at, so a wrong signature costs at most `1 + OLDER_CHECKED` signer recoveries however often
//! its address rotated.
//!
//! The first generation is derived (its nonce an HMAC of the address under `auth.secret`), so
//! reading a statement writes nothing; later ones are stored (`store::identities`). Verified
//! `(address, generation, signature)` triples are cached, so a steady player pays for one
//! recovery, and a rotation (a new generation) is never answered from the cache.

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use alloy::primitives::{Address, Signature};
use hmac::{Hmac, KeyInit, Mac};
use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::address;
pub use crate::signatures::{Generation, OLDER_CHECKED, SignatureError, decode_signature};
use crate::siwx::Siwx;

const CACHE_CAPACITY: usize = 100_000;

/// A signature verified: its address, the generation's number and nonce, and its bytes.
type Verified = (Address, i64, String, [u8; 65]);
/// The line the message states: what signing it does, and what it does not.
const PURPOSE: &str = "Sign in to the arcade to prove you control this address. Signing authorizes no payment or transfer.";

/// The statement to sign, as `GET /api/arcade/auth-statement/{address}` answers it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AuthStatement {
    pub address: String,
    /// The exact text to sign with `personal_sign`: an EIP-4361 message, stable for this address
    /// on this deployment until it rotates.
    pub statement: String,
    /// Always `eip191`: the message is signed with `personal_sign`.
    pub scheme: String,
    /// Always `eip4361` (Sign-In with Ethereum).
    pub format: String,
    /// The statement's generation: 0 until the address rotates.
    pub generation: i64,
}

pub struct Identity {
    domain: String,
    uri: String,
    chain_id: u64,
    secret: Vec<u8>,
    first_issued_at: i64,
    verified: Mutex<HashSet<Verified>>,
    siwx: Siwx,
    /// Signer recoveries done so far: the CPU a signature check costs, for tests of its bound.
    recoveries: AtomicU64,
}

impl Identity {
    /// `domain` is the public URL's authority, `uri` the public URL itself.
    pub fn new(
        domain: impl Into<String>,
        uri: impl Into<String>,
        chain_id: u64,
        secret: &[u8],
        first_issued_at: i64,
    ) -> Self {
        let (domain, uri) = (domain.into(), uri.into());
        Self {
            siwx: Siwx::new(domain.clone(), uri.clone(), chain_id, PURPOSE, secret),
            domain,
            uri,
            chain_id,
            secret: secret.to_vec(),
            first_issued_at,
            verified: Mutex::new(HashSet::new()),
            recoveries: AtomicU64::new(0),
        }
    }

    /// Sign-in-with-x proofs, checked against the same deployment and generations.
    pub fn siwx(&self) -> &Siwx {
        &self.siwx
    }

    /// How many signers this identity has recovered from statement signatures and
    /// sign-in-with-x proofs (each an ECDSA recovery).
    pub fn recoveries(&self) -> u64 {
        self.recoveries.load(Ordering::Relaxed) + self.siwx.recoveries()
    }

    /// Generation 0: derived, never stored.
    pub fn first_generation(&self, address: &Address) -> Generation {
        // Cannot fail: HMAC takes a key of any length.
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.secret)
            .expect("HMAC takes a key of any length");
        mac.update(address::key(address).as_bytes());
        let digest = mac.finalize().into_bytes();
        Generation {
            number: 0,
            nonce: alloy::hex::encode(&digest[..12]),
            issued_at: self.first_issued_at,
        }
    }

    /// The EIP-4361 message of `generation` for `address`.
    pub fn statement(&self, address: &Address, generation: &Generation) -> String {
        let issued_at = chrono::DateTime::from_timestamp_millis(generation.issued_at)
            .unwrap_or_default()
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        format!(
            "{domain} wants you to sign in with your Ethereum account:\n\
             {address}\n\
             \n\
             {PURPOSE}\n\
             \n\
             URI: {uri}\n\
             Version: 1\n\
             Chain ID: {chain_id}\n\
             Nonce: {nonce}\n\
             Issued At: {issued_at}",
            domain = self.domain,
            address = address::display(address),
            uri = self.uri,
            chain_id = self.chain_id,
            nonce = generation.nonce,
        )
    }

    pub fn answer(&self, address: &Address, generation: &Generation) -> AuthStatement {
        AuthStatement {
            address: address::display(address),
            statement: self.statement(address, generation),
            scheme: "eip191".into(),
            format: "eip4361".into(),
            generation: generation.number,
        }
    }

    /// Whether `signature` signs `generation`'s statement for `address`. `older` are the
    /// address's earlier generations, newest first: a signature of one of the first
    /// [`OLDER_CHECKED`] is `Revoked`; any other wrong signature is a `Mismatch`.
    pub fn verify(
        &self,
        address: &Address,
        signature: Option<&str>,
        current: &Generation,
        older: &[Generation],
    ) -> Result<(), SignatureError> {
        let signature = signature.ok_or(SignatureError::Required)?;
        let bytes = decode_signature(signature)?;
        if self.is_cached(address, current, &bytes) {
            return Ok(());
        }
        let parsed = Signature::from_raw_array(&bytes)
            .map_err(|e| SignatureError::Invalid(e.to_string()))?;
        let recover = |generation: &Generation| {
            self.recoveries.fetch_add(1, Ordering::Relaxed);
            parsed
                .recover_address_from_msg(self.statement(address, generation).as_bytes())
                .map_err(|e| SignatureError::Invalid(e.to_string()))
        };
        let recovered = recover(current)?;
        if recovered == *address {
            self.remember(*address, current, bytes);
            return Ok(());
        }
        let revoked = older
            .iter()
            .take(OLDER_CHECKED)
            .any(|old| recover(old).ok() == Some(*address));
        if revoked {
            return Err(SignatureError::Revoked(address::display(address)));
        }
        Err(SignatureError::Mismatch {
            claimed: address::display(address),
            recovered: address::display(&recovered),
        })
    }

    /// Whether `bytes` was verified for the address's `generation`, nonce included: after a
    /// restore a generation's number may come back with another nonce (another statement).
    fn is_cached(&self, address: &Address, generation: &Generation, bytes: &[u8; 65]) -> bool {
        let verified = self.verified.lock().unwrap_or_else(|e| e.into_inner());
        verified.contains(&(
            *address,
            generation.number,
            generation.nonce.clone(),
            *bytes,
        ))
    }

    fn remember(&self, address: Address, generation: &Generation, bytes: [u8; 65]) {
        let mut verified = self.verified.lock().unwrap_or_else(|e| e.into_inner());
        if verified.len() >= CACHE_CAPACITY {
            verified.clear();
        }
        verified.insert((address, generation.number, generation.nonce.clone(), bytes));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::signers::SignerSync;
    use alloy::signers::local::PrivateKeySigner;

    fn identity() -> Identity {
        Identity::new(
            "arcade.example",
            "https://arcade.example",
            8453,
            b"secret",
            1_798_761_600_000,
        )
    }

    fn sign(text: &str, signer: &PrivateKeySigner) -> String {
        let signature = signer.sign_message_sync(text.as_bytes()).unwrap();
        format!("0x{}", alloy::hex::encode(signature.as_bytes()))
    }

    #[test]
    fn the_statement_is_an_eip_4361_message_stable_for_one_address() {
        let identity = identity();
        let address = address::parse("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed").unwrap();
        let first = identity.first_generation(&address);
        let statement = identity.statement(&address, &first);
        assert_eq!(
            statement,
            format!(
                "arcade.example wants you to sign in with your Ethereum account:\n\
                 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\n\n{PURPOSE}\n\n\
                 URI: https://arcade.example\nVersion: 1\nChain ID: 8453\n\
                 Nonce: {}\nIssued At: 2027-01-01T00:00:00.000Z",
                first.nonce
            )
        );
        assert_eq!(first.nonce.len(), 24);
        assert!(first.nonce.bytes().all(|b| b.is_ascii_alphanumeric()));
        assert_eq!(identity.first_generation(&address), first, "stable");
        let other = PrivateKeySigner::random().address();
        assert_ne!(identity.first_generation(&other).nonce, first.nonce);
    }

    #[test]
    fn accepts_its_signer_refuses_others_and_names_a_revoked_statement() {
        let identity = identity();
        let player = PrivateKeySigner::random();
        let address = player.address();
        let first = identity.first_generation(&address);
        let good = sign(&identity.statement(&address, &first), &player);
        assert_eq!(identity.verify(&address, Some(&good), &first, &[]), Ok(()));
        assert_eq!(
            identity.verify(&address, Some(&good), &first, &[]),
            Ok(()),
            "cached"
        );
        let stranger = PrivateKeySigner::random();
        let forged = sign(&identity.statement(&address, &first), &stranger);
        assert!(matches!(
            identity.verify(&address, Some(&forged), &first, &[]),
            Err(SignatureError::Mismatch { .. })
        ));
        let second = Generation {
            number: 1,
            nonce: "f00dfeedcafe0123".into(),
            issued_at: 1_800_000_000_000,
        };
        assert_eq!(
            identity.verify(&address, Some(&good), &second, std::slice::from_ref(&first)),
            Err(SignatureError::Revoked(address::display(&address))),
            "the cached first-generation signature does not pass for the second"
        );
        let current = sign(&identity.statement(&address, &second), &player);
        assert_eq!(
            identity.verify(&address, Some(&current), &second, &[first]),
            Ok(())
        );
        assert!(matches!(
            identity.verify(&address, Some("0x1234"), &second, &[]),
            Err(SignatureError::Invalid(_))
        ));
        assert_eq!(
            identity.verify(&address, None, &second, &[]),
            Err(SignatureError::Required)
        );
    }

    #[test]
    fn a_refused_signature_is_checked_against_a_few_older_statements_at_most() {
        let identity = identity();
        let player = PrivateKeySigner::random();
        let address = player.address();
        let generation = |number: i64| Generation {
            number,
            nonce: format!("{number:024x}"),
            issued_at: 1_800_000_000_000 + number,
        };
        // Newest first, as the service reads them: 99 down to 0.
        let older: Vec<Generation> = (0..100).rev().map(generation).collect();
        let current = generation(100);
        let signed =
            |number: i64| sign(&identity.statement(&address, &generation(number)), &player);
        let spent = |signature: &str| {
            let before = identity.recoveries();
            let verdict = identity.verify(&address, Some(signature), &current, &older);
            (verdict, identity.recoveries() - before)
        };
        let (verdict, cost) = spent(&signed(99));
        assert_eq!(
            verdict,
            Err(SignatureError::Revoked(address::display(&address)))
        );
        assert_eq!(cost, 2, "the current statement, then the one before");
        let (verdict, cost) = spent(&signed(98));
        assert!(matches!(verdict, Err(SignatureError::Revoked(_))));
        assert_eq!(cost, 3);
        let (verdict, cost) = spent(&signed(0));
        assert!(matches!(verdict, Err(SignatureError::Mismatch { .. })));
        assert_eq!(cost, 1 + OLDER_CHECKED as u64, "not one per rotation");
        let stranger = sign(
            &identity.statement(&address, &current),
            &PrivateKeySigner::random(),
        );
        assert_eq!(spent(&stranger).1, 1 + OLDER_CHECKED as u64);
        assert_eq!(spent(&signed(100)), (Ok(()), 1));
    }
}
