//! The chain is the books. The house key's nonce sequence cannot be rolled back by a restore of
//! the database, so the books follow it: every nonce the chain shows mined is matched, in
//! order, to a transaction the journal knows (its hash is the one mined), or else found on the
//! chain (`chain::history`) and recorded again: a forgotten cashout with its chips debited, a
//! forgotten purchase with its chips credited, anything else (a mint, gas) passed over. The
//! cursor (`house_books`) is restored with the rest of the database, so after a restore the
//! next pass walks back over whatever the copy forgot, purchases and cashouts in the chain's
//! order. Until the cursor reaches the chain's count no cashout is sent (`Cashouts` asks
//! [`Books::in_step`], and runs a pass under the house sender before signing), and `/readyz`
//! says so. A pass runs at start (before serving), with each reconcile, and before each
//! cashout: in step it costs two RPC calls (the head and the house's count); each forgotten
//! transaction costs a search over blocks (a gallop and a halving: about 2 log2 of the blocks
//! since the previous house transaction) and two reads (its block, its receipt).

use std::sync::{Arc, Mutex};

use alloy::primitives::U256;

use super::error::ServiceError;
use super::now_ms;
use super::purchases::Payments;
use crate::address;
use crate::chain::history::{HouseTx, HouseTxKind};
use crate::store::books::{Cursor, Forgotten, PaidIn, PaidInRecorded};
use crate::store::{self, Db};
use crate::tiers::{BASE_UNITS_PER_CHIP, Tier};

/// Whether the books matched the chain at the last pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BooksState {
    /// No pass finished yet.
    Unknown,
    /// Every house transaction the chain shows mined is in the books.
    InStep,
    /// This many mined house transactions are not matched yet.
    Behind(u64),
}

/// The books' state, shared by the passes, the cashouts and readiness.
#[derive(Debug)]
pub struct BooksWatch(Mutex<BooksState>);

impl Default for BooksWatch {
    fn default() -> Self {
        Self(Mutex::new(BooksState::Unknown))
    }
}

impl BooksWatch {
    pub fn state(&self) -> BooksState {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, state: BooksState) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = state;
    }
}

/// What one pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BooksPass {
    /// Nonces matched to transactions the journal knew.
    pub matched: u64,
    /// Forgotten cashouts recorded again, their chips debited.
    pub cashouts_found: u64,
    /// Forgotten purchases recorded again, their chips credited.
    pub purchases_found: u64,
    /// House transactions that moved no chips.
    pub others: u64,
    /// Mined house transactions still not matched at the end of the pass.
    pub behind: u64,
}

/// Following the house's transactions on the chain.
#[derive(Clone)]
pub struct Books {
    db: Db,
    payments: Option<Arc<Payments>>,
    /// One pass at a time in this process (instances sharing a database are kept apart by the
    /// journal's hashes: a transaction is recorded once).
    one_pass: Arc<tokio::sync::Mutex<()>>,
}

/// What matching one nonce came to.
enum Step {
    /// Matched; the next nonce was not mined by `block`.
    Matched { block: u64, counted: Counted },
    /// Not decidable yet (a purchase not deep enough, an RPC behind): the pass stops here.
    Wait,
}

#[derive(Clone, Copy)]
enum Counted {
    Known,
    Cashout,
    Purchase,
    Other,
}

impl Books {
    pub fn new(db: Db, payments: Option<Arc<Payments>>) -> Self {
        Self {
            db,
            payments,
            one_pass: Arc::default(),
        }
    }

    /// Whether cashouts may be sent: the last pass matched every mined house transaction.
    /// Without a chain there is nothing to follow.
    pub fn in_step(&self) -> bool {
        self.payments
            .as_ref()
            .is_none_or(|payments| payments.books.state() == BooksState::InStep)
    }

    /// Matches the house's mined transactions the books have not, in nonce order.
    pub async fn catch_up(&self) -> Result<BooksPass, ServiceError> {
        let Some(payments) = &self.payments else {
            return Ok(BooksPass::default());
        };
        let _one = self.one_pass.lock().await;
        let chain = &payments.chain;
        let sender = address::key(&chain.house_address());
        let head = chain.block_number().await?;
        let mined = chain.house_count_at(Some(head)).await?;
        let start = Cursor {
            next_nonce: mined,
            block: head,
        };
        let mut cursor = store::books::cursor(&self.db, &sender, start, now_ms()).await?;
        let mut pass = BooksPass::default();
        while cursor.next_nonce < mined {
            let nonce = cursor.next_nonce;
            match self.match_nonce(payments, &sender, cursor, head).await? {
                Step::Wait => break,
                Step::Matched { block, counted } => {
                    match counted {
                        Counted::Known => pass.matched += 1,
                        Counted::Cashout => pass.cashouts_found += 1,
                        Counted::Purchase => pass.purchases_found += 1,
                        Counted::Other => pass.others += 1,
                    }
                    cursor = Cursor {
                        next_nonce: nonce + 1,
                        block,
                    };
                }
            }
        }
        pass.behind = mined.saturating_sub(cursor.next_nonce);
        payments.books.set(if pass.behind == 0 {
            BooksState::InStep
        } else {
            BooksState::Behind(pass.behind)
        });
        if pass.cashouts_found + pass.purchases_found > 0 || pass.behind > 0 {
            tracing::warn!(
                ?pass,
                "the books followed the chain: house transactions the database did not know were recorded again (was it restored from a backup?)"
            );
        }
        Ok(pass)
    }

