//! Wallets and their ledger. A balance changes only here (and in a batch of plays, `plays.rs`),
//! only by a conditional update, and always with its ledger row in the same transaction. A
//! balance has two pockets (`arcade_core::pockets`): `free_chips` is play money, the rest is paid;
//! each ledger row says how much of its `delta` was the free pocket's (`free_delta`).

use std::collections::BTreeMap;

use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect,
};

use super::Db;
use super::entities::ledger::{self, LedgerKind};
use super::entities::wallet;

/// The pocket of a balance that a credit fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pocket {
    /// Cashable chips: a purchase, a cashout's refund.
    Paid,
    /// Play money: the free grant.
    Free,
}

/// The reference of a round's ledger rows (its wager and its win).
pub fn round_reference(round_id: &str) -> String {
    format!("round:{round_id}")
}

/// A chip movement: why, and what it belongs to (`round:<id>`, `payment:<id>`, ...).
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    pub kind: LedgerKind,
    pub reference: &'a str,
    pub at: i64,
}

pub async fn wallet(
    db: &impl ConnectionTrait,
    address: &str,
) -> Result<Option<wallet::Model>, DbErr> {
    wallet::Entity::find_by_id(address.to_owned()).one(db).await
}

/// The chips of the wallet of `address` (0 if it has none).
pub async fn chips(db: &impl ConnectionTrait, address: &str) -> Result<i64, DbErr> {
    Ok(wallet(db, address).await?.map_or(0, |w| w.chips))
}

/// Creates the wallet row if the address has none.
pub async fn ensure_wallet(
    db: &impl ConnectionTrait,
    address: &str,
    now: i64,
) -> Result<(), DbErr> {
    ensure_wallets(db, &BTreeMap::from([(address, now)])).await
}

