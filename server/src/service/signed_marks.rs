//! The house's signed marks (docs/proofs.md, "Signed marks"): from which bet on every receipt
//! carries its proofs (`signed_from`), and from which on it is signed with the `Receipt` type
//! that includes `house_agent` (`house_agent_signed_from`). Made once per deployment, at the
//! start of the first instance that finds none, before its play writer takes a play; kept in the
//! database, where every instance and every restart reads the same row; never changed.
//!
//! Why this is sound: bet ids only grow, and every instance built with the marks signs each
//! receipt with the type its bet id calls for (`signs_house_agent`), the same test that picks
//! the type shown. The first instance reads the marks from the bets before it settles anything,
//! `house_agent_signed_from` past every id taken (on PostgreSQL, past the sequence's last value,
//! so past ids that batches in flight hold); every later instance reads them before it settles
//! anything. So no bet at or above the mark is signed with the old type by any instance built
//! with the marks. Instances built before them sign the old type for every bet, so they are
//! stopped before the first instance with the marks starts (as for a restore).

use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};

use super::now_ms;
use crate::proofs::typed::{self, TypedData};
use crate::proofs::{HouseSigner, SigningError};
use crate::store::signed_marks::{self, Marks};
use crate::store::{Db, DbErr};

/// The marks as the manifest and the games listing publish them.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SignedMarks {
    /// Every receipt with `bet_id` at or above it carries its proofs (seed batch, signed
    /// commitment, signed receipt); below it a receipt may be unsigned (before signing began).
    pub signed_from: i64,
    /// Every receipt with `bet_id` at or above it is signed with the `Receipt` type whose last
    /// member is `bool house_agent`; below it, with the type before.
    pub house_agent_signed_from: i64,
    /// `0x` r ‖ s ‖ v (v 27 or 28), by the `signer`.
    pub signature: String,
    /// `SignedMarks(uint256 signed_from,uint256 house_agent_signed_from)` in the signing domain.
    #[salvo(schema(value_type = Object))]
    pub typed_data: TypedData,
}

impl SignedMarks {
    /// Whether bet `bet_id`'s receipt signs `house_agent`.
    pub fn signs_house_agent(&self, bet_id: i64) -> bool {
        bet_id >= self.house_agent_signed_from
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MarksError {
    #[error("database: {0}")]
    Database(#[from] DbErr),
    #[error(transparent)]
    Signing(#[from] SigningError),
}

/// The deployment's marks: the ones kept, or, when there are none, made from its bets, signed
/// and kept (the first instance to insert them wins; the others take its row). Called at start,
/// before this instance settles a play.
pub async fn establish(db: &Db, signer: &HouseSigner) -> Result<SignedMarks, MarksError> {
    let kept = match signed_marks::kept(db).await? {
        Some(kept) => kept,
        None => {
            let made = signed_marks::from_history(db).await?;
            let (_, signature) = sign(signer, made)?;
            let kept = signed_marks::keep(db, made, &signature, now_ms()).await?;
            if kept.signature == signature {
                tracing::info!(
                    signed_from = made.signed_from,
                    house_agent_signed_from = made.house_agent_signed_from,
                    "made and signed the marks: from these bets on every receipt carries its proofs, and signs house_agent"
                );
            }
            kept
        }
    };
    let marks = Marks {
        signed_from: kept.signed_from,
        house_agent_signed_from: kept.house_agent_signed_from,
    };
    let (typed_data, signature) = sign(signer, marks)?;
    if signature != kept.signature {
        tracing::warn!(
            "the signed marks were signed by another key or in another domain than this instance's: the same marks are published signed by this one (signatures by the earlier key no longer recover to the signer)"
        );
    }
    Ok(SignedMarks {
        signed_from: marks.signed_from,
        house_agent_signed_from: marks.house_agent_signed_from,
        signature,
        typed_data,
    })
}

/// The marks' typed data and its signature (deterministic: the same key signs the same bytes).
fn sign(signer: &HouseSigner, marks: Marks) -> Result<(TypedData, String), SigningError> {
    let typed = typed::signed_marks(
        &signer.domain(),
        marks.signed_from,
        marks.house_agent_signed_from,
    );
    let signature = signer.sign(&typed.to_value())?;
    Ok((typed, signature))
}
