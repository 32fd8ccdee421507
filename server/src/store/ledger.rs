//! Wallets and their ledger. A balance changes only here, only by a conditional update, and
//! always with its ledger row in the same transaction.

use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter};

use super::Db;
use super::entities::ledger::{self, LedgerKind};
use super::entities::wallet;

/// What a debit must leave in the wallet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Floor {
    /// Any chips may be taken (a wager).
    Nothing,
    /// The chips granted for free stay (a cashout: free chips are play money).
    FreeGrant,
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

/// Creates the wallet row if the address has none.
pub async fn ensure_wallet(
    db: &impl ConnectionTrait,
    address: &str,
    now: i64,
) -> Result<(), DbErr> {
    let row = wallet::ActiveModel {
        address: Set(address.to_owned()),
        chips: Set(0),
        bought_in: Set(false),
        free_claimed: Set(false),
        free_granted: Set(0),
        net_day: Set(0),
        net_today: Set(0),
        created_at: Set(now),
        open_rounds: Set(0),
    };
    wallet::Entity::insert(row)
        .on_conflict(
            OnConflict::column(wallet::Column::Address)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// Takes `chips` if the balance above `floor` covers them; `None` (and nothing changed) if it
/// does not.
pub async fn debit(
    db: &impl ConnectionTrait,
    address: &str,
    chips: i64,
    floor: Floor,
    entry: Entry<'_>,
) -> Result<Option<wallet::Model>, DbErr> {
    let available = match floor {
        Floor::Nothing => Expr::col(wallet::Column::Chips),
        Floor::FreeGrant => {
            Expr::col(wallet::Column::Chips).sub(Expr::col(wallet::Column::FreeGranted))
        }
    };
    let updated = wallet::Entity::update_many()
        .col_expr(
            wallet::Column::Chips,
            Expr::col(wallet::Column::Chips).sub(chips),
        )
        .filter(wallet::Column::Address.eq(address))
        .filter(available.gte(chips))
        .exec_with_returning(db)
        .await?;
    let Some(wallet) = updated.into_iter().next() else {
        return Ok(None);
    };
    record(db, address, -chips, wallet.chips, entry).await?;
    Ok(Some(wallet))
}

/// Adds `chips` to an existing wallet; the returned row is the wallet after the credit.
pub async fn credit(
    db: &impl ConnectionTrait,
    address: &str,
    chips: i64,
    entry: Entry<'_>,
) -> Result<wallet::Model, DbErr> {
    let updated = wallet::Entity::update_many()
        .col_expr(
            wallet::Column::Chips,
            Expr::col(wallet::Column::Chips).add(chips),
        )
        .filter(wallet::Column::Address.eq(address))
        .exec_with_returning(db)
        .await?;
    let wallet = updated
        .into_iter()
        .next()
        .ok_or_else(|| DbErr::RecordNotFound(format!("wallet {address}")))?;
    record(db, address, chips, wallet.chips, entry).await?;
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
    let wallet = credit(&txn, address, chips, entry).await?;
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

async fn record(
    db: &impl ConnectionTrait,
    address: &str,
    delta: i64,
    balance_after: i64,
    entry: Entry<'_>,
) -> Result<(), DbErr> {
    ledger::Entity::insert(row(address, delta, balance_after, entry))
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// The ledger row of one balance change (written with the change, in its transaction).
pub(super) fn row(
    address: &str,
    delta: i64,
    balance_after: i64,
    entry: Entry<'_>,
) -> ledger::ActiveModel {
    ledger::ActiveModel {
        address: Set(address.to_owned()),
        kind: Set(entry.kind),
        delta: Set(delta),
        balance_after: Set(balance_after),
        reference: Set(entry.reference.to_owned()),
        created_at: Set(entry.at),
        ..Default::default()
    }
}
