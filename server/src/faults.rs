//! Fault injection for crash-safety tests: `faults.crash_after = "debit" | "sign" | "broadcast" |
//! "replace"` makes the process abort (no cleanup, like `kill -9`) right after that step of a
//! cashout, `"settlement_signed" | "settlement_broadcast"` after that step of a purchase,
//! `"books_recorded"` after the books recorded a forgotten house transaction. Never
//! set in production.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CrashPoint {
    /// The chips are debited and the cashout is recorded `pending`.
    Debit,
    /// The transfer is signed and journalled, not broadcast.
    Sign,
    /// The transfer is broadcast, not yet marked `sent`.
    Broadcast,
    /// A replacement of the transfer (its nonce, a higher fee) is signed and journalled, not
    /// broadcast.
    Replace,
    /// A purchase's settlement is signed and journalled, not broadcast.
    SettlementSigned,
    /// A purchase's settlement is broadcast; its receipt not yet looked at.
    SettlementBroadcast,
    /// The books recorded one house transaction the database did not know, and go on to the
    /// next.
    BooksRecorded,
}

/// Aborts the process if `configured` names `point`.
pub fn crash_if(configured: Option<CrashPoint>, point: CrashPoint) {
    if configured == Some(point) {
        tracing::error!(?point, "fault injection: aborting the process");
        std::process::abort();
    }
}
