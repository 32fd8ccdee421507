//! The chain is the books. The house key's nonce sequence and the token's logs cannot be rolled
//! back by a restore of the database, so the books follow them from a cursor kept in the
//! database (`house_books`), which a restore takes back with everything else. A pass reads the
//! token's `Transfer` logs that move the house's money (out of the house key, into the pay-to
//! address) from the cursor's block to the newest deep block, and every transaction the house
//! key sent among them that the journal does not know is recorded again, in chain order, each in
//! one database transaction with the cursor past it: a transfer out is a cashout (confirming
//! the copy's unfinished one it paid, or debiting its chips; a transfer to an address with no
//! wallet is the operator moving the house's funds), a `transferWithAuthorization` to
//! the pay-to address is a purchase (its tier's chips credited once). A transfer the house key
//! did not send (another deployment sharing the pay-to address, anyone else) or sent before the
//! books started is no payment of this deployment's and is passed over.
//!
//! No cashout is debited or sent unless a pass has just matched every mined house transaction
//! (`Books::ready_for_cashout`), and none is signed unless every house transaction the chain
//! holds beyond the cursor, mined or pending, is in the journal (`Books::covers_pending`). The
//! first pass of a process also waits until nothing of the house's is pending: a transaction
//! signed after the copy and still in the node's pool is not in any log yet.
//!
//! Cost: in step, two reads (the head and the house's count at the deep head); behind, two log
//! reads per 2,000 blocks since the cursor and one read per transaction among them the journal
//! does not know. A database with no books yet starts them at the journal's last nonce (one
//! halving over the blocks: about log2(head) reads) or, with no journal (a new deployment, or a
//! wiped database), at the chain's count now: nothing sent before is this deployment's.

mod record;

use std::sync::{Arc, Mutex};

use record::{Found, what};

use super::error::ServiceError;
use super::now_ms;
use super::purchases::Payments;
use crate::address;
use crate::chain::history::TokenMove;
use crate::chain::{Chain, ChainError};
use crate::faults::{CrashPoint, crash_if};
use crate::store::books::{Cursor, Forgotten, Recorded};
use crate::store::{self, Db};

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

/// What one pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BooksPass {
    /// House transactions in the logs the journal knew.
    pub matched: u64,
    /// Forgotten cashouts recorded again.
    pub cashouts_found: u64,
    /// Forgotten purchases recorded again.
    pub purchases_found: u64,
}

#[derive(Debug)]
struct Watch {
    state: BooksState,
    /// A pass found nothing of the house's pending beyond the books (see the module doc).
    nothing_pending_seen: bool,
}

/// Following the house's transactions on the chain.
#[derive(Clone)]
pub struct Books {
    db: Db,
    payments: Option<Arc<Payments>>,
    watch: Arc<Mutex<Watch>>,
    /// One pass at a time in this process (instances sharing a database are kept apart by the
    /// journal's hashes: a transaction is recorded once).
    one_pass: Arc<tokio::sync::Mutex<()>>,
    /// Crash-safety tests only.
    crash_after: Option<CrashPoint>,
}

impl Books {
    pub fn new(db: Db, payments: Option<Arc<Payments>>, crash_after: Option<CrashPoint>) -> Self {
        Self {
            db,
            payments,
            watch: Arc::new(Mutex::new(Watch {
                state: BooksState::Unknown,
                nothing_pending_seen: false,
            })),
            one_pass: Arc::default(),
            crash_after,
        }
    }

    /// The state at the last pass; `InStep` without a chain (there is nothing to follow).
    pub fn state(&self) -> BooksState {
        if self.payments.is_none() {
            return BooksState::InStep;
        }
        self.watch.lock().unwrap_or_else(|e| e.into_inner()).state
    }

    fn set(&self, state: BooksState, nothing_pending: bool) {
        let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        watch.state = state;
        watch.nothing_pending_seen |= nothing_pending;
    }

