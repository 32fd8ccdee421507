//! The player's `Play` signature (`docs/proofs.md`): the one proof the house cannot make. The
//! round's owner signs, in the house's domain, the commitment they were shown and the call they
//! play, before the outcome exists; a receipt re-seeded onto another commitment no longer
//! matches it. Its typed data (shown beside the stored signature) and its hash, both from the
//! `sol!` declaration of `Play` (`arcade-signed-types`), and the check that it recovers to the
//! round's owner.

use std::sync::LazyLock;

use alloy::primitives::{Address, B256, Signature, U256};
use alloy::sol_types::{Eip712Domain, SolStruct};
use arcade_core::Call;
use arcade_signed_types::Play;
use serde_json::json;
use serde_json::value::RawValue;

use super::typed::{TypedData, bytes32, typed, types_of};

/// What the player signs: the round, the commitment they were shown, and the call.
#[derive(Debug, Clone)]
pub struct PlayMessage<'a> {
    pub round_id: &'a str,
    /// EIP-55.
    pub player: &'a str,
    /// 64 hex.
    pub commitment: &'a str,
    pub game: &'a str,
    pub client_seed: &'a str,
    /// coinflip's call, dice's direction, roulette's bet (as the `Receipt` signs them).
    pub call: &'a str,
    /// dice's target; 0 otherwise.
    pub target: i64,
    /// roulette's number, if any.
    pub number: Option<i64>,
    pub wager: i64,
}

/// The fields of a play that `Play` signs besides the call.
#[derive(Debug, Clone, Copy)]
pub struct PlayFields<'a> {
    pub round_id: &'a str,
    /// EIP-55.
    pub player: &'a str,
    /// 64 hex.
    pub commitment: &'a str,
    pub client_seed: &'a str,
    pub wager: i64,
}

impl<'a> PlayMessage<'a> {
    /// The play of `fields` with `call`, its call fields as the core signs them.
    pub fn of(fields: PlayFields<'a>, call: &Call) -> Self {
        let signed = call.signed();
        Self {
            round_id: fields.round_id,
            player: fields.player,
            commitment: fields.commitment,
            game: call.game().as_str(),
            client_seed: fields.client_seed,
            call: signed.call,
            target: i64::try_from(signed.target).unwrap_or(i64::MAX),
            number: signed.number.map(i64::from),
            wager: fields.wager,
        }
    }
}

/// Why a `play_signature` is refused.
#[derive(Debug, thiserror::Error)]
pub enum PlaySignatureError {
    #[error("play_signature is not a 65-byte hex signature: {0}")]
    Invalid(String),
    #[error(
        "play_signature does not sign this play of round {round_id} by its owner {owner} (it recovers to {recovered}); sign the Play of docs/proofs.md with the commitment of the commit answer and exactly this call"
    )]
    Mismatch {
        round_id: String,
        owner: String,
        recovered: String,
    },
}

impl crate::refusal::Refusal for PlaySignatureError {
    fn kind(&self) -> crate::refusal::ErrorKind {
        match self {
            Self::Invalid(_) => crate::refusal::PLAY_SIGNATURE_INVALID,
            Self::Mismatch { .. } => crate::refusal::PLAY_SIGNATURE_MISMATCH,
        }
    }
}

/// The typed data the player signs, as a receipt shows it.
pub fn typed_data(domain: &serde_json::Value, m: &PlayMessage<'_>) -> TypedData {
    static TYPES: LazyLock<Box<RawValue>> = LazyLock::new(types_of::<Play>);
    typed(
        domain,
        Play::NAME,
        &TYPES,
        json!({
            "round_id": m.round_id,
            "player": m.player,
            "commitment": bytes32(m.commitment),
            "game": m.game,
            "client_seed": m.client_seed,
            "call": m.call,
            "target": m.target,
            "has_number": m.number.is_some(),
            "number": m.number.unwrap_or(0),
            "wager": m.wager,
        }),
    )
}

/// The EIP-712 hash the player signs (`None` for a field that does not fit its type: such a
/// play cannot have been signed).
pub fn hash(domain: &Eip712Domain, m: &PlayMessage<'_>) -> Option<B256> {
    let uint = |value: i64| u64::try_from(value).ok().map(U256::from);
    Some(
        Play {
            round_id: m.round_id.to_owned(),
            player: m.player.parse::<Address>().ok()?,
            commitment: m.commitment.parse::<B256>().ok()?,
            game: m.game.to_owned(),
            client_seed: m.client_seed.to_owned(),
            call: m.call.to_owned(),
            target: uint(m.target)?,
            has_number: m.number.is_some(),
            number: uint(m.number.unwrap_or(0))?,
            wager: uint(m.wager)?,
        }
        .eip712_signing_hash(domain),
    )
}

/// Checks that `signature` is `owner`'s signature of the play `m`, and gives it in the one form
/// it is stored and shown in: `0x`, lowercase hex, low s, v 27 or 28 (what every EIP-712 reader
/// takes). Only that form's spellings are read: `0x` and 130 hex digits, v 27, 28, 0 or 1.
pub fn verify(
    domain: &Eip712Domain,
    m: &PlayMessage<'_>,
    owner: &Address,
    signature: &str,
) -> Result<String, PlaySignatureError> {
    let parsed = parse(signature)?;
    let mismatch = |recovered: String| PlaySignatureError::Mismatch {
        round_id: m.round_id.to_owned(),
        owner: crate::address::display(owner),
        recovered,
    };
    let digest = hash(domain, m).ok_or_else(|| mismatch("nothing: a field does not fit".into()))?;
    let recovered = parsed
        .recover_address_from_prehash(&digest)
        .map_err(|e| PlaySignatureError::Invalid(e.to_string()))?;
    if recovered != *owner {
        return Err(mismatch(crate::address::display(&recovered)));
    }
    Ok(alloy::hex::encode_prefixed(
        parsed.normalized_s().as_bytes(),
    ))
}

