//! What `/verify` and `arcade_verify` conclude about a round, in the verifiers' words
//! (`docs/proofs.md`, "Verdicts"): `pass` when it re-derives and carries every proof that makes
//! it checkable by someone who does not trust the house (the house's signatures, its seed's place
//! in a signed batch, and the player's own Play signature naming the commitment before the
//! outcome existed); `consistent, not proven` when it re-derives but one of those is missing;
//! `fail` when it does not re-derive or a proof it carries does not hold. The house's answer is still the house's word: a verifier
//! re-checks each proof itself.

use alloy::primitives::Address;
use serde::{Serialize, Serializer};

use super::wire::{BatchPlace, ReceiptProofs};
use crate::address;
use arcade_core::merkle::{leaf_hash, verify_inclusion};

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

/// What the verdict reads of a round: whether it re-derives, its proofs, and whom each of them
/// must be signed by.
pub struct Judged<'a> {
    pub rederived: bool,
    pub proofs: Option<&'a ReceiptProofs>,
    /// The house's signer: the Commitment's and the Receipt's.
    pub house: Address,
    /// The receipt's own address: the Play's.
    pub player: &'a str,
    /// The round was played by one of the house's own agents.
    pub house_agent: bool,
    /// The round's commitment (64 hex), the leaf its audit path starts from.
    pub commitment: &'a str,
    /// The signed root of its seed's batch (`None` for a round from before batches).
    pub batch_root: Option<[u8; 32]>,
}

/// The verdict of a round, and why: a proof it carries that does not hold (a signature that
/// does not recover to whom it must, over the typed data shown with it) fails it, as it fails
/// every verifier.
pub fn judge(round: &Judged<'_>) -> (Verdict, String) {
    if !round.rederived {
        let why = "the stored outcome or payout is not what the seeds and the call derive (see mismatches)";
        return (Verdict::Fail, why.into());
    }
    let Some(proofs) = round.proofs else {
        let why = "re-derived, but settled before the house signed its rounds: nothing shows the seed was fixed before the client seed was seen";
        return (Verdict::NotProven, why.into());
    };
    let player = address::parse(round.player);
    let broken: Vec<&str> = [
        (
            &proofs.commitment,
            Some(round.house),
            "the Commitment signature is not the house signer's",
        ),
        (
            &proofs.receipt,
            Some(round.house),
            "the Receipt signature is not the house signer's",
        ),
        (
            &proofs.play,
            player,
            "the Play signature is not its player's",
        ),
    ]
    .into_iter()
    .filter_map(|(signed, by, why)| {
        let signed = signed.as_ref()?;
        (by.is_none() || signed.signer() != by).then_some(why)
    })
    .collect();
    let mut broken = broken;
    if let Some(batch) = &proofs.batch
        && !(batch.audit_path.is_empty() && batch.size > 1)
        && !leads_to_root(round, batch)
    {
        broken.push("the seed's audit path does not lead to its batch's signed root");
    }
    if !broken.is_empty() {
        return (Verdict::Fail, broken.join("; "));
    }
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
        let by = if round.house_agent {
            "one of the house's own agents (a house wallet, so this round is the house playing itself)"
        } else {
            "its player"
        };
        let why = format!(
            "re-derived; signed by the house (Commitment, Receipt), its seed in a signed batch, and its Play signed by {by} naming the commitment"
        );
        return (Verdict::Pass, why);
    }
    (
        Verdict::NotProven,
        format!("re-derived, but without {}", missing.join(", ")),
    )
}

