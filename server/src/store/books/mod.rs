//! `house_books`: how far the books have followed each house key's transactions on the chain,
//! and what the journal holds against it. A house transaction the database forgot is recorded
//! again in `again.rs`.

mod again;

pub use again::{Forgotten, PaidIn, Recorded, cashout_again, purchase_again};

use std::collections::HashSet;

use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, Condition, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, QuerySelect,
};

use super::Db;
use super::entities::house_book;
use super::entities::house_transaction;

/// Where the books stand for one house key: every house transaction with a nonce below
/// `next_nonce` that moved the token is in the books, and the token's logs are read to `block`.
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

/// Starts the books of `sender` at `start` unless another instance did first; the cursor.
pub async fn start(db: &Db, sender: &str, start: Cursor, at: i64) -> Result<Cursor, DbErr> {
    let row = house_book::ActiveModel {
        sender: Set(sender.to_owned()),
        next_nonce: Set(stored(start.next_nonce)?),
        block: Set(stored(start.block)?),
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

/// Moves the cursor of `sender` forward to `to` (never back: another instance may be ahead).
pub async fn advance(
    db: &impl ConnectionTrait,
    sender: &str,
    to: Cursor,
    at: i64,
) -> Result<(), DbErr> {
    let (nonce, block) = (stored(to.next_nonce)?, stored(to.block)?);
    house_book::Entity::update_many()
        .col_expr(house_book::Column::NextNonce, Expr::value(nonce))
        .col_expr(house_book::Column::Block, Expr::value(block))
        .col_expr(house_book::Column::UpdatedAt, Expr::value(at))
        .filter(house_book::Column::Sender.eq(sender))
        .filter(
            Condition::any()
                .add(house_book::Column::NextNonce.lt(nonce))
                .add(
                    Condition::all()
                        .add(house_book::Column::NextNonce.eq(nonce))
                        .add(house_book::Column::Block.lt(block)),
                ),
        )
        .exec(db)
        .await?;
    Ok(())
}

/// Which of `hashes` the journal holds.
pub async fn journalled(db: &Db, hashes: &[String]) -> Result<HashSet<String>, DbErr> {
    let mut known = HashSet::new();
    for chunk in hashes.chunks(500) {
        let rows: Vec<String> = house_transaction::Entity::find()
            .select_only()
            .column(house_transaction::Column::Hash)
            .filter(house_transaction::Column::Hash.is_in(chunk.iter().cloned()))
            .into_tuple()
            .all(db)
            .await?;
        known.extend(rows);
    }
    Ok(known)
}

/// The highest nonce the journal holds for `sender`.
pub async fn last_journalled_nonce(db: &Db, sender: &str) -> Result<Option<u64>, DbErr> {
    let row = house_transaction::Entity::find()
        .filter(house_transaction::Column::Sender.eq(sender))
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
