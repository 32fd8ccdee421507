//! The `payments` table: one row per EIP-3009 authorization `(payer, nonce)` ever presented.
//!
//! | transition | from | to |
//! |---|---|---|
//! | [`reserve`] | (none), `failed` | `settling` |
//! | [`journal_settlement`], [`record_reported`] | `settling` | `settling` with its transaction |
//! | [`settle`] (and the chips, in the same transaction) | `settling` | `settled` |
//! | [`fail`] | `settling` | `failed` |
//!
//! A row's terms are those of the request that holds it: a `failed` row claimed again is a
//! fresh attempt, rewritten whole. Its tier, chips and amount are then rewritten once more by
//! [`settle`], from what the chain proved the authorization moved, so what a settled row says
//! is what was credited.

use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{ActiveValue::Set, ColumnTrait, DbErr, EntityTrait, QueryFilter, UpdateMany};

use super::entities::ledger::LedgerKind;
use super::entities::payment::{self, PaymentState};
use super::{Db, house, ledger, outbox};

/// A payment to reserve.
#[derive(Debug, Clone)]
pub struct NewPayment {
    pub payer: String,
    pub nonce: String,
    pub tier: &'static str,
    pub chips: i64,
    pub amount: String,
    pub network: String,
    pub asset: String,
    pub pay_to: String,
    pub valid_before: i64,
    pub from_block: i64,
    /// The name of the rail it goes to.
    pub rail: &'static str,
    pub at: i64,
    /// The client's `payment-identifier` and the payment's fingerprint, if it sent one.
    pub identified: Option<Identified>,
    /// The payment's fingerprint, key or not.
    pub fingerprint: Option<String>,
}

/// A payment's x402 `payment-identifier` and the fingerprint of the payment sent under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identified {
    /// The payer the payment names (database key); a key is unique per payer.
    pub payer: String,
    pub id: String,
    pub fingerprint: String,
}

/// What reserving found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reserved {
    /// This request holds the payment now (a new row, or a failed one claimed again), as the
    /// attempt that began at `attempt` (the row's `created_at`, later than any earlier one's).
    Held { id: i64, attempt: i64 },
    /// Another request holds it, or it is settled.
    Taken {
        state: PaymentState,
        tx_hash: Option<String>,
    },
    /// Another payment holds its `payment-identifier`.
    IdentifierTaken,
}

/// Claims `(payer, nonce)` for one request: a new row, or a `failed` one tried again.
pub async fn reserve(db: &Db, new: NewPayment) -> Result<Reserved, DbErr> {
    match reserve_row(db, &new).await {
        Err(error) if super::unique_violation(&error) => after_violation(db, &new).await,
        reserved => reserved,
    }
}

/// A unique index other than the insert's target refused it: PostgreSQL raises on the
/// identifier's index while a racing copy of the pair is uncommitted (the pair's row is there
/// now: reserve again, as that copy), or another of the payer's payments holds the identifier.
async fn after_violation(db: &Db, new: &NewPayment) -> Result<Reserved, DbErr> {
    let pair = payment::Entity::find()
        .filter(payment::Column::Payer.eq(&new.payer))
        .filter(payment::Column::Nonce.eq(&new.nonce))
        .one(db)
        .await?;
    if pair.is_none() {
        return Ok(Reserved::IdentifierTaken);
    }
    match reserve_row(db, new).await {
        Err(error) if super::unique_violation(&error) => Ok(Reserved::IdentifierTaken),
        reserved => reserved,
    }
}

async fn reserve_row(db: &Db, new: &NewPayment) -> Result<Reserved, DbErr> {
    if let Some(id) = insert(db, new).await? {
        return Ok(Reserved::Held {
            id,
            attempt: new.at,
        });
    }
    if let Some(held) = claim_failed(db, new).await? {
        return Ok(held);
    }
    let existing = payment::Entity::find()
        .filter(payment::Column::Payer.eq(&new.payer))
        .filter(payment::Column::Nonce.eq(&new.nonce))
        .one(db)
        .await?;
    Ok(Reserved::Taken {
        state: existing
            .as_ref()
            .map_or(PaymentState::Settling, |row| row.state),
        tx_hash: existing.and_then(|row| row.tx_hash),
    })
}

