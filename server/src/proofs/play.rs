//! The player's `Play` signature (`docs/proofs.md`): the one proof the house cannot make. The
//! round's owner signs, in the house's domain, the commitment they were shown and the call they
//! play, before the outcome exists; a receipt re-seeded onto another commitment no longer
//! matches it. Its typed data (shown beside the stored signature), its hash from a static type,
//! and the check that it recovers to the round's owner.

use std::sync::LazyLock;

use alloy::primitives::{Address, B256, Signature, U256};
use alloy::sol;
use alloy::sol_types::{Eip712Domain, SolStruct};
use serde_json::json;
use serde_json::value::RawValue;

use super::typed::{TypedData, bytes32, typed, types};

sol! {
    /// `Play`, as `typed` below declares it.
    struct Play {
        string round_id;
        address player;
        bytes32 commitment;
        string game;
        string client_seed;
        string call;
        uint256 target;
        bool has_number;
        uint256 number;
        uint256 wager;
    }
}

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

/// A call as `Receipt` and `Play` sign it (`docs/proofs.md`), from the call's parameters as a
/// receipt shows them.
pub struct SignedCall<'a> {
    /// coinflip's call, dice's direction, roulette's bet.
    pub call: &'a str,
    /// dice's target; 0 otherwise.
    pub target: i64,
    /// roulette's number, if any.
    pub number: Option<i64>,
}

pub fn signed_call<'a>(game: &str, params: &'a serde_json::Value) -> Option<SignedCall<'a>> {
    Some(match game {
        "coinflip" => SignedCall {
            call: params["call"].as_str()?,
            target: 0,
            number: None,
        },
        "dice" => SignedCall {
            call: params["direction"].as_str()?,
            target: params["target"].as_i64()?,
            number: None,
        },
        _ => SignedCall {
            call: params["bet"].as_str()?,
            target: 0,
            number: params["number"].as_i64(),
        },
    })
}

/// The fields of a play that `Play` signs besides the call.
#[derive(Debug, Clone, Copy)]
pub struct PlayFields<'a> {
    pub round_id: &'a str,
    /// EIP-55.
    pub player: &'a str,
    /// 64 hex.
    pub commitment: &'a str,
    pub game: &'a str,
    pub client_seed: &'a str,
    pub wager: i64,
}

impl<'a> PlayMessage<'a> {
    /// The play of `fields` with the call `params` (as a receipt shows them; `None` when they
    /// do not name a call of the game).
    pub fn of(fields: PlayFields<'a>, params: &'a serde_json::Value) -> Option<Self> {
        let SignedCall {
            call,
            target,
            number,
        } = signed_call(fields.game, params)?;
        Some(Self {
            round_id: fields.round_id,
            player: fields.player,
            commitment: fields.commitment,
            game: fields.game,
            client_seed: fields.client_seed,
            call,
            target,
            number,
            wager: fields.wager,
        })
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

/// The typed data the player signs, as a receipt shows it.
pub fn typed_data(domain: &serde_json::Value, m: &PlayMessage<'_>) -> TypedData {
    const PRIMARY: &str = "Play";
    static TYPES: LazyLock<Box<RawValue>> = LazyLock::new(|| {
        types(
            PRIMARY,
            &[
                ("round_id", "string"),
                ("player", "address"),
                ("commitment", "bytes32"),
                ("game", "string"),
                ("client_seed", "string"),
                ("call", "string"),
                ("target", "uint256"),
                ("has_number", "bool"),
                ("number", "uint256"),
                ("wager", "uint256"),
            ],
        )
    });
    typed(
        domain,
        PRIMARY,
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

/// Checks that `signature` is `owner`'s signature of the play `m`.
pub fn verify(
    domain: &Eip712Domain,
    m: &PlayMessage<'_>,
    owner: &Address,
    signature: &str,
) -> Result<(), PlaySignatureError> {
    let bytes = alloy::hex::decode(signature.trim_start_matches("0x"))
        .map_err(|e| PlaySignatureError::Invalid(e.to_string()))?;
    let bytes: [u8; 65] = bytes
        .try_into()
        .map_err(|b: Vec<u8>| PlaySignatureError::Invalid(format!("{} bytes, not 65", b.len())))?;
    let parsed = Signature::from_raw_array(&bytes)
        .map_err(|e| PlaySignatureError::Invalid(e.to_string()))?;
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
    Ok(())
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
        assert!(verify(domain, &signed, &player.address(), &signature(&player)).is_ok());
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
}