/// `0x` and 65 bytes of hex whose last byte is 27, 28, 0 or 1.
fn parse(signature: &str) -> Result<Signature, PlaySignatureError> {
    let invalid = |why: &str| PlaySignatureError::Invalid(why.to_owned());
    let hex = signature
        .strip_prefix("0x")
        .ok_or_else(|| invalid("it does not start with 0x"))?;
    if hex.len() != 130 {
        return Err(invalid(&format!(
            "{} hex digits, not 130 (65 bytes)",
            hex.len()
        )));
    }
    let bytes: [u8; 65] = alloy::hex::decode(hex)
        .map_err(|e| invalid(&e.to_string()))?
        .try_into()
        .map_err(|_| invalid("not 65 bytes"))?;
    if ![0, 1, 27, 28].contains(&bytes[64]) {
        return Err(invalid(&format!("v is {}, not 27 or 28", bytes[64])));
    }
    Signature::from_raw_array(&bytes).map_err(|e| invalid(&e.to_string()))
}

#[cfg(test)]
mod tests {
    use alloy::dyn_abi::TypedData as DynTypedData;
    use alloy::signers::SignerSync;
    use alloy::signers::local::PrivateKeySigner;

    use super::*;
    use crate::proofs::HouseSigner;

    fn message<'a>(player: &'a str, number: Option<i64>) -> PlayMessage<'a> {
        PlayMessage {
            round_id: "r_0123456789abcdef",
            player,
            commitment: "c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4",
            game: "roulette",
            client_seed: "my seed",
            call: "straight",
            target: 0,
            number,
            wager: 25,
        }
    }

    fn house() -> HouseSigner {
        HouseSigner::new(
            "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
            84532,
        )
        .unwrap()
    }

    #[test]
    fn the_static_hash_is_the_hash_of_the_typed_data_shown() {
        let house = house();
        for number in [None, Some(0), Some(36)] {
            let m = message("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", number);
            let shown = serde_json::to_string(&typed_data(&house.domain(), &m)).unwrap();
            let from_json = serde_json::from_str::<DynTypedData>(&shown)
                .unwrap()
                .eip712_signing_hash()
                .unwrap();
            assert_eq!(hash(house.eip712_domain(), &m), Some(from_json));
        }
    }

    #[test]
    fn only_the_owners_signature_of_exactly_this_play_holds() {
        let house = house();
        let player = PrivateKeySigner::random();
        let other = PrivateKeySigner::random();
        let shown = player.address().to_checksum(None);
        let signed = message(&shown, Some(17));
        let digest = hash(house.eip712_domain(), &signed).unwrap();
        let signature = |who: &PrivateKeySigner| {
            format!(
                "0x{}",
                alloy::hex::encode(who.sign_hash_sync(&digest).unwrap().as_bytes())
            )
        };
        let domain = house.eip712_domain();
        let own = signature(&player);
        assert_eq!(
            verify(domain, &signed, &player.address(), &own).unwrap(),
            own
        );
        let by_other = verify(domain, &signed, &player.address(), &signature(&other));
        assert!(matches!(by_other, Err(PlaySignatureError::Mismatch { .. })));
        let other_number = message(&shown, Some(18));
        let moved = verify(
            domain,
            &other_number,
            &player.address(),
            &signature(&player),
        );
        assert!(matches!(moved, Err(PlaySignatureError::Mismatch { .. })));
        let short = verify(domain, &signed, &player.address(), "0x1234");
        assert!(matches!(short, Err(PlaySignatureError::Invalid(_))));
    }

    /// Spellings of one signature: the canonical one is stored whatever was sent; others that
    /// readers disagree on are refused.
    #[test]
    fn a_signature_is_kept_in_one_form() {
        let house = house();
        let player = PrivateKeySigner::random();
        let shown = player.address().to_checksum(None);
        let signed = message(&shown, None);
        let domain = house.eip712_domain();
        let digest = hash(domain, &signed).unwrap();
        let canonical = player.sign_hash_sync(&digest).unwrap();
        let canonical_text = alloy::hex::encode_prefixed(canonical.as_bytes());
        let with_v = |v: u8, sig: &Signature| {
            let mut bytes = sig.as_bytes();
            bytes[64] = v;
            alloy::hex::encode_prefixed(bytes)
        };
        let parity = u8::from(canonical.v());
        // The same signature as v 0/1, in upper case, and with s flipped high (v flipped too).
        let high_s = Signature::new(
            canonical.r(),
            alloy::primitives::U256::from_be_bytes(SECP256K1N) - canonical.s(),
            !canonical.v(),
        );
        for accepted in [
            with_v(parity, &canonical),
            canonical_text.to_uppercase().replacen("0X", "0x", 1),
            alloy::hex::encode_prefixed(high_s.as_bytes()),
        ] {
            let stored = verify(domain, &signed, &player.address(), &accepted);
            assert_eq!(stored.unwrap(), canonical_text, "{accepted}");
        }
        for refused in [
            canonical_text.trim_start_matches("0x").to_owned(),
            format!("0x{canonical_text}"),
            with_v(37, &canonical),
            with_v(27 + 35, &canonical),
            format!("{canonical_text}00"),
        ] {
            let answer = verify(domain, &signed, &player.address(), &refused);
            assert!(
                matches!(answer, Err(PlaySignatureError::Invalid(_))),
                "{refused}"
            );
        }
    }

    /// secp256k1's group order.
    const SECP256K1N: [u8; 32] =
        alloy::hex!("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
}
