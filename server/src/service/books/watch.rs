//! What the books know of themselves between passes: whether the last pass matched the chain,
//! whether one has since this process started (plays wait for that), what the house had pending
//! at the first pass, and the furthest cursor seen (a cursor read below it means the database
//! was restored under the running process).

use super::Books;
use crate::chain::{Chain, ChainError};
use crate::store::books::Cursor;

/// Whether the books matched the chain at the last pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BooksState {
    /// No pass finished yet.
    Unknown,
    /// Every mined house transaction that moved the token is in the books.
    InStep,
    /// This many house transactions the chain holds are not matched yet.
    Behind(u64),
}

#[derive(Debug)]
pub(super) struct Watch {
    pub(super) state: BooksState,
    /// What the house had mined or pending when this process's first pass ran (or its first
    /// since a restore under it): the books are in step only once they reach it (see the module
    /// doc).
    pub(super) pending_at_start: Option<u64>,
    /// A pass of this process has been in step (since the last restore under it).
    pub(super) in_step_once: bool,
    /// The furthest cursor this process saw stored.
    pub(super) seen: Option<Cursor>,
}

impl Books {
    /// The state at the last pass; `InStep` without a chain (there is nothing to follow).
    pub fn state(&self) -> BooksState {
        if self.payments.is_none() {
            return BooksState::InStep;
        }
        self.watch.lock().unwrap_or_else(|e| e.into_inner()).state
    }

    pub(super) fn set(&self, state: BooksState) {
        let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        watch.state = state;
        watch.in_step_once |= state == BooksState::InStep;
    }

    /// The cursor was stored at `cursor` by this process (or read so).
    pub(super) fn saw(&self, cursor: Cursor) {
        let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        watch.seen = watch.seen.max(Some(cursor));
    }

    /// A cursor read below one this process saw stored: the database was restored under the
    /// running process.
    pub(super) fn notice_restore(&self, cursor: Cursor) {
        let went_back = {
            let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
            let back = watch.seen.is_some_and(|seen| cursor < seen);
            watch.seen = watch.seen.max(Some(cursor));
            back
        };
        if went_back {
            self.forgot("the books' cursor went back");
        }
    }

    /// The database forgot what the chain holds (restored under this process, or a copy that
    /// started it): plays close and the first-pass rule applies again, as after a start, until
    /// the books match the chain.
    pub(super) fn forgot(&self, why: &str) {
        let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        if watch.in_step_once {
            tracing::warn!(
                why,
                "the database forgot house transactions the chain holds (was it restored under this process?): plays and cashouts wait until the books match the chain again"
            );
        }
        watch.in_step_once = false;
        watch.pending_at_start = None;
    }

    /// Whether plays are taken: once the books have matched the chain in this process (a
    /// restored copy may hold chips the chain already paid out, which a play could stake before
    /// the books debit them); `Err` with the house transactions not matched yet.
    pub fn plays_open(&self) -> Result<(), u64> {
        if self.payments.is_none() {
            return Ok(());
        }
        let watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        match (watch.in_step_once, watch.state) {
            (true, _) => Ok(()),
            (false, BooksState::Behind(behind)) => Err(behind),
            (false, _) => Err(0),
        }
    }

    /// In step when the cursor reached the mined count and, in this process, what the house had
    /// mined or pending at its first pass: a transaction signed after the copy and still in the
    /// node's pool then is in no log yet. What this process and its peers sign later is in the
    /// journal before it is sent, so a busy house never keeps the books from being in step.
    pub(super) async fn settle_state(
        &self,
        chain: &Chain,
        cursor: Cursor,
        mined: u64,
    ) -> Result<(), ChainError> {
        let behind = mined.saturating_sub(cursor.next_nonce);
        if behind > 0 {
            self.set(BooksState::Behind(behind));
            return Ok(());
        }
        let at_start = self
            .watch
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pending_at_start;
        let at_start = match at_start {
            Some(at_start) => at_start,
            None => {
                let pending = chain.house_count_pending().await?;
                let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
                *watch.pending_at_start.get_or_insert(pending)
            }
        };
        if cursor.next_nonce >= at_start {
            self.set(BooksState::InStep);
        } else {
            self.set(BooksState::Behind(at_start - cursor.next_nonce));
        }
        Ok(())
    }
}
