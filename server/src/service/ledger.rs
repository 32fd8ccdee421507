//! Chip movements. A balance changes only here, only by a conditional update, and always with
//! its ledger row in the same transaction.

use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter};

use crate::entities::{ledger, wallet};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Free,
    Purchase,
    Wager,
    Win,
    Cashout,
    Refund,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Self::Free => "free",
            Self::Purchase => "purchase",
            Self::Wager => "wager",
            Self::Win => "win",
            Self::Cashout => "cashout",
            Self::Refund => "refund",
        }
    }
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

/// What a debit must leave in the wallet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Floor {
    /// Any chips may be taken (a wager).
    Nothing,
    /// The chips granted for free stay (a cashout: free chips are play money).
    FreeGrant,
}

/// Takes `chips` if the balance above `floor` covers them; `None` (and nothing changed) if it
/// does not.
pub async fn debit(
    db: &impl ConnectionTrait,
    address: &str,
    chips: i64,
    floor: Floor,
    kind: Kind,
    reference: &str,
    now: i64,
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
    record(db, address, kind, -chips, wallet.chips, reference, now).await?;
    Ok(Some(wallet))
}

/// Adds `chips` to an existing wallet; the returned row is the wallet after the credit.
pub async fn credit(
    db: &impl ConnectionTrait,
    address: &str,
    chips: i64,
    kind: Kind,
    reference: &str,
    now: i64,
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
    record(db, address, kind, chips, wallet.chips, reference, now).await?;
    Ok(wallet)
}

async fn record(
    db: &impl ConnectionTrait,
    address: &str,
    kind: Kind,
    delta: i64,
    balance_after: i64,
    reference: &str,
    now: i64,
) -> Result<(), DbErr> {
    let row = ledger::ActiveModel {
        address: Set(address.to_owned()),
        kind: Set(kind.as_str().to_owned()),
        delta: Set(delta),
        balance_after: Set(balance_after),
        reference: Set(reference.to_owned()),
        created_at: Set(now),
        ..Default::default()
    };
    ledger::Entity::insert(row)
        .exec_without_returning(db)
        .await?;
    Ok(())
}
