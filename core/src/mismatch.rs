//! What a verifier reports of one field: which check it belongs to, and a field whose claimed
//! value differs from the re-derived one. Each game compares its own result's fields with
//! these; [`verify`](crate::verify()) gathers them.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// The three checks a verifier reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Check {
    /// `sha256(server_seed) == commitment`.
    Commitment,
    /// The result and win/loss re-derive from the seeds and the call.
    Outcome,
    /// The payout and profit follow from the result and the wager.
    Payout,
}

impl Check {
    /// `"commitment"`, `"outcome"` or `"payout"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Commitment => "commitment",
            Self::Outcome => "outcome",
            Self::Payout => "payout",
        }
    }
}

/// One field whose claimed value differs from the re-derived one.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Mismatch {
    /// Which check failed.
    pub check: Check,
    /// The receipt field, e.g. `result.pocket`.
    pub field: &'static str,
    /// The re-derived value, as text.
    pub derived: String,
    /// The claimed value, as text.
    pub claimed: String,
}

/// Pushes a mismatch of `field` when the derived and claimed values differ.
pub(crate) fn push_if_differs<T: PartialEq + ToString>(
    out: &mut Vec<Mismatch>,
    check: Check,
    field: &'static str,
    derived: T,
    claimed: T,
) {
    if derived != claimed {
        out.push(Mismatch {
            check,
            field,
            derived: derived.to_string(),
            claimed: claimed.to_string(),
        });
    }
}

/// An outcome text (a dice schedule's) that must equal the claimed one.
pub(crate) fn push_if_text_differs(
    out: &mut Vec<Mismatch>,
    field: &'static str,
    derived: String,
    claimed: &str,
) {
    if derived != claimed {
        out.push(Mismatch {
            check: Check::Outcome,
            field,
            derived,
            claimed: claimed.to_string(),
        });
    }
}
