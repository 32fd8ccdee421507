//! The `cashouts` table, an outbox whose every step is durable before the next.
//!
//! | transition | from | to |
//! |---|---|---|
//! | [`open`] (the chips debited in the same transaction) | (none) | `pending` |
//! | [`journal`] (nonce, hash, raw bytes; and the house journal) | `pending`, unsigned | `pending`, signed |
//! | [`journal_replacement`] (a higher fee, the same nonce; the hash it replaces stays in the house journal) | `pending`, `sent`, signed | unchanged, the replacement named |
//! | [`advance`] | `pending` | `sent` |
//! | [`confirm`] (naming whichever of its journalled transactions was mined) | `pending`, `sent` | `confirmed` |
//! | [`fail_and_refund`] (the chips back in the same transaction) | `pending`, `sent` | `failed` |

use alloy::primitives::U256;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, DbErr, EntityTrait, QueryFilter, QuerySelect, UpdateMany,
};

use super::entities::cashout::{self, CashoutStatus};
use super::entities::ledger::LedgerKind;
use super::entities::wallet;
use super::ledger::{self, Entry};
use super::outbox::{self, Outbox};
use super::{Db, house};

/// The statuses a cashout is not done in.
const UNFINISHED: &[CashoutStatus] = <cashout::Entity as Outbox>::UNFINISHED;

/// An update of cashout `id` (stamped `at`) that applies only while it is in one of `from`.
fn while_in(id: i64, from: &[CashoutStatus], at: i64) -> UpdateMany<cashout::Entity> {
    outbox::while_in(id, from, at)
}

/// A cashout to open.
#[derive(Debug, Clone)]
pub struct NewCashout {
    pub address: String,
    pub chips: i64,
    pub amount: String,
    pub asset: String,
    pub network: String,
    /// The client's `Idempotency-Key`, if it sent one.
    pub idempotency_key: Option<String>,
    pub at: i64,
}

/// What opening a cashout did.
#[derive(Debug, Clone)]
pub enum Opened {
    /// Debited and recorded `pending`.
    Pending { id: i64 },
    /// Nothing changed: the address never bought chips.
    NotBoughtIn,
    /// Nothing changed: the paid pocket does not cover it. The wallet as it is.
    Short(wallet::Model),
    /// Nothing changed: another cashout of the address holds its idempotency key.
    KeyTaken,
}

/// Debits the chips from the paid pocket and records the cashout `pending`, in one transaction.
pub async fn open(db: &Db, new: NewCashout) -> Result<Opened, DbErr> {
    let txn = super::begin(db).await?;
    let holder = ledger::wallet(&txn, &new.address).await?;
    let Some(holder) = holder.filter(|w| w.bought_in) else {
        return Ok(Opened::NotBoughtIn);
    };
    let row = cashout::ActiveModel {
        address: Set(new.address.clone()),
        chips: Set(new.chips),
        amount: Set(new.amount),
        asset: Set(new.asset),
        network: Set(new.network),
        status: Set(CashoutStatus::Pending),
        tx_nonce: Set(None),
        tx_hash: Set(None),
        raw_tx: Set(None),
        error: Set(None),
        idempotency_key: Set(new.idempotency_key),
        created_at: Set(new.at),
        updated_at: Set(new.at),
        ..Default::default()
    };
    // The row before the debit: a racing copy under the same key waits on the key's unique
    // index (PostgreSQL) or the write lock (SQLite) and then debits nothing.
    let id = match cashout::Entity::insert(row).exec(&txn).await {
        Ok(inserted) => inserted.last_insert_id,
        Err(error) if super::unique_violation(&error) => return Ok(Opened::KeyTaken),
        Err(error) => return Err(error),
    };
    let reference = outbox::reference::<cashout::Entity>(id);
    let entry = Entry {
        kind: LedgerKind::Cashout,
        reference: &reference,
        at: new.at,
    };
    let debited = ledger::debit_paid(&txn, &new.address, new.chips, entry).await?;
    if debited.is_none() {
        // Refused: say why from the wallet as it is now, not as it was read before.
        let now_held = ledger::wallet(&txn, &new.address).await?.unwrap_or(holder);
        return Ok(Opened::Short(now_held));
    }
    txn.commit().await?;
    Ok(Opened::Pending { id })
}

/// Write-ahead: nonce, hash and raw bytes on the row and in the house journal, before the
/// broadcast; `false` (nothing written) if the row was signed or finished meanwhile.
pub async fn journal(db: &Db, id: i64, signed: &house::Signed<'_>, at: i64) -> Result<bool, DbErr> {
    let nonce = signed.stored_nonce()?;
    let set = |update: UpdateMany<cashout::Entity>| {
        update
            .col_expr(cashout::Column::TxNonce, Expr::value(nonce))
            .col_expr(cashout::Column::TxHash, Expr::value(signed.hash))
            .col_expr(cashout::Column::RawTx, Expr::value(signed.raw_hex()))
            .filter(cashout::Column::TxHash.is_null())
    };
    outbox::journal(db, (id, &[CashoutStatus::Pending]), set, signed, at).await
}

