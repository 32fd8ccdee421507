//! Proof of address control: the player signs this deployment's statement for their address
//! with EIP-191 `personal_sign`; the server recovers the signer. Verified pairs are cached, so a
//! steady player pays for one recovery, not one per call.

use std::collections::HashSet;
use std::sync::Mutex;

use alloy::primitives::{Address, Signature};
use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};

use crate::address;

/// The statement to sign, as `GET /api/arcade/auth-statement/{address}` answers it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AuthStatement {
    pub address: String,
    /// The exact text to sign with `personal_sign`; stable for this address on this deployment.
    pub statement: String,
    /// Always `eip191`.
    pub scheme: String,
}

/// Bump when the statement's wording changes: signatures over the old text stop verifying.
const STATEMENT_VERSION: u32 = 1;
const CACHE_CAPACITY: usize = 100_000;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("a signature of the auth statement is required")]
    Required,
    #[error("the signature is not a valid 65-byte hex signature of the auth statement: {0}")]
    Invalid(String),
    #[error("the signature was made by {recovered}, not by {claimed}")]
    Mismatch { claimed: String, recovered: String },
}

pub struct Identity {
    host: String,
    chain_id: u64,
    verified: Mutex<HashSet<(Address, [u8; 65])>>,
}

impl Identity {
    pub fn new(host: impl Into<String>, chain_id: u64) -> Self {
        Self {
            host: host.into(),
            chain_id,
            verified: Mutex::new(HashSet::new()),
        }
    }

    /// The exact text to sign for `address`: stable for one address on one deployment.
    pub fn statement(&self, address: &Address) -> String {
        format!(
            "{host} asks you to prove that you control this address.\n\
             \n\
             Address: {address}\n\
             Chain ID: {chain_id}\n\
             Statement version: {STATEMENT_VERSION}\n\
             \n\
             Signing this costs nothing and authorizes no payment or transfer.",
            host = self.host,
            address = address::display(address),
            chain_id = self.chain_id,
        )
    }

    pub fn auth_statement(&self, address: &Address) -> AuthStatement {
        AuthStatement {
            address: address::display(address),
            statement: self.statement(address),
            scheme: "eip191".into(),
        }
    }

    /// Checks that `signature` (hex, 65 bytes) signs this deployment's statement for `address`.
    pub fn verify(&self, address: &Address, signature: Option<&str>) -> Result<(), SignatureError> {
        let signature = signature.ok_or(SignatureError::Required)?;
        let bytes = decode_signature(signature)?;
        if self.is_cached(address, &bytes) {
            return Ok(());
        }
        let parsed = Signature::from_raw_array(&bytes)
            .map_err(|e| SignatureError::Invalid(e.to_string()))?;
        let recovered = parsed
            .recover_address_from_msg(self.statement(address).as_bytes())
            .map_err(|e| SignatureError::Invalid(e.to_string()))?;
        if recovered != *address {
            return Err(SignatureError::Mismatch {
                claimed: address::display(address),
                recovered: address::display(&recovered),
            });
        }
        self.remember(*address, bytes);
        Ok(())
    }

    fn is_cached(&self, address: &Address, bytes: &[u8; 65]) -> bool {
        let verified = self.verified.lock().unwrap_or_else(|e| e.into_inner());
        verified.contains(&(*address, *bytes))
    }

    fn remember(&self, address: Address, bytes: [u8; 65]) {
        let mut verified = self.verified.lock().unwrap_or_else(|e| e.into_inner());
        if verified.len() >= CACHE_CAPACITY {
            verified.clear();
        }
        verified.insert((address, bytes));
    }
}

fn decode_signature(text: &str) -> Result<[u8; 65], SignatureError> {
    let hex = text.strip_prefix("0x").unwrap_or(text);
    let bytes = alloy::hex::decode(hex).map_err(|e| SignatureError::Invalid(e.to_string()))?;
    <[u8; 65]>::try_from(bytes.as_slice())
        .map_err(|_| SignatureError::Invalid(format!("expected 65 bytes, got {}", bytes.len())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::signers::SignerSync;
    use alloy::signers::local::PrivateKeySigner;

    fn sign(identity: &Identity, signer: &PrivateKeySigner, address: &Address) -> String {
        let statement = identity.statement(address);
        let signature = signer.sign_message_sync(statement.as_bytes()).unwrap();
        format!("0x{}", alloy::hex::encode(signature.as_bytes()))
    }

    #[test]
    fn the_statement_names_host_chain_and_address() {
        let identity = Identity::new("arcade.example", 8453);
        let address = address::parse("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed").unwrap();
        let statement = identity.statement(&address);
        assert!(statement.starts_with("arcade.example asks"));
        assert!(statement.contains("Chain ID: 8453"));
        assert!(statement.contains("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"));
        assert_eq!(statement, identity.statement(&address));
    }

    #[test]
    fn accepts_its_signer_and_refuses_others() {
        let identity = Identity::new("arcade.example", 8453);
        let player = PrivateKeySigner::random();
        let stranger = PrivateKeySigner::random();
        let address = player.address();
        let good = sign(&identity, &player, &address);
        assert_eq!(identity.verify(&address, Some(&good)), Ok(()));
        assert_eq!(
            identity.verify(&address, Some(&good)),
            Ok(()),
            "cached pair"
        );
        let forged = sign(&identity, &stranger, &address);
        assert!(matches!(
            identity.verify(&address, Some(&forged)),
            Err(SignatureError::Mismatch { .. })
        ));
        assert!(matches!(
            identity.verify(&address, Some("0x1234")),
            Err(SignatureError::Invalid(_))
        ));
        assert_eq!(
            identity.verify(&address, None),
            Err(SignatureError::Required)
        );
        let other_deployment = Identity::new("elsewhere.example", 8453);
        assert!(other_deployment.verify(&address, Some(&good)).is_err());
    }
}
