//! A house transaction the database forgot (a restore from an older copy) recorded again, in one
//! transaction: its journal row (whose hash is the guard: recorded once, however many instances
//! find it), the cashout or payment it was, the chips it moved, and the cursor past its nonce.

use sea_orm::sea_query::Expr;
use sea_orm::{ActiveValue::Set, ColumnTrait, DbErr, EntityTrait, QueryFilter, QueryOrder};

use super::{Cursor, advance, stored};
use crate::store::entities::cashout::{self, CashoutStatus};
use crate::store::entities::house_transaction::{self, Purpose};
use crate::store::entities::ledger::LedgerKind;
use crate::store::entities::payment::{self, PaymentState};
use crate::store::ledger::{self, Entry};
use crate::store::outbox::{self, Outbox};
use crate::store::{Db, Tx};
use crate::tiers::BASE_UNITS_PER_CHIP;

/// A house transaction the database forgot, as the chain shows it.
#[derive(Debug, Clone, Copy)]
pub struct Forgotten<'a> {
    pub sender: &'a str,
    pub hash: &'a str,
    pub nonce: u64,
    /// The books' cursor as the pass read it, and once this is recorded.
    pub was: Cursor,
    pub then: Cursor,
    pub at: i64,
}

/// What recording a forgotten transaction did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    /// The journal knew it already (another instance recorded it first).
    Known,
    /// It pays a cashout the copy holds unfinished (opened, its chips debited, and signed after
    /// the copy or signed again): that cashout is confirmed by it.
    Attached { cashout: i64 },
    /// A cashout the copy does not hold at all: recorded confirmed, `taken` chips debited (every
    /// chip it paid, unless the copy's balance held fewer: then all it held).
    Debited { cashout: i64, taken: i64 },
    /// A transfer to an address the books hold no wallet of: not a cashout (the operator moved
    /// the house's funds); only the cursor moved past it.
    NoWallet,
    /// A purchase the house settled: its payment settled, its chips credited.
    Credited { payment: i64 },
    /// A settlement whose payment the copy holds settled already.
    AlreadySettled { payment: i64 },
    /// A settlement that moved no tier's price: recorded failed, nothing credited.
    NoTier { payment: i64 },
    /// Nothing recorded: the cursor, or a row read, moved under the pass (another instance, or
    /// a restore under this one); the next pass reads them again.
    Moved,
}

/// Commits `txn` with the cursor moved past `forgotten`, if it still stands where the pass read
/// it; else nothing of it is kept.
async fn finish(txn: Tx, forgotten: &Forgotten<'_>, recorded: Recorded) -> Result<Recorded, DbErr> {
    let moved = (forgotten.was, forgotten.then);
    // The balances at `then`'s block were not read: the next pass looks nonces up by themselves
    // until a pass stores them again.
    if !advance(&txn, forgotten.sender, moved, None, forgotten.at).await? {
        return Ok(Recorded::Moved);
    }
    txn.commit().await?;
    Ok(recorded)
}

/// The journal's row for `forgotten` under `reference` (the caller checked it is new).
async fn journal(
    txn: &Tx,
    forgotten: &Forgotten<'_>,
    purpose: Purpose,
    reference: &str,
) -> Result<(), DbErr> {
    let row = house_transaction::ActiveModel {
        hash: Set(forgotten.hash.to_owned()),
        nonce: Set(stored(forgotten.nonce)?),
        purpose: Set(purpose),
        reference: Set(reference.to_owned()),
        created_at: Set(forgotten.at),
        sender: Set(Some(forgotten.sender.to_owned())),
    };
    house_transaction::Entity::insert(row)
        .exec_without_returning(txn)
        .await?;
    Ok(())
}

/// Opens the transaction that records `forgotten`; `Err` with what happened instead (the
/// cursor moved past it, nothing else written) when the journal holds it already.
async fn begin_recording(
    db: &Db,
    forgotten: &Forgotten<'_>,
) -> Result<Result<Tx, Recorded>, DbErr> {
    let txn = crate::store::begin(db).await?;
    // The books' row is written first: the transaction holds the write lock (SQLite) or the
    // row (PostgreSQL) before it reads anything, so another instance's pass waits for it, and
    // a cursor moved since the pass read it is seen before anything is recorded.
    if !super::hold(&txn, forgotten.sender, forgotten.was, forgotten.at).await? {
        return Ok(Err(Recorded::Moved));
    }
    let known = house_transaction::Entity::find_by_id(forgotten.hash.to_owned())
        .one(&txn)
        .await?
        .is_some();
    if known {
        return Ok(Err(finish(txn, forgotten, Recorded::Known).await?));
    }
    Ok(Ok(txn))
}