/// A new `settling` row; `None` if the pair is already there.
async fn insert(db: &Db, new: &NewPayment) -> Result<Option<i64>, DbErr> {
    let row = payment::ActiveModel {
        payer: Set(new.payer.clone()),
        nonce: Set(new.nonce.clone()),
        tier: Set(new.tier.to_owned()),
        chips: Set(new.chips),
        amount: Set(new.amount.clone()),
        network: Set(new.network.clone()),
        asset: Set(new.asset.clone()),
        pay_to: Set(new.pay_to.clone()),
        valid_before: Set(new.valid_before),
        from_block: Set(new.from_block),
        state: Set(PaymentState::Settling),
        settled_by: Set(new.rail.to_owned()),
        tx_hash: Set(None),
        raw_tx: Set(None),
        error: Set(None),
        created_at: Set(new.at),
        updated_at: Set(new.at),
        payment_identifier: Set(new.identified.as_ref().map(|i| i.id.clone())),
        payment_fingerprint: Set(new.identified.as_ref().map(|i| i.fingerprint.clone())),
        ..Default::default()
    };
    let inserted = payment::Entity::insert(row)
        .on_conflict(
            OnConflict::columns([payment::Column::Payer, payment::Column::Nonce])
                .do_nothing()
                .to_owned(),
        )
        .exec(db)
        .await;
    match inserted {
        Ok(result) => Ok(Some(result.last_insert_id)),
        Err(DbErr::RecordNotInserted) => Ok(None),
        Err(error) => Err(error),
    }
}

/// `failed` → `settling` for this request, as a new attempt with this request's terms, every
/// one of them (an earlier attempt's amount or validity must never be checked against the
/// chain for this one), begun strictly after the earlier attempt; `None` if it is not failed.
///
/// The first `payment-identifier` a payment is sent under stays its own: a request without
/// one, or under another, leaves it, so whoever holds a failed payment can neither strip nor
/// rebind the payer's key by re-sending it.
async fn claim_failed(db: &Db, new: &NewPayment) -> Result<Option<Reserved>, DbErr> {
    let begun = Expr::case(
        Expr::col(payment::Column::CreatedAt).gte(new.at),
        Expr::col(payment::Column::CreatedAt).add(1),
    )
    .finally(Expr::value(new.at));
    let mut retried = payment::Entity::update_many()
        .col_expr(payment::Column::State, Expr::value(PaymentState::Settling))
        .col_expr(payment::Column::Tier, Expr::value(new.tier))
        .col_expr(payment::Column::Chips, Expr::value(new.chips))
        .col_expr(payment::Column::Amount, Expr::value(new.amount.as_str()))
        .col_expr(payment::Column::Network, Expr::value(new.network.as_str()))
        .col_expr(payment::Column::Asset, Expr::value(new.asset.as_str()))
        .col_expr(payment::Column::PayTo, Expr::value(new.pay_to.as_str()))
        .col_expr(payment::Column::ValidBefore, Expr::value(new.valid_before))
        .col_expr(payment::Column::FromBlock, Expr::value(new.from_block))
        .col_expr(payment::Column::SettledBy, Expr::value(new.rail))
        .col_expr(payment::Column::Error, Expr::value(Option::<String>::None))
        .col_expr(payment::Column::TxHash, Expr::value(Option::<String>::None))
        .col_expr(payment::Column::RawTx, Expr::value(Option::<String>::None))
        .col_expr(payment::Column::CreatedAt, begun.into())
        .col_expr(payment::Column::UpdatedAt, Expr::value(new.at))
        .filter(payment::Column::Payer.eq(&new.payer))
        .filter(payment::Column::Nonce.eq(&new.nonce))
        .filter(payment::Column::State.eq(PaymentState::Failed));
    if let Some(identified) = &new.identified {
        retried = retried.col_expr(
            payment::Column::PaymentIdentifier,
            Expr::col(payment::Column::PaymentIdentifier).if_null(identified.id.as_str()),
        );
    }
    // Under a key, the fingerprint names the payment this attempt is, so the key answers for
    // it alone.
    let keyed = payment::Column::PaymentIdentifier
        .is_not_null()
        .or(Expr::value(new.identified.is_some()));
    retried = retried.col_expr(
        payment::Column::PaymentFingerprint,
        Expr::case(keyed, Expr::value(new.fingerprint.clone()))
            .finally(Expr::value(Option::<String>::None))
            .into(),
    );
    let retried = retried.exec_with_returning(db).await?;
    Ok(retried.into_iter().next().map(|row| Reserved::Held {
        id: row.id,
        attempt: row.created_at,
    }))
}