/// Write-ahead of a replacement: the row names `signed` (the same nonce as `replaced`, a higher
/// fee) and the house journal keeps it beside every transaction it replaced, before the
/// broadcast; `false` (nothing written) if the row finished or was replaced meanwhile.
pub async fn journal_replacement(
    db: &Db,
    id: i64,
    replaced: &str,
    signed: &house::Signed<'_>,
    at: i64,
) -> Result<bool, DbErr> {
    let nonce = signed.stored_nonce()?;
    let set = |update: UpdateMany<cashout::Entity>| {
        update
            .col_expr(cashout::Column::TxHash, Expr::value(signed.hash))
            .col_expr(cashout::Column::RawTx, Expr::value(signed.raw_hex()))
            .filter(cashout::Column::TxHash.eq(replaced))
            .filter(cashout::Column::TxNonce.eq(nonce))
    };
    outbox::journal(db, (id, UNFINISHED), set, signed, at).await
}

/// Paid: `confirmed`, the row naming the transaction that was mined (`hash`, `raw` hex), if it
/// is in one of `from`; says whether it did.
pub async fn confirm(
    db: &Db,
    id: i64,
    from: &[CashoutStatus],
    hash: &str,
    raw: &str,
    at: i64,
) -> Result<bool, DbErr> {
    let updated = while_in(id, from, at)
        .col_expr(
            cashout::Column::Status,
            Expr::value(CashoutStatus::Confirmed),
        )
        .col_expr(cashout::Column::TxHash, Expr::value(hash))
        .col_expr(cashout::Column::RawTx, Expr::value(raw))
        .exec(db)
        .await?;
    Ok(super::happened(updated))
}

/// Moves a cashout to `to` if it is in one of `from`; says whether it did.
pub async fn advance(
    db: &Db,
    id: i64,
    from: &[CashoutStatus],
    to: CashoutStatus,
    at: i64,
) -> Result<bool, DbErr> {
    let updated = while_in(id, from, at)
        .col_expr(cashout::Column::Status, Expr::value(to))
        .exec(db)
        .await?;
    Ok(super::happened(updated))
}

/// Never paid: `failed` and the chips back to the paid pocket they left, in one transaction,
/// once; says whether it did.
pub async fn fail_and_refund(db: &Db, id: i64, error: &str, at: i64) -> Result<bool, DbErr> {
    let txn = super::begin(db).await?;
    let failed = while_in(id, UNFINISHED, at)
        .col_expr(cashout::Column::Status, Expr::value(CashoutStatus::Failed))
        .col_expr(cashout::Column::Error, Expr::value(error))
        .exec_with_returning(&txn)
        .await?;
    let Some(row) = failed.into_iter().next() else {
        return Ok(false);
    };
    let kind = LedgerKind::Refund;
    outbox::credit_paid::<cashout::Entity>(&txn, id, &row.address, row.chips, kind, at).await?;
    txn.commit().await?;
    Ok(true)
}

/// Cashouts `pending` or `sent`.
pub async fn unfinished(db: &Db) -> Result<super::Unfinished, DbErr> {
    outbox::unfinished::<cashout::Entity>(db).await
}

/// What cashouts not yet confirmed or failed still owe, in token base units.
pub async fn owed_in_flight(db: &Db) -> Result<U256, DbErr> {
    let amounts: Vec<String> = cashout::Entity::find()
        .select_only()
        .column(cashout::Column::Amount)
        .filter(cashout::Column::Status.is_in(UNFINISHED.iter().copied()))
        .into_tuple()
        .all(db)
        .await?;
    amounts.iter().try_fold(U256::ZERO, |sum, amount| {
        U256::from_str_radix(amount, 10)
            .map(|amount| sum.saturating_add(amount))
            .map_err(|_| DbErr::Custom(format!("a cashout amount {amount:?} is not decimal")))
    })
}

/// A cashout and its owner's balance now.
pub async fn find(db: &Db, id: i64) -> Result<Option<(cashout::Model, i64)>, DbErr> {
    let Some(row) = cashout::Entity::find_by_id(id).one(db).await? else {
        return Ok(None);
    };
    let balance = ledger::chips(db, &row.address).await?;
    Ok(Some((row, balance)))
}

/// The cashout `address` opened under `key`, with its owner's balance.
pub async fn find_by_key(
    db: &Db,
    address: &str,
    key: &str,
) -> Result<Option<(cashout::Model, i64)>, DbErr> {
    let row = cashout::Entity::find()
        .filter(cashout::Column::Address.eq(address))
        .filter(cashout::Column::IdempotencyKey.eq(key))
        .one(db)
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let balance = ledger::chips(db, &row.address).await?;
    Ok(Some((row, balance)))
}

/// Cashouts `pending` or `sent` and untouched since `before`, oldest first.
pub async fn unfinished_since(db: &Db, before: i64) -> Result<Vec<cashout::Model>, DbErr> {
    outbox::unfinished_since::<cashout::Entity>(db, before).await
}