/// A forgotten transfer of `base_units` to `to` from the house: a cashout. An unfinished
/// cashout of that amount to that address, signed with this nonce (the transfer, or a
/// replacement of it the copy never saw) or not signed at all (signed after the copy), is the
/// one it paid: confirmed, nothing debited again (the copy debited it when it opened). Else it
/// is recorded confirmed and its chips are debited, never below zero: what the chain paid out
/// is gone whatever the copy's balance says.
pub async fn cashout_again(
    db: &Db,
    forgotten: &Forgotten<'_>,
    (to, base_units): (&str, u64),
    (asset, network): (&str, &str),
) -> Result<Recorded, DbErr> {
    let txn = match begin_recording(db, forgotten).await? {
        Ok(txn) => txn,
        Err(recorded) => return Ok(recorded),
    };
    if ledger::wallet(&txn, to).await?.is_none() {
        // No cashout pays an address the books hold no wallet of (a cashout needs a purchase,
        // recorded first in chain order): the house's own funds moved by its operator.
        return finish(txn, forgotten, Recorded::NoWallet).await;
    }
    let amount = base_units.to_string();
    let nonce = stored(forgotten.nonce)?;
    let unfinished = || {
        cashout::Entity::find()
            .filter(cashout::Column::Address.eq(to))
            .filter(cashout::Column::Amount.eq(amount.as_str()))
            .filter(cashout::Column::Status.is_in(cashout::Entity::UNFINISHED.iter().copied()))
            .order_by_asc(cashout::Column::Id)
    };
    let signed_so = unfinished()
        .filter(cashout::Column::TxNonce.eq(nonce))
        .one(&txn)
        .await?;
    let unsigned = match signed_so {
        Some(row) => Some(row),
        None => {
            unfinished()
                .filter(cashout::Column::TxNonce.is_null())
                .one(&txn)
                .await?
        }
    };
    let recorded = match unsigned {
        Some(row) => {
            let reference = outbox::reference::<cashout::Entity>(row.id);
            journal(&txn, forgotten, Purpose::Cashout, &reference).await?;
            let updated = cashout::Entity::update_many()
                .col_expr(
                    cashout::Column::Status,
                    Expr::value(CashoutStatus::Confirmed),
                )
                .col_expr(cashout::Column::TxHash, Expr::value(forgotten.hash))
                .col_expr(cashout::Column::TxNonce, Expr::value(nonce))
                .col_expr(cashout::Column::RawTx, Expr::value(Option::<String>::None))
                .col_expr(cashout::Column::UpdatedAt, Expr::value(forgotten.at))
                .filter(cashout::Column::Id.eq(row.id))
                .filter(cashout::Column::Status.is_in(cashout::Entity::UNFINISHED.iter().copied()))
                .exec(&txn)
                .await?;
            if updated.rows_affected != 1 {
                return Ok(Recorded::Moved);
            }
            Recorded::Attached { cashout: row.id }
        }
        None => {
            let chips = i64::try_from(base_units.div_ceil(BASE_UNITS_PER_CHIP))
                .map_err(|e| DbErr::Custom(e.to_string()))?;
            let row = cashout::ActiveModel {
                address: Set(to.to_owned()),
                chips: Set(chips),
                amount: Set(amount.clone()),
                asset: Set(asset.to_owned()),
                network: Set(network.to_owned()),
                status: Set(CashoutStatus::Confirmed),
                tx_nonce: Set(Some(nonce)),
                tx_hash: Set(Some(forgotten.hash.to_owned())),
                raw_tx: Set(None),
                error: Set(None),
                idempotency_key: Set(None),
                created_at: Set(forgotten.at),
                updated_at: Set(forgotten.at),
                ..Default::default()
            };
            let id = cashout::Entity::insert(row)
                .exec(&txn)
                .await?
                .last_insert_id;
            let reference = outbox::reference::<cashout::Entity>(id);
            journal(&txn, forgotten, Purpose::Cashout, &reference).await?;
            let entry = Entry {
                kind: LedgerKind::Cashout,
                reference: &reference,
                at: forgotten.at,
            };
            let taken = ledger::debit_at_most(&txn, to, chips, entry).await?;
            Recorded::Debited { cashout: id, taken }
        }
    };
    finish(txn, forgotten, recorded).await
}