/// The payment `payer` sent under `payment-identifier` `id`.
pub async fn by_identifier(
    db: &Db,
    payer: &str,
    id: &str,
) -> Result<Option<payment::Model>, DbErr> {
    payment::Entity::find()
        .filter(payment::Column::Payer.eq(payer))
        .filter(payment::Column::PaymentIdentifier.eq(id))
        .one(db)
        .await
}

/// The payer's balance just after a settled payment's chips were credited (what its purchase
/// answered), read from the payer's own ledger rows.
pub async fn balance_after_credit(db: &Db, row: &payment::Model) -> Result<i64, DbErr> {
    let reference = outbox::reference::<payment::Entity>(row.id);
    Ok(ledger::balance_after(db, &row.payer, &reference)
        .await?
        .unwrap_or_default())
}

/// Which attempt at a payment row a write is about: the attempt that began at `began` (the
/// row's `created_at`; a failed row claimed again is a new attempt, begun later), and, for a
/// decision made from a read of the row, the version read (its `updated_at`). The write
/// applies only while the row is still that attempt, at that version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempt {
    pub began: i64,
    pub read_at: Option<i64>,
}

/// Write-ahead: the house's signed settlement on the row and in the house journal, in one
/// transaction; `false` (nothing written) if the row is no longer this attempt, `settling`.
pub async fn journal_settlement(
    db: &Db,
    id: i64,
    attempt: Attempt,
    signed: &house::Signed<'_>,
    at: i64,
) -> Result<bool, DbErr> {
    let set = |update: UpdateMany<payment::Entity>| {
        update
            .filter(is(attempt))
            .col_expr(payment::Column::TxHash, Expr::value(signed.hash))
            .col_expr(payment::Column::RawTx, Expr::value(signed.raw_hex()))
    };
    outbox::journal(db, (id, &[PaymentState::Settling]), set, signed, at).await
}

/// Write-ahead of a settlement's replacement: the row names `signed` (the nonce of `replaced`,
/// a higher fee) and the house journal keeps it beside `replaced`, before the broadcast;
/// `false` (nothing written) if the row settled or was replaced meanwhile.
pub async fn journal_settlement_replacement(
    db: &Db,
    id: i64,
    replaced: &str,
    signed: &house::Signed<'_>,
    at: i64,
) -> Result<bool, DbErr> {
    let set = |update: UpdateMany<payment::Entity>| {
        update
            .filter(payment::Column::TxHash.eq(replaced))
            .col_expr(payment::Column::TxHash, Expr::value(signed.hash))
            .col_expr(payment::Column::RawTx, Expr::value(signed.raw_hex()))
    };
    outbox::journal(db, (id, &[PaymentState::Settling]), set, signed, at).await
}

/// The transaction a facilitator reported, kept as the candidate the reconciler checks first.
pub async fn record_reported(
    db: &Db,
    id: i64,
    attempt: Attempt,
    hash: &str,
    at: i64,
) -> Result<bool, DbErr> {
    let updated = while_settling(id, at)
        .filter(is(attempt))
        .col_expr(payment::Column::TxHash, Expr::value(hash))
        .exec(db)
        .await?;
    Ok(super::happened(updated))
}

