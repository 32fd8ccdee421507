//! The house's signing key: a dedicated key (no funds, no chain needed) whose address is
//! published as `signer`, and the EIP-712 domain every signature is made in.

use alloy::dyn_abi::TypedData;
use alloy::primitives::{Address, B256, U256};
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::Eip712Domain;
use serde_json::{Value, json};

/// The EIP-712 domain's `name` and `version`.
pub const DOMAIN_NAME: &str = "Provably Fair Arcade";
pub const DOMAIN_VERSION: &str = "1";

#[derive(Debug, thiserror::Error)]
pub enum SigningError {
    #[error("signing.key is not a hex private key")]
    BadKey,
    #[error("the typed data does not encode: {0}")]
    Encoding(String),
    #[error("signing failed: {0}")]
    Signing(String),
}

/// The EIP-712 domain of every signature on chain `chain_id`: the house's, and the players'
/// `Play`.
pub fn signing_domain(chain_id: u64) -> Eip712Domain {
    Eip712Domain::new(
        Some(DOMAIN_NAME.into()),
        Some(DOMAIN_VERSION.into()),
        Some(U256::from(chain_id)),
        None,
        None,
    )
}

#[derive(Clone)]
pub struct HouseSigner {
    key: PrivateKeySigner,
    chain_id: u64,
    domain: Eip712Domain,
}

impl std::fmt::Debug for HouseSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HouseSigner")
            .field("address", &self.key.address())
            .field("chain_id", &self.chain_id)
            .finish()
    }
}

impl HouseSigner {
    pub fn new(key: &str, chain_id: u64) -> Result<Self, SigningError> {
        let key = key.parse().map_err(|_| SigningError::BadKey)?;
        Ok(Self {
            key,
            chain_id,
            domain: signing_domain(chain_id),
        })
    }

    /// The address every signature recovers to.
    pub fn address(&self) -> Address {
        self.key.address()
    }

    /// `{name, version, chainId}`.
    pub fn domain(&self) -> Value {
        json!({ "name": DOMAIN_NAME, "version": DOMAIN_VERSION, "chainId": self.chain_id })
    }

    /// The same domain, for the static hashes (`hashes.rs`).
    pub fn eip712_domain(&self) -> &Eip712Domain {
        &self.domain
    }

    /// The signature (`0x` r ‖ s ‖ v, v 27 or 28) of full typed data
    /// (`{domain, types, primaryType, message}`).
    pub fn sign(&self, typed_data: &Value) -> Result<String, SigningError> {
        let typed: TypedData = serde_json::from_value(typed_data.clone())
            .map_err(|e| SigningError::Encoding(e.to_string()))?;
        let hash = typed
            .eip712_signing_hash()
            .map_err(|e| SigningError::Encoding(e.to_string()))?;
        self.sign_hash(&hash)
    }

    /// The signature of an EIP-712 signing hash made in this signer's domain.
    pub fn sign_hash(&self, hash: &B256) -> Result<String, SigningError> {
        let signature = self
            .key
            .sign_hash_sync(hash)
            .map_err(|e| SigningError::Signing(e.to_string()))?;
        Ok(format!("0x{}", alloy::hex::encode(signature.as_bytes())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::primitives::Signature;

    #[test]
    fn a_signature_recovers_to_the_published_address() {
        let signer = HouseSigner::new(
            "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
            31337,
        )
        .unwrap();
        let typed = crate::proofs::typed::seed_batch(&signer.domain(), 1, 4, &"ab".repeat(32), 7)
            .to_value();
        let signature: Signature = signer.sign(&typed).unwrap().parse().unwrap();
        let hash = serde_json::from_value::<TypedData>(typed)
            .unwrap()
            .eip712_signing_hash()
            .unwrap();
        assert_eq!(
            signature.recover_address_from_prehash(&hash).unwrap(),
            signer.address()
        );
        assert!(HouseSigner::new("not a key", 1).is_err());
    }
}
