//! The EIP-712 signing hashes of a commitment and a receipt, from their `sol!` declarations
//! (`arcade-signed-types`): what `typed.rs`'s JSON hashes to, without building, parsing and
//! walking that JSON on every commit and play. The tests below hold the two equal, field by
//! field.

use alloy::primitives::{Address, B256, I256, U256};
use alloy::sol_types::{Eip712Domain, SolStruct};
use arcade_signed_types::{Commitment, Receipt, ReceiptWithHouseAgent};

use super::typed::{CommitmentMessage, ReceiptMessage};

/// A message field that does not fit its EIP-712 type (a store defect: the JSON path would
/// refuse it too).
#[derive(Debug, thiserror::Error)]
#[error("the {0} field does not fit its EIP-712 type")]
pub struct Unfit(&'static str);

fn uint(value: i64, field: &'static str) -> Result<U256, Unfit> {
    u64::try_from(value)
        .map(U256::from)
        .map_err(|_| Unfit(field))
}

fn word(hex: &str, field: &'static str) -> Result<B256, Unfit> {
    hex.parse::<B256>().map_err(|_| Unfit(field))
}

fn address(text: &str, field: &'static str) -> Result<Address, Unfit> {
    text.parse::<Address>().map_err(|_| Unfit(field))
}

pub fn commitment(domain: &Eip712Domain, m: &CommitmentMessage<'_>) -> Result<B256, Unfit> {
    Ok(Commitment {
        round_id: m.round_id.to_owned(),
        player: address(m.player, "player")?,
        commitment: word(m.commitment, "commitment")?,
        batch_id: uint(m.batch_id, "batch_id")?,
        index: uint(m.index, "index")?,
        fairness_version: U256::from(m.fairness_version),
        created_at: uint(m.created_at, "created_at")?,
    }
    .eip712_signing_hash(domain))
}

pub fn receipt(domain: &Eip712Domain, m: &ReceiptMessage<'_>) -> Result<B256, Unfit> {
    let r = Receipt {
        round_id: m.round_id.to_owned(),
        bet_id: uint(m.bet_id, "bet_id")?,
        player: address(m.player, "player")?,
        game: m.game.to_owned(),
        commitment: word(m.commitment, "commitment")?,
        server_seed: word(m.server_seed, "server_seed")?,
        client_seed: m.client_seed.to_owned(),
        nonce: uint(m.nonce, "nonce")?,
        call: m.call.to_owned(),
        target: uint(m.target, "target")?,
        has_number: m.number.is_some(),
        number: uint(m.number.unwrap_or(0), "number")?,
        wager: uint(m.wager, "wager")?,
        outcome: uint(m.outcome, "outcome")?,
        won: m.won,
        payout: uint(m.payout, "payout")?,
        balance_change: I256::try_from(m.balance_change).map_err(|_| Unfit("balance_change"))?,
        batch_id: uint(m.batch_id, "batch_id")?,
        index: uint(m.index, "index")?,
        fairness_version: U256::from(m.fairness_version),
        settled_at: uint(m.settled_at, "settled_at")?,
    };
    let Some(house_agent) = m.house_agent else {
        return Ok(r.eip712_signing_hash(domain));
    };
    Ok(ReceiptWithHouseAgent {
        round_id: r.round_id,
        bet_id: r.bet_id,
        player: r.player,
        game: r.game,
        commitment: r.commitment,
        server_seed: r.server_seed,
        client_seed: r.client_seed,
        nonce: r.nonce,
        call: r.call,
        target: r.target,
        has_number: r.has_number,
        number: r.number,
        wager: r.wager,
        outcome: r.outcome,
        won: r.won,
        payout: r.payout,
        balance_change: r.balance_change,
        batch_id: r.batch_id,
        index: r.index,
        fairness_version: r.fairness_version,
        settled_at: r.settled_at,
        house_agent,
    }
    .eip712_signing_hash(domain))
}

#[cfg(test)]
mod tests {
    use alloy::dyn_abi::TypedData;

    use super::*;
    use crate::proofs::HouseSigner;
    use crate::proofs::typed;

    /// The hash of typed data as an answer prints it.
    fn json_hash(typed: typed::TypedData) -> B256 {
        serde_json::from_str::<TypedData>(&serde_json::to_string(&typed).unwrap())
            .unwrap()
            .eip712_signing_hash()
            .unwrap()
    }

    fn signer(chain_id: u64) -> HouseSigner {
        HouseSigner::new(
            "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
            chain_id,
        )
        .unwrap()
    }

    #[test]
    fn a_commitment_hashes_as_its_typed_data() {
        for (chain_id, batch_id, index) in [(31337, 1, 0), (8453, 7, 1023), (84532, 123_456, 77)] {
            let signer = signer(chain_id);
            let message = CommitmentMessage {
                round_id: "r_0123456789abcdef",
                player: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
                commitment: &"c4".repeat(32),
                batch_id,
                index,
                fairness_version: 1,
                created_at: 1_795_000_000 + index,
            };
            assert_eq!(
                commitment(signer.eip712_domain(), &message).unwrap(),
                json_hash(typed::commitment(&signer.domain(), &message))
            );
        }
    }

    #[test]
    fn every_receipt_shape_hashes_as_its_typed_data() {
        let signer = signer(84532);
        let games = [
            ("coinflip", "heads", 0, None, 1, true, 200, 100),
            ("dice", "under", 5050, None, 4999, true, 196, 96),
            ("roulette", "straight", 0, Some(17), 17, true, 3600, 3500),
            ("roulette", "straight", 0, Some(0), 3, false, 0, -100),
            ("roulette", "red", 0, None, 0, false, 0, -250_000),
        ];
        let eras = [None, Some(false), Some(true)];
        for ((game, call, target, number, outcome, won, payout, change), house_agent) in games
            .into_iter()
            .flat_map(|game| eras.map(|era| (game, era)))
        {
            let message = ReceiptMessage {
                round_id: "r_fedcba9876543210",
                bet_id: 42,
                player: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
                game,
                commitment: &"0a".repeat(32),
                server_seed: &"ff".repeat(32),
                client_seed: "a client seed, with unicode: é ✓",
                nonce: 3,
                call,
                target,
                number,
                wager: 100,
                outcome,
                won,
                payout,
                balance_change: change,
                batch_id: 9,
                index: 511,
                fairness_version: 1,
                settled_at: 1_795_000_123,
                house_agent,
            };
            assert_eq!(
                receipt(signer.eip712_domain(), &message).unwrap(),
                json_hash(typed::receipt(&signer.domain(), &message)),
                "{game} {call} {number:?} {house_agent:?}"
            );
        }
    }

    /// `house_agent` is signed: flipping it, or signing the type before it, is another hash.
    #[test]
    fn house_agent_changes_the_hash() {
        let signer = signer(31337);
        let (commitment, server_seed) = ("0a".repeat(32), "ff".repeat(32));
        let message = |house_agent| ReceiptMessage {
            round_id: "r_0",
            bet_id: 7,
            player: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            game: "coinflip",
            commitment: &commitment,
            server_seed: &server_seed,
            client_seed: "c",
            nonce: 0,
            call: "heads",
            target: 0,
            number: None,
            wager: 1,
            outcome: 1,
            won: true,
            payout: 2,
            balance_change: 1,
            batch_id: 1,
            index: 0,
            fairness_version: 1,
            settled_at: 1_795_000_000,
            house_agent,
        };
        let hashes = [None, Some(false), Some(true)]
            .map(|era| receipt(signer.eip712_domain(), &message(era)).unwrap());
        assert_ne!(hashes[0], hashes[1]);
        assert_ne!(hashes[0], hashes[2]);
        assert_ne!(hashes[1], hashes[2]);
    }

    #[test]
    fn a_field_that_does_not_fit_is_refused() {
        let signer = signer(1);
        let message = CommitmentMessage {
            round_id: "r",
            player: "not an address",
            commitment: &"00".repeat(32),
            batch_id: 1,
            index: 0,
            fairness_version: 1,
            created_at: 0,
        };
        assert!(commitment(signer.eip712_domain(), &message).is_err());
    }
}