/// What the chain proved a payment's authorization moved, and the tier that buys.
#[derive(Debug, Clone)]
pub struct Proven<'a> {
    pub tx_hash: &'a str,
    pub tier: &'static str,
    pub chips: i64,
    /// Base units moved, decimal.
    pub amount: String,
}

/// Settled by `proven.tx_hash`: `settling` → `settled` with the proven tier, chips and amount
/// written over the row's, and those chips credited to the payer (who is now bought in), in one
/// transaction, once. Returns the row and the payer's balance; `settled` is whether this call
/// made the change (otherwise the row is as it stood).
pub async fn settle(db: &Db, id: i64, proven: &Proven<'_>, at: i64) -> Result<Settled, DbErr> {
    let txn = super::begin(db).await?;
    let changed = while_settling(id, at)
        .col_expr(payment::Column::State, Expr::value(PaymentState::Settled))
        .col_expr(payment::Column::TxHash, Expr::value(proven.tx_hash))
        .col_expr(payment::Column::Tier, Expr::value(proven.tier))
        .col_expr(payment::Column::Chips, Expr::value(proven.chips))
        .col_expr(payment::Column::Amount, Expr::value(proven.amount.as_str()))
        .col_expr(payment::Column::Error, Expr::value(Option::<String>::None))
        .exec_with_returning(&txn)
        .await?
        .into_iter()
        .next();
    let settled = changed.is_some();
    let row = match changed {
        Some(row) => {
            ledger::ensure_wallet(&txn, &row.payer, at).await?;
            let kind = LedgerKind::Purchase;
            outbox::credit_paid::<payment::Entity>(&txn, id, &row.payer, row.chips, kind, at)
                .await?;
            ledger::mark_bought_in(&txn, &row.payer).await?;
            row
        }
        None => payment::Entity::find_by_id(id)
            .one(&txn)
            .await?
            .ok_or_else(|| DbErr::RecordNotFound(format!("payment {id}")))?,
    };
    let balance = ledger::chips(&txn, &row.payer).await?;
    txn.commit().await?;
    Ok(Settled {
        row,
        balance,
        settled,
    })
}

/// What [`settle`] found.
#[derive(Debug, Clone)]
pub struct Settled {
    pub row: payment::Model,
    pub balance: i64,
    pub settled: bool,
}

/// `settling` → `failed` with why, if the row is still `attempt` (a decision about an earlier
/// attempt, or about a row that moved on since it was read, must not fail it); `false` if not.
pub async fn fail(db: &Db, id: i64, attempt: Attempt, error: &str, at: i64) -> Result<bool, DbErr> {
    let updated = while_settling(id, at)
        .filter(is(attempt))
        .col_expr(payment::Column::State, Expr::value(PaymentState::Failed))
        .col_expr(payment::Column::Error, Expr::value(error))
        .exec(db)
        .await?;
    Ok(super::happened(updated))
}

/// The condition that the row is still `attempt`.
fn is(attempt: Attempt) -> sea_orm::Condition {
    let mut condition = sea_orm::Condition::all().add(payment::Column::CreatedAt.eq(attempt.began));
    if let Some(read_at) = attempt.read_at {
        condition = condition.add(payment::Column::UpdatedAt.eq(read_at));
    }
    condition
}

/// An update of payment `id` (stamped `at`) that applies only while it is `settling`.
fn while_settling(id: i64, at: i64) -> UpdateMany<payment::Entity> {
    outbox::while_in(id, &[PaymentState::Settling], at)
}

/// Payments still `settling`.
pub async fn settling(db: &Db) -> Result<super::Unfinished, DbErr> {
    outbox::unfinished::<payment::Entity>(db).await
}

/// Payments `settling` and untouched since `before`, oldest first.
pub async fn settling_since(db: &Db, before: i64) -> Result<Vec<payment::Model>, DbErr> {
    outbox::unfinished_since::<payment::Entity>(db, before).await
}
