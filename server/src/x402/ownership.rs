//! Ownership proofs, as x402 indexers read them (x402scan's `docs/DISCOVERY.md`, "Ownership
//! Proofs"; checked by its `lib/ownership-proof.ts`): the `pay_to` key's EIP-191
//! `personal_sign` signature over the origin the service is reached at (`scheme://host[:port]`,
//! no path, no trailing slash), as `0x` + 130 hex. An indexer that recovers `pay_to` from it
//! knows that whoever is paid here also runs this origin.
//!
//! Where a proof comes from:
//! - `payments.ownership_proofs`, when set: each must recover to `pay_to` over this origin, or
//!   the service refuses to start (a stale proof would tell indexers the origin is not ours);
//! - otherwise, when `pay_to` is the house address (`chain.pay_to` unset or equal to it), the
//!   house key signs the origin at start;
//! - otherwise none is published: the service does not hold the key of `pay_to`.
//!
//! A house key that anyone knows (anvil's and hardhat's test keys) signs only on the dev chain:
//! elsewhere its proof would prove nothing, since anyone could sign the same for any origin.

use std::str::FromStr;

use alloy::primitives::{Address, Signature};
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;

use crate::chain::devnet;
use crate::secrets::public;
use crate::settings::Settings;

/// Why the configured proofs cannot be published.
#[derive(Debug, thiserror::Error)]
pub enum OwnershipError {
    #[error(
        "payments.ownership_proofs[{index}] is not pay_to's ({pay_to}) signature over {origin}: it recovers to {signer}"
    )]
    NotPayTo {
        index: usize,
        pay_to: Address,
        origin: String,
        signer: String,
    },
}

/// The `personal_sign` signature of `origin` by `key`, as indexers read it.
pub fn sign(key: &PrivateKeySigner, origin: &str) -> String {
    // Signing a message with a local key has no failure path but a broken key, which parsing
    // the key already excludes.
    let signature = key
        .sign_message_sync(origin.as_bytes())
        .expect("a local key signs");
    format!("0x{}", alloy::hex::encode(signature.as_bytes()))
}

/// Who signed `origin` with `proof`, if it is a signature at all.
pub fn signer_of(proof: &str, origin: &str) -> Option<Address> {
    Signature::from_str(proof)
        .ok()?
        .recover_address_from_msg(origin.as_bytes())
        .ok()
}

/// The proofs this deployment publishes for `origin` when it is paid at `pay_to` (none without
/// a chain).
pub fn establish(
    settings: &Settings,
    pay_to: Option<Address>,
    origin: &str,
) -> Result<Vec<String>, OwnershipError> {
    let Some(pay_to) = pay_to else {
        return Ok(Vec::new());
    };
    let configured = &settings.payments.ownership_proofs;
    if !configured.is_empty() {
        for (index, proof) in configured.iter().enumerate() {
            let signer = signer_of(proof, origin);
            if signer != Some(pay_to) {
                return Err(OwnershipError::NotPayTo {
                    index,
                    pay_to,
                    origin: origin.to_owned(),
                    signer: signer.map_or("no address (not a signature)".into(), |a| a.to_string()),
                });
            }
        }
        return Ok(configured.clone());
    }
    Ok(house_key_of(settings, pay_to)
        .map(|key| vec![sign(&key, origin)])
        .unwrap_or_default())
}

/// The house key, when it is `pay_to`'s and may sign for it here.
fn house_key_of(settings: &Settings, pay_to: Address) -> Option<PrivateKeySigner> {
    let secret = settings.chain.house_key.as_ref()?;
    let key = PrivateKeySigner::from_str(secret.expose().trim()).ok()?;
    if key.address() != pay_to {
        tracing::info!(
            %pay_to,
            "no ownership proof published: pay_to is not the house address, and payments.ownership_proofs is unset"
        );
        return None;
    }
    if public::known_key(secret.expose()).is_some() && settings.chain.chain_id != devnet::CHAIN_ID {
        tracing::warn!("no ownership proof published: the house key is a public test key");
        return None;
    }
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Secret;

    const ORIGIN: &str = "https://arcade.example";

    fn with_house(key: &PrivateKeySigner, chain_id: u64) -> Settings {
        let mut settings = Settings::default();
        settings.chain.house_key = Some(Secret::new(alloy::hex::encode_prefixed(key.to_bytes())));
        settings.chain.chain_id = chain_id;
        settings
    }

    #[test]
    fn the_house_signs_the_origin_when_it_is_paid() {
        let house = PrivateKeySigner::random();
        let proofs = establish(&with_house(&house, 8453), Some(house.address()), ORIGIN).unwrap();
        assert_eq!(proofs.len(), 1);
        assert_eq!(proofs[0].len(), 2 + 130);
        assert_eq!(signer_of(&proofs[0], ORIGIN), Some(house.address()));
        assert_ne!(
            signer_of(&proofs[0], "https://other.example"),
            Some(house.address())
        );
    }

    #[test]
    fn no_proof_for_a_pay_to_whose_key_the_service_lacks() {
        let house = PrivateKeySigner::random();
        let elsewhere = Address::repeat_byte(0x20);
        assert!(
            establish(&with_house(&house, 8453), Some(elsewhere), ORIGIN)
                .unwrap()
                .is_empty()
        );
        assert!(
            establish(&with_house(&house, 8453), None, ORIGIN)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn a_public_house_key_signs_only_on_the_dev_chain() {
        let anvil: PrivateKeySigner =
            "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
                .parse()
                .unwrap();
        let pay_to = Some(anvil.address());
        assert!(
            establish(&with_house(&anvil, 8453), pay_to, ORIGIN)
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            establish(&with_house(&anvil, devnet::CHAIN_ID), pay_to, ORIGIN)
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn configured_proofs_must_be_pay_tos_over_this_origin() {
        let owner = PrivateKeySigner::random();
        let mut settings = Settings::default();
        settings.payments.ownership_proofs = vec![sign(&owner, ORIGIN)];
        let pay_to = Some(owner.address());
        assert_eq!(
            establish(&settings, pay_to, ORIGIN).unwrap(),
            settings.payments.ownership_proofs
        );
        let moved = establish(&settings, pay_to, "https://moved.example").unwrap_err();
        assert!(moved.to_string().contains("ownership_proofs[0]"), "{moved}");
        settings.payments.ownership_proofs = vec!["0x1234".into()];
        assert!(establish(&settings, pay_to, ORIGIN).is_err());
    }
}
