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
//! Every nonce the chain mined since the cursor is accounted for (`since.rs`): a nonce neither
//! the journal nor the logs account for moved no token if the logs account for the balances
//! stored with the cursor, else it is looked up by itself; the books never move past a nonce
//! the RPC does not show. The cursor moves only from where the pass read it (another instance,
//! or a restore under this one, makes the pass read again), and a cursor read below one this
//! process saw, or a payout out of the house the journal does not know, closes plays again
//! (`watch.rs`).
//!
//! No cashout is debited or sent unless a pass has just matched every mined house transaction
//! (`Books::ready_for_cashout`), and none is signed unless every house transaction the chain
//! holds beyond the cursor, mined or pending, is in the journal (`Books::covers_pending`). No
//! play is taken before a pass of this process matched the chain (`Books::plays_open`): a
//! restored copy's chips already paid out could be staked before the books debit them. The
//! first pass of a process is in step only once the books reach what the house had pending
//! when it ran: a transaction signed after the copy and still in the node's pool is in no log.
//!
//! Cost: in step, two reads (the head and the house's count at the deep head); behind, two log
//! reads per 2,000 blocks since the cursor, one read per transaction among them the journal
//! does not know (while some nonce is unaccounted for), and about log2(blocks) + 2 reads per
//! nonce the logs did not show (a house transaction that moved no token, or a short answer). A database with no books yet starts them at the journal's last nonce (one
//! halving over the blocks: about log2(head) reads) or, with no journal (a new deployment, or a
//! wiped database), at the chain's count now: nothing sent before is this deployment's.

mod record;
mod since;
mod watch;

use std::sync::{Arc, Mutex};

use record::{Found, what};
use since::Slot;
pub use watch::BooksState;
use watch::Watch;

use super::error::ServiceError;
use super::now_ms;
use super::payments::Payments;
use crate::address;
use crate::chain::Chain;
use crate::faults::{CrashPoint, crash_if};
use crate::store::books::{Cursor, Forgotten, Recorded};
use crate::store::{self, Db};

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
                pending_at_start: None,
                in_step_once: false,
                seen: None,
            })),
            one_pass: Arc::default(),
            crash_after,
        }
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
    /// matched yet. A pass that waits on a transaction the RPC does not show yet (just mined,
    /// or a node a block behind) is tried again a few times, a fifth of a second apart.
    pub async fn ready_for_cashout(&self) -> Result<Result<(), u64>, ServiceError> {
        const PASSES: u32 = 3;
        for pass in 1..=PASSES {
            self.catch_up().await?;
            match self.state() {
                BooksState::InStep => return Ok(Ok(())),
                BooksState::Behind(behind) if pass == PASSES => return Ok(Err(behind)),
                BooksState::Unknown if pass == PASSES => return Ok(Err(0)),
                _ => tokio::time::sleep(std::time::Duration::from_millis(200)).await,
            }
        }
        Ok(Err(0))
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
        let mut mined = chain.house_count_at(deep).await?;
        let mut cursor = match store::books::cursor(&self.db, &sender).await? {
            Some(cursor) => cursor,
            None => self.start(chain, &sender, (mined, deep)).await?,
        };
        self.notice_restore(cursor);
        let mut pass = BooksPass::default();
        let mut waiting = false;
        if cursor.next_nonce < mined {
            let since = since::house_transactions(chain, &self.db, cursor, (mined, deep)).await?;
            if since.forgot_a_payout {
                self.forgot("a transfer out of the house the journal does not know");
            }
            for (nonce, slot) in (cursor.next_nonce..).zip(since.slots) {
                let located = match slot {
                    Slot::Known => {
                        pass.matched += 1;
                        continue;
                    }
                    Slot::Quiet => continue,
                    Slot::Unseen => {
                        // A count read as a block was being stored can count a transaction
                        // still pending (anvil does): read again, it is not mined by `deep`.
                        let again = chain.house_count_at(deep).await?;
                        if again <= nonce {
                            mined = nonce;
                        } else {
                            // Mined, yet the RPC does not show it (a lagging node): next pass.
                            tracing::info!(
                                nonce,
                                mined,
                                "the books wait for a house transaction the RPC does not show yet"
                            );
                            waiting = true;
                        }
                        break;
                    }
                    Slot::Forgotten(located) => located,
                };
                let hash = located.tx.to_string();
                let then = Cursor {
                    next_nonce: nonce + 1,
                    block: located.block.saturating_sub(1),
                };
                let forgotten = Forgotten {
                    sender: &sender,
                    hash: &hash,
                    nonce,
                    was: cursor,
                    then,
                    at: now_ms(),
                };
                let recorded = match what(chain, &located.sent, &located.moves) {
                    Found::Payout { to, value } => {
                        let recorded = self.cashout_again(payments, &forgotten, to, value).await?;
                        pass.cashouts_found += u64::from(matches!(
                            recorded,
                            Recorded::Attached { .. } | Recorded::Debited { .. }
                        ));
                        recorded
                    }
                    Found::Settlement { call, value } => {
                        let recorded = self
                            .purchase_again(payments, &forgotten, call, value)
                            .await?;
                        pass.purchases_found +=
                            u64::from(!matches!(recorded, Recorded::Known | Recorded::Moved));
                        recorded
                    }
                    Found::Neither => continue,
                };
                if recorded == Recorded::Moved {
                    // Another instance's pass, or a restore under this one: read again.
                    waiting = true;
                    break;
                }
                cursor = then;
                self.saw(cursor);
                crash_if(self.crash_after, CrashPoint::BooksRecorded);
            }
        }
        if !waiting {
            let reached = Cursor {
                next_nonce: mined.max(cursor.next_nonce),
                block: deep.max(cursor.block),
            };
            let balances = if reached == cursor {
                None
            } else {
                Some(since::balances_at(chain, reached.block).await?)
            };
            let moved = (cursor, reached);
            if store::books::advance(&self.db, &sender, moved, balances.as_ref(), now_ms()).await? {
                cursor = reached;
                self.saw(cursor);
            } else {
                waiting = true;
            }
        }
        if waiting {
            let behind = mined.saturating_sub(cursor.next_nonce).max(1);
            self.set(BooksState::Behind(behind));
        } else {
            self.settle_state(chain, cursor, mined).await?;
        }
        if pass.cashouts_found + pass.purchases_found > 0 {
            tracing::warn!(
                ?pass,
                "the books followed the chain: house transactions the database did not know were recorded again (was it restored from a copy?)"
            );
        }
        Ok(pass)
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
                let block = chain.block_reaching(last + 1, (0, deep)).await?;
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
        // The balances at the start block, if the node still holds its state: a later pass whose
        // logs account for them needs no lookup of nonces that moved no token.
        let balances = since::balances_at(chain, start.block).await.ok();
        tracing::info!(?start, "the books of the house key start");
        let at = now_ms();
        Ok(store::books::start(&self.db, sender, (start, balances.as_ref()), at).await?)
    }
}
