//! `house_books`: how far the books have followed each house key's transactions on the chain,
//! and what the journal holds against it. A house transaction the database forgot is recorded
//! again in `again.rs`.

mod again;

pub use again::{Forgotten, PaidIn, Recorded, cashout_again, purchase_again};

use std::collections::HashMap;

use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, Condition, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, QuerySelect,
};

use super::Db;
use super::entities::house_book;
use super::entities::house_transaction;

/// Where the books stand for one house key: every house transaction with a nonce below
/// `next_nonce` is in the books, and the token's logs are read to `block`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cursor {
    pub next_nonce: u64,
    pub block: u64,
}

fn stored(value: u64) -> Result<i64, DbErr> {
    i64::try_from(value).map_err(|e| DbErr::Custom(e.to_string()))
}

fn read(value: i64) -> u64 {
    u64::try_from(value).unwrap_or_default()
}

/// What the house key and the pay-to address held of the token at a cursor's block (decimal
/// base units).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Balances {
    pub house: String,
    pub pay_to: String,
}

/// The balances stored with the cursor of `sender`, if they were read at its block.
pub async fn balances(db: &impl ConnectionTrait, sender: &str) -> Result<Option<Balances>, DbErr> {
    Ok(house_book::Entity::find_by_id(sender.to_owned())
        .one(db)
        .await?
        .and_then(|row| {
            Some(Balances {
                house: row.house_balance?,
                pay_to: row.pay_to_balance?,
            })
        }))
}

/// The cursor of `sender`, if its books were started.
pub async fn cursor(db: &impl ConnectionTrait, sender: &str) -> Result<Option<Cursor>, DbErr> {
    Ok(house_book::Entity::find_by_id(sender.to_owned())
        .one(db)
        .await?
        .map(|row| Cursor {
            next_nonce: read(row.next_nonce),
            block: read(row.block),
        }))
}

/// Starts the books of `sender` at `start` (with the balances at its block, if read) unless
/// another instance did first; the cursor.
pub async fn start(
    db: &Db,
    sender: &str,
    (start, balances): (Cursor, Option<&Balances>),
    at: i64,
) -> Result<Cursor, DbErr> {
    let row = house_book::ActiveModel {
        sender: Set(sender.to_owned()),
        next_nonce: Set(stored(start.next_nonce)?),
        block: Set(stored(start.block)?),
        house_balance: Set(balances.map(|b| b.house.clone())),
        pay_to_balance: Set(balances.map(|b| b.pay_to.clone())),
        started_at: Set(at),
        updated_at: Set(at),
    };
    house_book::Entity::insert(row)
        .on_conflict(
            OnConflict::column(house_book::Column::Sender)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    cursor(db, sender)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound(format!("house books of {sender}")))
}

/// Moves the cursor of `sender` from `from` to `to`, with the balances at `to`'s block if they
/// were read, only if it still stands at `from`: `false` when it moved meanwhile (another
/// instance's pass, or a restore of the database under this one), and the pass that read
/// `from` must read it again.
pub async fn advance(
    db: &impl ConnectionTrait,
    sender: &str,
    (from, to): (Cursor, Cursor),
    balances: Option<&Balances>,
    at: i64,
) -> Result<bool, DbErr> {
    if from == to {
        return Ok(cursor(db, sender).await? == Some(from));
    }
    let (house, pay_to) = match balances {
        Some(b) => (Some(b.house.clone()), Some(b.pay_to.clone())),
        None => (None, None),
    };
    let updated = house_book::Entity::update_many()
        .col_expr(house_book::Column::HouseBalance, Expr::value(house))
        .col_expr(house_book::Column::PayToBalance, Expr::value(pay_to))
        .col_expr(
            house_book::Column::NextNonce,
            Expr::value(stored(to.next_nonce)?),
        )
        .col_expr(house_book::Column::Block, Expr::value(stored(to.block)?))
        .col_expr(house_book::Column::UpdatedAt, Expr::value(at))
        .filter(house_book::Column::Sender.eq(sender))
        .filter(house_book::Column::NextNonce.eq(stored(from.next_nonce)?))
        .filter(house_book::Column::Block.eq(stored(from.block)?))
        .exec(db)
        .await?;
    Ok(updated.rows_affected == 1)
}

/// Takes the books' row of `sender` for the transaction `txn` (its first write), if the cursor
/// still stands at `at_cursor`; `false` when it moved.
pub(super) async fn hold(
    txn: &impl ConnectionTrait,
    sender: &str,
    at_cursor: Cursor,
    at: i64,
) -> Result<bool, DbErr> {
    let updated = house_book::Entity::update_many()
        .col_expr(house_book::Column::UpdatedAt, Expr::value(at))
        .filter(house_book::Column::Sender.eq(sender))
        .filter(house_book::Column::NextNonce.eq(stored(at_cursor.next_nonce)?))
        .filter(house_book::Column::Block.eq(stored(at_cursor.block)?))
        .exec(txn)
        .await?;
    Ok(updated.rows_affected == 1)
}

/// Which of `hashes` the journal holds as sent by `sender`, with their nonces (another key's
/// nonces say nothing of this one's).
pub async fn journalled(
    db: &Db,
    sender: &str,
    hashes: &[String],
) -> Result<HashMap<String, u64>, DbErr> {
    let mut known = HashMap::new();
    for chunk in hashes.chunks(500) {
        let rows: Vec<(String, i64)> = house_transaction::Entity::find()
            .select_only()
            .column(house_transaction::Column::Hash)
            .column(house_transaction::Column::Nonce)
            .filter(house_transaction::Column::Hash.is_in(chunk.iter().cloned()))
            .filter(house_transaction::Column::Sender.eq(sender))
            .into_tuple()
            .all(db)
            .await?;
        known.extend(rows.into_iter().map(|(hash, nonce)| (hash, read(nonce))));
    }
    Ok(known)
}

/// The highest nonce the journal holds for `sender`, or with no sender (rows from before the
/// journal named senders, when one key sent them all).
pub async fn last_journalled_nonce(db: &Db, sender: &str) -> Result<Option<u64>, DbErr> {
    let row = house_transaction::Entity::find()
        .filter(
            Condition::any()
                .add(house_transaction::Column::Sender.eq(sender))
                .add(house_transaction::Column::Sender.is_null()),
        )
        .order_by_desc(house_transaction::Column::Nonce)
        .one(db)
        .await?;
    Ok(row.map(|row| read(row.nonce)))
}

/// How many distinct nonces in `from..to` the journal holds for `sender`.
pub async fn journalled_nonces(db: &Db, sender: &str, from: u64, to: u64) -> Result<u64, DbErr> {
    if to <= from {
        return Ok(0);
    }
    let nonces = house_transaction::Entity::find()
        .select_only()
        .column(house_transaction::Column::Nonce)
        .distinct()
        .filter(house_transaction::Column::Sender.eq(sender))
        .filter(house_transaction::Column::Nonce.gte(stored(from)?))
        .filter(house_transaction::Column::Nonce.lt(stored(to)?))
        .count(db)
        .await?;
    Ok(nonces)
}