/// A forgotten settlement: `payer`'s authorization `nonce` moved `amount` base units to the
/// pay-to address.
#[derive(Debug, Clone)]
pub struct PaidIn<'a> {
    pub payer: &'a str,
    pub nonce: &'a str,
    pub amount: String,
    pub valid_before: i64,
    /// The tier whose price is the amount, with its chips; `None`: no tier's price.
    pub tier: Option<(&'static str, i64)>,
    /// `(network, asset, pay_to)`.
    pub terms: (&'a str, &'a str, &'a str),
}

/// A forgotten purchase: its payment row (the copy's, unless settled already, or a new one)
/// settled with the chips of its tier credited to the payer, once.
pub async fn purchase_again(
    db: &Db,
    forgotten: &Forgotten<'_>,
    paid: &PaidIn<'_>,
) -> Result<Recorded, DbErr> {
    let txn = match begin_recording(db, forgotten).await? {
        Ok(txn) => txn,
        Err(recorded) => return Ok(recorded),
    };
    let existing = payment::Entity::find()
        .filter(payment::Column::Payer.eq(paid.payer))
        .filter(payment::Column::Nonce.eq(paid.nonce))
        .one(&txn)
        .await?;
    let (tier, chips) = paid.tier.unwrap_or(("none", 0));
    let state = match paid.tier {
        Some(_) => PaymentState::Settled,
        None => PaymentState::Failed,
    };
    let id = match existing {
        Some(row) if row.state == PaymentState::Settled => {
            let reference = outbox::reference::<payment::Entity>(row.id);
            journal(&txn, forgotten, Purpose::Settlement, &reference).await?;
            return finish(txn, forgotten, Recorded::AlreadySettled { payment: row.id }).await;
        }
        Some(row) => {
            let updated = payment::Entity::update_many()
                .col_expr(payment::Column::State, Expr::value(state))
                .col_expr(payment::Column::TxHash, Expr::value(forgotten.hash))
                .col_expr(payment::Column::Tier, Expr::value(tier))
                .col_expr(payment::Column::Chips, Expr::value(chips))
                .col_expr(payment::Column::Amount, Expr::value(paid.amount.as_str()))
                .col_expr(payment::Column::Error, Expr::value(no_tier_error(state)))
                .col_expr(payment::Column::UpdatedAt, Expr::value(forgotten.at))
                .filter(payment::Column::Id.eq(row.id))
                .filter(payment::Column::State.ne(PaymentState::Settled))
                .exec(&txn)
                .await?;
            if updated.rows_affected != 1 {
                // Settled by another instance since it was read (PostgreSQL re-reads the row
                // under the update): the next pass finds it settled.
                return Ok(Recorded::Moved);
            }
            row.id
        }
        None => insert_paid(&txn, forgotten, paid, (tier, chips, state)).await?,
    };
    let reference = outbox::reference::<payment::Entity>(id);
    journal(&txn, forgotten, Purpose::Settlement, &reference).await?;
    let recorded = if state == PaymentState::Settled {
        ledger::ensure_wallet(&txn, paid.payer, forgotten.at).await?;
        let kind = LedgerKind::Purchase;
        outbox::credit_paid::<payment::Entity>(&txn, id, paid.payer, chips, kind, forgotten.at)
            .await?;
        ledger::mark_bought_in(&txn, paid.payer).await?;
        Recorded::Credited { payment: id }
    } else {
        Recorded::NoTier { payment: id }
    };
    finish(txn, forgotten, recorded).await
}

fn no_tier_error(state: PaymentState) -> Option<String> {
    (state == PaymentState::Failed).then(|| {
        "invalid_exact_evm_payload_authorization_value_mismatch: found again on the chain, its amount is no tier's price; no chips are credited".to_owned()
    })
}

async fn insert_paid(
    txn: &Tx,
    forgotten: &Forgotten<'_>,
    paid: &PaidIn<'_>,
    (tier, chips, state): (&str, i64, PaymentState),
) -> Result<i64, DbErr> {
    let (network, asset, pay_to) = paid.terms;
    let row = payment::ActiveModel {
        payer: Set(paid.payer.to_owned()),
        nonce: Set(paid.nonce.to_owned()),
        tier: Set(tier.to_owned()),
        chips: Set(chips),
        amount: Set(paid.amount.clone()),
        network: Set(network.to_owned()),
        asset: Set(asset.to_owned()),
        pay_to: Set(pay_to.to_owned()),
        valid_before: Set(paid.valid_before),
        from_block: Set(stored(forgotten.then.block)?),
        state: Set(state),
        settled_by: Set("house".to_owned()),
        tx_hash: Set(Some(forgotten.hash.to_owned())),
        raw_tx: Set(None),
        error: Set(no_tier_error(state)),
        created_at: Set(forgotten.at),
        updated_at: Set(forgotten.at),
        payment_identifier: Set(None),
        payment_fingerprint: Set(None),
        ..Default::default()
    };
    Ok(payment::Entity::insert(row).exec(txn).await?.last_insert_id)
}