    /// The first pass, before anyone is served: tried again while the house's transactions it
    /// must match are still on their way into blocks, for up to the settle timeout. A chain that
    /// does not answer leaves cashouts off (and `/readyz` saying why) until a later pass.
    pub async fn at_start(&self) {
        let Some(payments) = &self.payments else {
            return;
        };
        let deadline = std::time::Instant::now() + payments.chain.settle_timeout();
        loop {
            if let Err(error) = self.catch_up().await {
                tracing::warn!(%error, "the books could not follow the chain at start: cashouts wait for a later pass");
                return;
            }
            let state = self.state();
            if state == BooksState::InStep {
                return;
            }
            if std::time::Instant::now() >= deadline {
                tracing::warn!(
                    ?state,
                    "the books are behind the chain at start: cashouts wait for a later pass"
                );
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
    }

    /// A pass, then whether a cashout may be debited: `Err(n)` with the house transactions not
    /// matched yet.
    pub async fn ready_for_cashout(&self) -> Result<Result<(), u64>, ServiceError> {
        self.catch_up().await?;
        Ok(match self.state() {
            BooksState::InStep => Ok(()),
            BooksState::Behind(behind) => Err(behind),
            BooksState::Unknown => Err(0),
        })
    }

    /// Whether every house transaction beyond the cursor (mined or pending) is in the journal,
    /// and the last pass was in step: read by the house sender before it signs a cashout.
    pub async fn covers_pending(&self) -> Result<bool, ServiceError> {
        let Some(payments) = &self.payments else {
            return Ok(true);
        };
        if self.state() != BooksState::InStep {
            return Ok(false);
        }
        let sender = address::key(&payments.chain.house_address());
        let Some(cursor) = store::books::cursor(&self.db, &sender).await? else {
            return Ok(false);
        };
        let pending = payments.chain.house_count_pending().await?;
        let beyond = pending.saturating_sub(cursor.next_nonce);
        let journalled =
            store::books::journalled_nonces(&self.db, &sender, cursor.next_nonce, pending).await?;
        Ok(journalled >= beyond)
    }

    /// Follows the house's transactions from the cursor to the newest deep block, recording
    /// what the database forgot.
    pub async fn catch_up(&self) -> Result<BooksPass, ServiceError> {
        let Some(payments) = &self.payments else {
            return Ok(BooksPass::default());
        };
        let _one = self.one_pass.lock().await;
        let chain = &payments.chain;
        let sender = address::key(&chain.house_address());
        let deep = chain.deep_head().await?;
        let mined = chain.house_count_at(deep).await?;
        let mut cursor = match store::books::cursor(&self.db, &sender).await? {
            Some(cursor) => cursor,
            None => self.start(chain, &sender, (mined, deep)).await?,
        };
        let mut pass = BooksPass::default();
        let mut waiting = false;
        if cursor.next_nonce < mined && cursor.block < deep {
            let moves = chain.house_token_moves(cursor.block + 1, deep).await?;
            let hashes: Vec<String> = moves.iter().map(|m| m.tx.to_string()).collect();
            let known = store::books::journalled(&self.db, &hashes).await?;
            let mut seen = std::collections::HashSet::new();
            for found in &moves {
                let hash = found.tx.to_string();
                if !seen.insert(found.tx) {
                    continue;
                }
                if known.contains(&hash) {
                    pass.matched += 1;
                    continue;
                }
                let Some(sent) = chain.sent_by(found.tx).await? else {
                    // Mined, yet the RPC does not show it (a lagging node): next pass.
                    waiting = true;
                    break;
                };
                if sent.from != chain.house_address() || sent.nonce < cursor.next_nonce {
                    continue;
                }
                let then = Cursor {
                    next_nonce: sent.nonce + 1,
                    block: found.block.saturating_sub(1),
                };
                let forgotten = Forgotten {
                    sender: &sender,
                    hash: &hash,
                    nonce: sent.nonce,
                    then,
                    at: now_ms(),
                };
                let of_tx: Vec<&TokenMove> = moves.iter().filter(|m| m.tx == found.tx).collect();
                match what(chain, &sent, &of_tx) {
                    Found::Payout { to, value } => {
                        let recorded = self.cashout_again(payments, &forgotten, to, value).await?;
                        pass.cashouts_found +=
                            u64::from(!matches!(recorded, Recorded::Known | Recorded::NoWallet));
                    }
                    Found::Settlement { call, value } => {
                        let recorded = self
                            .purchase_again(payments, &forgotten, call, value)
                            .await?;
                        pass.purchases_found += u64::from(recorded != Recorded::Known);
                    }
                    Found::Neither => continue,
                }
                cursor = cursor.max(then);
                crash_if(self.crash_after, CrashPoint::BooksRecorded);
            }
        }
        if !waiting {
            let reached = Cursor {
                next_nonce: mined.max(cursor.next_nonce),
                block: deep.max(cursor.block),
            };
            store::books::advance(&self.db, &sender, reached, now_ms()).await?;
            cursor = reached;
        }
        self.settle_state(chain, cursor, mined).await?;
        if pass.cashouts_found + pass.purchases_found > 0 {
            tracing::warn!(
                ?pass,
                "the books followed the chain: house transactions the database did not know were recorded again (was it restored from a copy?)"
            );
        }
        Ok(pass)
    }

    /// In step when the cursor reached the mined count, and (once per process) nothing of the
    /// house's is pending beyond it.
    async fn settle_state(
        &self,
        chain: &Chain,
        cursor: Cursor,
        mined: u64,
    ) -> Result<(), ChainError> {
        let behind = mined.saturating_sub(cursor.next_nonce);
        if behind > 0 {
            self.set(BooksState::Behind(behind), false);
            return Ok(());
        }
        let seen = self
            .watch
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .nothing_pending_seen;
        if seen {
            self.set(BooksState::InStep, false);
            return Ok(());
        }
        let pending = chain.house_count_pending().await?;
        if pending > cursor.next_nonce {
            self.set(BooksState::Behind(pending - cursor.next_nonce), false);
        } else {
            self.set(BooksState::InStep, true);
        }
        Ok(())
    }

    /// The cursor of a database with no books yet (see the module doc).
    async fn start(
        &self,
        chain: &Chain,
        sender: &str,
        (mined, deep): (u64, u64),
    ) -> Result<Cursor, ServiceError> {
        let last = store::books::last_journalled_nonce(&self.db, sender).await?;
        let start = match last {
            Some(last) if last + 1 < mined => {
                let block = chain.block_reaching(last + 1, deep).await?;
                Cursor {
                    next_nonce: last + 1,
                    block: block.saturating_sub(1),
                }
            }
            _ => Cursor {
                next_nonce: mined,
                block: deep,
            },
        };
        tracing::info!(?start, "the books of the house key start");
        Ok(store::books::start(&self.db, sender, start, now_ms()).await?)
    }
}
