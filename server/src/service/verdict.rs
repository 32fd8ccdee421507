//! What `/verify` and `arcade_verify` conclude about a round, in the verifiers' words
//! (`docs/proofs.md`, "Verdicts"): `pass` when it re-derives and carries every proof that makes
//! it checkable by someone who does not trust the house (the house's signatures, its seed's place
//! in a signed batch, and the player's own Play signature naming the commitment before the
//! outcome existed); `consistent, not proven` when it re-derives but one of those is missing;
//! `fail` when it does not re-derive. The house's answer is still the house's word: a verifier
//! re-checks each proof itself.

use serde::{Serialize, Serializer};

use super::proofs::ReceiptProofs;

/// A round's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    NotProven,
    Fail,
}

impl Verdict {
    /// As every verifier words it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pass => "pass",
            Self::NotProven => "consistent, not proven",
            Self::Fail => "fail",
        }
    }
}

impl Serialize for Verdict {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// The verdict of a round that re-derives (`rederived`) or not, with these proofs, and why.
pub fn judge(rederived: bool, proofs: Option<&ReceiptProofs>) -> (Verdict, String) {
    if !rederived {
        let why = "the stored outcome or payout is not what the seeds and the call derive (see mismatches)";
        return (Verdict::Fail, why.into());
    }
    let Some(proofs) = proofs else {
        let why = "re-derived, but settled before the house signed its rounds: nothing shows the seed was fixed before the client seed was seen";
        return (Verdict::NotProven, why.into());
    };
    let missing: Vec<&str> = [
        (proofs.commitment.is_none(), "the house's Commitment signature"),
        (proofs.receipt.is_none(), "the house's Receipt signature"),
        (
            proofs
                .batch
                .as_ref()
                .is_none_or(|batch| batch.audit_path.is_empty() && batch.size > 1),
            "the seed's place in a signed batch",
        ),
        (proofs.play.is_none(), "the player's Play signature (the play was sent without play_signature), which alone shows the client seed was the player's and named this commitment before the outcome existed"),
    ]
    .into_iter()
    .filter_map(|(missing, what)| missing.then_some(what))
    .collect();
    if missing.is_empty() {
        let why = "re-derived; signed by the house (Commitment, Receipt), its seed in a signed batch, and its Play signed by its player naming the commitment";
        return (Verdict::Pass, why.into());
    }
    (
        Verdict::NotProven,
        format!("re-derived, but without {}", missing.join(", ")),
    )
}