/// Creates the wallet rows of the addresses that have none (each created at its time), in
/// address order.
pub async fn ensure_wallets(
    db: &impl ConnectionTrait,
    wallets: &BTreeMap<&str, i64>,
) -> Result<(), DbErr> {
    if wallets.is_empty() {
        return Ok(());
    }
    let rows = wallets.iter().map(|(address, now)| wallet::ActiveModel {
        address: Set((*address).to_owned()),
        chips: Set(0),
        bought_in: Set(false),
        free_claimed: Set(false),
        free_granted: Set(0),
        net_day: Set(0),
        net_today: Set(0),
        created_at: Set(*now),
        open_rounds: Set(0),
        free_chips: Set(0),
        free_opening: Set(0),
    });
    wallet::Entity::insert_many(rows)
        .on_conflict(
            OnConflict::column(wallet::Column::Address)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// Takes `chips` from the paid pocket (a cashout: free chips are play money) if it covers them
/// (`WHERE chips - free_chips >= n`); `None` (and nothing changed) if it does not.
pub async fn debit_paid(
    db: &impl ConnectionTrait,
    address: &str,
    chips: i64,
    entry: Entry<'_>,
) -> Result<Option<wallet::Model>, DbErr> {
    let paid = Expr::col(wallet::Column::Chips).sub(Expr::col(wallet::Column::FreeChips));
    let updated = wallet::Entity::update_many()
        .col_expr(
            wallet::Column::Chips,
            Expr::col(wallet::Column::Chips).sub(chips),
        )
        .filter(wallet::Column::Address.eq(address))
        .filter(paid.gte(chips))
        .exec_with_returning(db)
        .await?;
    let Some(wallet) = updated.into_iter().next() else {
        return Ok(None);
    };
    record(db, address, (-chips, 0), wallet.chips, entry).await?;
    Ok(Some(wallet))
}

/// Takes up to `chips` from an existing wallet, the paid pocket first, never below zero (a
/// transfer the chain shows paid, recorded after the balance that paid it was restored): the
/// chips taken.
pub async fn debit_at_most(
    db: &impl ConnectionTrait,
    address: &str,
    chips: i64,
    entry: Entry<'_>,
) -> Result<i64, DbErr> {
    let held = wallet(db, address)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound(format!("wallet {address}")))?;
    let taken = Ord::max(Ord::min(chips, held.chips), 0);
    let free_taken = Ord::max(taken - (held.chips - held.free_chips), 0);
    if taken == 0 {
        return Ok(0);
    }
    let updated = wallet::Entity::update_many()
        .col_expr(
            wallet::Column::Chips,
            Expr::col(wallet::Column::Chips).sub(taken),
        )
        .col_expr(
            wallet::Column::FreeChips,
            Expr::col(wallet::Column::FreeChips).sub(free_taken),
        )
        .filter(wallet::Column::Address.eq(address))
        .filter(wallet::Column::Chips.eq(held.chips))
        .filter(wallet::Column::FreeChips.eq(held.free_chips))
        .exec_with_returning(db)
        .await?;
    let wallet = updated
        .into_iter()
        .next()
        .ok_or_else(|| DbErr::Custom(format!("wallet {address} changed while it was debited")))?;
    record(db, address, (-taken, -free_taken), wallet.chips, entry).await?;
    Ok(taken)
}

/// Adds `chips` to `pocket` of an existing wallet; the returned row is the wallet after the
/// credit.
pub async fn credit(
    db: &impl ConnectionTrait,
    address: &str,
    chips: i64,
    pocket: Pocket,
    entry: Entry<'_>,
) -> Result<wallet::Model, DbErr> {
    let free_delta = match pocket {
        Pocket::Paid => 0,
        Pocket::Free => chips,
    };
    let updated = wallet::Entity::update_many()
        .col_expr(
            wallet::Column::Chips,
            Expr::col(wallet::Column::Chips).add(chips),
        )
        .col_expr(
            wallet::Column::FreeChips,
            Expr::col(wallet::Column::FreeChips).add(free_delta),
        )
        .filter(wallet::Column::Address.eq(address))
        .exec_with_returning(db)
        .await?;
    let wallet = updated
        .into_iter()
        .next()
        .ok_or_else(|| DbErr::RecordNotFound(format!("wallet {address}")))?;
    record(db, address, (chips, free_delta), wallet.chips, entry).await?;
    Ok(wallet)
}

/// The one-time free grant: `None` if the address already claimed it.
pub async fn claim_free(
    db: &Db,
    address: &str,
    chips: i64,
    now: i64,
) -> Result<Option<wallet::Model>, DbErr> {
    let txn = super::begin(db).await?;
    ensure_wallet(&txn, address, now).await?;
    let claimed = wallet::Entity::update_many()
        .col_expr(wallet::Column::FreeClaimed, Expr::value(true))
        .col_expr(
            wallet::Column::FreeGranted,
            Expr::col(wallet::Column::FreeGranted).add(chips),
        )
        .filter(wallet::Column::Address.eq(address))
        .filter(wallet::Column::FreeClaimed.eq(false))
        .exec(&txn)
        .await?;
    if !super::happened(claimed) {
        return Ok(None);
    }
    let entry = Entry {
        kind: LedgerKind::Free,
        reference: "free",
        at: now,
    };
    let wallet = credit(&txn, address, chips, Pocket::Free, entry).await?;
    txn.commit().await?;
    Ok(Some(wallet))
}

pub async fn mark_bought_in(db: &impl ConnectionTrait, address: &str) -> Result<(), DbErr> {
    wallet::Entity::update_many()
        .col_expr(wallet::Column::BoughtIn, Expr::value(true))
        .filter(wallet::Column::Address.eq(address))
        .exec(db)
        .await?;
    Ok(())
}

/// `address`'s chips and free chips just after the last ledger row with this reference (a
/// round's settlement: `round:<id>`), if it has one. The free chips are the sum of the free
/// pocket's changes up to that row: every change is a row.
pub async fn after(
    db: &impl ConnectionTrait,
    address: &str,
    reference: &str,
) -> Result<Option<(i64, i64)>, DbErr> {
    let Some(last) = ledger::Entity::find()
        .filter(ledger::Column::Address.eq(address))
        .filter(ledger::Column::Reference.eq(reference))
        .order_by_desc(ledger::Column::Id)
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    let free: Option<i64> = ledger::Entity::find()
        .select_only()
        .column_as(
            Expr::cust("CAST(COALESCE(SUM(free_delta), 0) AS BIGINT)"),
            "free",
        )
        .filter(ledger::Column::Address.eq(address))
        .filter(ledger::Column::Id.lte(last.id))
        .into_tuple()
        .one(db)
        .await?;
    Ok(Some((last.balance_after, free.unwrap_or(0))))
}

/// `address`'s balance just after the purchase credit with this reference, if it was credited
/// (read through the address's index).
pub async fn balance_after(
    db: &impl ConnectionTrait,
    address: &str,
    reference: &str,
) -> Result<Option<i64>, DbErr> {
    let row = ledger::Entity::find()
        .filter(ledger::Column::Address.eq(address))
        .filter(ledger::Column::Reference.eq(reference))
        .filter(ledger::Column::Kind.eq(LedgerKind::Purchase))
        .one(db)
        .await?;
    Ok(row.map(|row| row.balance_after))
}

/// Writes the ledger row of one balance change, `(delta, free_delta)`, in its transaction.
async fn record(
    db: &impl ConnectionTrait,
    address: &str,
    (delta, free_delta): (i64, i64),
    balance_after: i64,
    entry: Entry<'_>,
) -> Result<(), DbErr> {
    let row = ledger::ActiveModel {
        address: Set(address.to_owned()),
        kind: Set(entry.kind),
        delta: Set(delta),
        balance_after: Set(balance_after),
        reference: Set(entry.reference.to_owned()),
        created_at: Set(entry.at),
        free_delta: Set(free_delta),
        ..Default::default()
    };
    ledger::Entity::insert(row)
        .exec_without_returning(db)
        .await?;
    Ok(())
}
