//! A play's answer as the house agents read it: the receipt as an outside verifier reads it
//! (`arcade-core`'s `ReceiptInput`), and what they count and compare. The arcade's own
//! `Played` is only ever written.

use arcade_core::wire::ReceiptInput;
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct PlayedAnswer {
    pub bet_id: i64,
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
}