    /// Matches the nonce at `cursor`: to a journalled transaction the chain mined, or to the
    /// one the chain shows, recorded again.
    async fn match_nonce(
        &self,
        payments: &Payments,
        sender: &str,
        cursor: Cursor,
        head: u64,
    ) -> Result<Step, ServiceError> {
        let chain = &payments.chain;
        let nonce = cursor.next_nonce;
        let stored = i64::try_from(nonce).map_err(ServiceError::internal)?;
        for hash in store::house::with_nonce(&self.db, sender, stored).await? {
            let Ok(hash) = hash.parse() else { continue };
            if let Some(mined) = chain.mined(hash).await?
                && mined.from == chain.house_address()
            {
                let block = mined.block.saturating_sub(1);
                store::books::matched(&self.db, sender, nonce, block, now_ms()).await?;
                return Ok(Step::Matched {
                    block,
                    counted: Counted::Known,
                });
            }
        }
        let Some(found) = chain.house_tx(nonce, cursor.block, head).await? else {
            return Ok(Step::Wait);
        };
        self.record_again(payments, sender, &found).await
    }

    /// A mined house transaction the journal does not know, recorded in the books.
    async fn record_again(
        &self,
        payments: &Payments,
        sender: &str,
        found: &HouseTx,
    ) -> Result<Step, ServiceError> {
        let hash = found.hash.to_string();
        let block = found.block.saturating_sub(1);
        let forgotten = Forgotten {
            sender,
            hash: &hash,
            nonce: found.nonce,
            block,
            at: now_ms(),
        };
        let terms = &payments.terms;
        let counted = match &found.what {
            HouseTxKind::Other => {
                tracing::info!(tx = %hash, nonce = found.nonce, "a house transaction that moved no chips");
                store::books::matched(&self.db, sender, found.nonce, block, forgotten.at).await?;
                Counted::Other
            }
            HouseTxKind::Transfer { to, value } => {
                let chips = chips_paid(*value)?;
                let asset = address::key(&terms.asset);
                let to = address::key(to);
                let recorded = store::books::cashout_again(
                    &self.db,
                    &forgotten,
                    (&to, chips, (&asset, &terms.network)),
                )
                .await?;
                if recorded {
                    tracing::warn!(tx = %hash, address = to, chips, "a cashout the database forgot: recorded again, its chips debited");
                }
                Counted::Cashout
            }
            HouseTxKind::Settlement {
                payer,
                nonce,
                value,
                valid_before,
            } => {
                if !payments.chain.is_deep(found.block).await? {
                    return Ok(Step::Wait);
                }
                let base_units = u64::try_from(*value).unwrap_or(u64::MAX);
                let tier = Tier::priced_at(base_units)
                    .map(|tier| (tier.name, i64::try_from(tier.chips).unwrap_or(i64::MAX)));
                let (payer, nonce) = (address::key(payer), nonce.to_string());
                let (asset, pay_to) = (address::key(&terms.asset), address::key(&terms.pay_to));
                let paid = PaidIn {
                    payer: &payer,
                    nonce: &nonce,
                    amount: value.to_string(),
                    valid_before: i64::try_from(*valid_before).unwrap_or(i64::MAX),
                    tier,
                    terms: (&terms.network, &asset, &pay_to),
                };
                let recorded = store::books::purchase_again(&self.db, &forgotten, &paid).await?;
                if recorded != PaidInRecorded::AlreadyKnown {
                    tracing::warn!(tx = %hash, payer, ?recorded, "a purchase the database forgot: recorded again");
                }
                Counted::Purchase
            }
        };
        Ok(Step::Matched { block, counted })
    }
}

/// The chips a transfer of `value` base units paid out (a part of a chip counts whole: the
/// books never keep more than the chain left).
fn chips_paid(value: U256) -> Result<i64, ServiceError> {
    let base_units = u64::try_from(value).map_err(ServiceError::internal)?;
    i64::try_from(base_units.div_ceil(BASE_UNITS_PER_CHIP).max(1)).map_err(ServiceError::internal)
}
