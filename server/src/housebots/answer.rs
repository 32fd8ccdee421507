//! A play's answer as the house agents read it: the receipt as an outside verifier reads it
//! (`arcade-core`'s `ReceiptInput`), and what they count and compare. The arcade's own
//! `Played` is only ever written. An answer counts as verified only when the core re-derives
//! it and it is the very play the agent sent.

use arcade_core::wire::ReceiptInput;
use arcade_core::{Call, Receipt};
use serde::Deserialize;

/// What the agent was shown at commit and sent with its play.
#[derive(Debug, Clone)]
pub struct Sent {
    pub round_id: String,
    pub commitment: String,
    pub client_seed: String,
    pub call: Call,
    pub wager: i64,
    pub play_signature: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PlayedAnswer {
    pub bet_id: i64,
    pub round_id: String,
    /// Chips after settlement.
    pub balance: i64,
    #[serde(default)]
    pub proofs: Option<AnswerProofs>,
    /// The fairness fields, as a verifier reads them.
    #[serde(flatten)]
    pub receipt: ReceiptInput,
}

#[derive(Debug, Clone, Deserialize)]
pub struct AnswerProofs {
    /// The player's signature of the play, as the arcade stored it.
    pub play: Option<SignedPlay>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SignedPlay {
    pub signature: String,
}

impl PlayedAnswer {
    /// The play signature the answer carries, if any.
    pub fn play_signature(&self) -> Option<&str> {
        self.proofs
            .as_ref()?
            .play
            .as_ref()
            .map(|p| p.signature.as_str())
    }

    /// Whether the receipt re-derives with the fairness core (whatever the server says).
    pub fn verifies(&self) -> bool {
        Receipt::try_from(self.receipt.clone())
            .and_then(|receipt| arcade_core::verify(&receipt))
            .is_ok_and(|verification| verification.verified())
    }

    /// Whether the answer is the play the agent committed to and signed: its round, the
    /// commitment it was shown, the arcade's nonce 0, its own client seed, call and wager, and
    /// its own signature of the play. A house that moved the round to another seed or nonce, or
    /// settled another client seed, call or wager, answers otherwise.
    pub fn is_what_was_sent(&self, sent: &Sent) -> bool {
        let receipt = &self.receipt;
        let call = receipt.params.to_call(receipt.game).ok();
        self.round_id == sent.round_id
            && receipt.commitment == sent.commitment
            && receipt.nonce == 0
            && receipt.client_seed == sent.client_seed
            && call == Some(sent.call)
            && i64::try_from(receipt.wager).ok() == Some(sent.wager)
            && self.play_signature() == Some(sent.play_signature.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arcade_core::{DiceCall, Direction};
    use serde_json::{Value, json};

    fn answer() -> Value {
        json!({
            "bet_id": 7, "round_id": "r1", "address": "0xabc", "game": "dice",
            "fairness_version": 1, "commitment": "c0", "server_seed": "s0",
            "client_seed": "mine", "nonce": 0, "wager": 5,
            "params": {"target": 50, "direction": "under"},
            "result": {"roll_hundredths": 10}, "won": true, "payout": 9, "profit": 4,
            "balance": 100, "proofs": {"play": {"signature": "0xsig"}},
        })
    }

    fn sent() -> Sent {
        Sent {
            round_id: "r1".into(),
            commitment: "c0".into(),
            client_seed: "mine".into(),
            call: Call::Dice(DiceCall::new(50, Direction::Under).unwrap()),
            wager: 5,
            play_signature: "0xsig".into(),
        }
    }

    fn read(value: Value) -> PlayedAnswer {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn the_play_sent_is_recognised() {
        assert!(read(answer()).is_what_was_sent(&sent()));
    }

    #[test]
    fn an_answer_that_settled_anything_else_is_not_what_was_sent() {
        let changes = [
            ("round_id", json!("r2")),
            ("commitment", json!("c1")),
            ("nonce", json!(1)),
            ("client_seed", json!("the house's")),
            ("params", json!({"target": 50, "direction": "over"})),
            ("params", json!({"target": 51, "direction": "under"})),
            ("wager", json!(6)),
            ("proofs", json!({"play": {"signature": "0xother"}})),
            ("proofs", json!({"play": null})),
        ];
        for (field, value) in changes {
            let mut changed = answer();
            changed[field] = value.clone();
            assert!(!read(changed).is_what_was_sent(&sent()), "{field}: {value}");
        }
    }
}