/// Whether the round's commitment, by its audit path, is under its batch's signed root.
fn leads_to_root(round: &Judged<'_>, batch: &BatchPlace) -> bool {
    let path: Option<Vec<[u8; 32]>> = batch
        .audit_path
        .iter()
        .map(|hash| arcade_core::hex::decode32(hash))
        .collect();
    let (Some(path), Some(root), Some(leaf)) = (
        path,
        round.batch_root,
        arcade_core::hex::decode32(round.commitment),
    ) else {
        return false;
    };
    let (Ok(index), Ok(size)) = (u64::try_from(batch.index), u64::try_from(batch.size)) else {
        return false;
    };
    verify_inclusion(index, size, &leaf_hash(&leaf), &path, &root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proofs::HouseSigner;
    use crate::proofs::typed::{self, CommitmentMessage};
    use crate::service::receipts::wire::Signed;

    const HOUSE: &str = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6";
    const OTHER: &str = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
    const PLAYER: &str = "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199";
    /// The commitment the tests' rounds name: leaf 0 of a batch of two.
    static COMMITMENT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| "ab".repeat(32));

    /// A Commitment signed by `key`, as a receipt shows it.
    fn commitment_by(key: &str) -> Signed {
        let signer = HouseSigner::new(key, 31337).unwrap();
        let typed_data = typed::commitment(
            &signer.domain(),
            &CommitmentMessage {
                round_id: "r1",
                player: PLAYER,
                commitment: &"ab".repeat(32),
                batch_id: 1,
                index: 0,
                fairness_version: 1,
                created_at: 1,
            },
        );
        let signature = signer.sign(&typed_data.to_value()).unwrap();
        Signed {
            signature,
            typed_data,
        }
    }

    fn judged(proofs: &ReceiptProofs) -> (Verdict, String) {
        let house = HouseSigner::new(HOUSE, 31337).unwrap().address();
        judge(&Judged {
            rederived: true,
            proofs: Some(proofs),
            house,
            player: PLAYER,
            house_agent: false,
            commitment: &COMMITMENT,
            batch_root: Some(
                arcade_core::merkle::Tree::new(vec![leaf_hash(&[0xab; 32]), [1; 32]]).root(),
            ),
        })
    }

    #[test]
    fn a_signature_that_is_not_the_house_signers_fails_and_a_missing_one_is_not_proven() {
        let batch = Some(BatchPlace {
            batch_id: 1,
            index: 0,
            size: 2,
            audit_path: vec![arcade_core::hex::encode(&[1; 32])],
        });
        let held = ReceiptProofs {
            batch: batch.clone(),
            commitment: Some(commitment_by(HOUSE)),
            ..ReceiptProofs::default()
        };
        let (verdict, why) = judged(&held);
        assert_eq!(verdict, Verdict::NotProven, "{why}");
        assert!(why.contains("Receipt signature"), "{why}");

        let by_another = ReceiptProofs {
            commitment: Some(commitment_by(OTHER)),
            ..held.clone()
        };
        let (verdict, why) = judged(&by_another);
        assert_eq!(verdict, Verdict::Fail, "{why}");
        assert_eq!(why, "the Commitment signature is not the house signer's");

        // A signature whose typed data was changed after signing recovers to someone else.
        let mut altered = commitment_by(HOUSE);
        altered.typed_data = commitment_by(OTHER).typed_data;
        altered.typed_data.message["index"] = 1.into();
        let (verdict, _) = judged(&ReceiptProofs {
            commitment: Some(altered),
            ..held.clone()
        });
        assert_eq!(verdict, Verdict::Fail);

        // The Play must be the player's own: the house's signature of it fails.
        let (verdict, why) = judged(&ReceiptProofs {
            play: Some(commitment_by(HOUSE)),
            ..held
        });
        assert_eq!(verdict, Verdict::Fail, "{why}");
        assert!(why.contains("Play signature is not its player's"), "{why}");
    }

    #[test]
    fn an_audit_path_that_does_not_lead_to_the_signed_root_fails() {
        let place = |sibling: [u8; 32]| BatchPlace {
            batch_id: 1,
            index: 0,
            size: 2,
            audit_path: vec![arcade_core::hex::encode(&sibling)],
        };
        let proofs = |sibling| ReceiptProofs {
            batch: Some(place(sibling)),
            commitment: Some(commitment_by(HOUSE)),
            ..ReceiptProofs::default()
        };
        let (verdict, why) = judged(&proofs([1; 32]));
        assert_eq!(verdict, Verdict::NotProven, "the path holds: {why}");
        let (verdict, why) = judged(&proofs([2; 32]));
        assert_eq!(verdict, Verdict::Fail, "{why}");
        assert_eq!(
            why,
            "the seed's audit path does not lead to its batch's signed root"
        );
    }
}
