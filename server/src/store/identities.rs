//! The auth statement's stored generations (the first is derived, never stored). Rotating adds
//! the next one, drops those too old to be checked any more, and expires the address's open
//! rounds, together: an address holds a few rows however often it rotates.

use std::collections::BTreeMap;

use sea_orm::sea_query::OnConflict;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect,
};

use super::Db;
use super::entities::{auth_generation, wallet};

/// The address's newest `count` stored generations, newest first (however many it has: a
/// signature check reads a bounded number of rows).
pub async fn newest_generations(
    db: &Db,
    address: &str,
    count: u64,
) -> Result<Vec<auth_generation::Model>, DbErr> {
    auth_generation::Entity::find()
        .filter(auth_generation::Column::Address.eq(address))
        .order_by_desc(auth_generation::Column::Generation)
        .limit(count)
        .all(db)
        .await
}

/// The current stored generation (its number and nonce) of each of `addresses` that has one
/// (an address without is at its derived first generation, 0). Inside a batch of commits, after
/// their wallets are locked: a rotation locks the wallet first too, so the two never overlap.
pub async fn current_generations(
    db: &impl ConnectionTrait,
    addresses: impl IntoIterator<Item = &str>,
) -> Result<BTreeMap<String, (i64, String)>, DbErr> {
    // An address keeps its few newest generations (`rotate`): a bounded read per address.
    let rows: Vec<(String, i64, String)> = auth_generation::Entity::find()
        .select_only()
        .column(auth_generation::Column::Address)
        .column(auth_generation::Column::Generation)
        .column(auth_generation::Column::Nonce)
        .filter(auth_generation::Column::Address.is_in(addresses))
        .into_tuple()
        .all(db)
        .await?;
    let mut current: BTreeMap<String, (i64, String)> = BTreeMap::new();
    for (address, generation, nonce) in rows {
        let newest = current
            .entry(address)
            .or_insert((generation, nonce.clone()));
        if generation > newest.0 {
            *newest = (generation, nonce);
        }
    }
    Ok(current)
}

/// A generation to start.
#[derive(Debug, Clone, Copy)]
pub struct NextGeneration<'a> {
    pub address: &'a str,
    /// One above the current generation.
    pub generation: i64,
    pub nonce: &'a str,
    pub issued_at: i64,
    /// Older generations kept beside it; the rest are deleted.
    pub keep_older: i64,
}

/// Starts `next`, deletes the generations older than the `keep_older` before it, and expires
/// the address's open rounds, in one transaction. `None` if that generation already exists (a
/// concurrent rotation won); else how many rounds it expired.
pub async fn rotate(db: &Db, next: NextGeneration<'_>) -> Result<Option<u64>, DbErr> {
    let txn = super::begin(db).await?;
    let row = auth_generation::ActiveModel {
        address: Set(next.address.to_owned()),
        generation: Set(next.generation),
        nonce: Set(next.nonce.to_owned()),
        issued_at: Set(next.issued_at),
    };
    let inserted = auth_generation::Entity::insert(row)
        .on_conflict(
            OnConflict::columns([
                auth_generation::Column::Address,
                auth_generation::Column::Generation,
            ])
            .do_nothing()
            .to_owned(),
        )
        .exec_without_returning(&txn)
        .await?;
    if inserted != 1 {
        return Ok(None);
    }
    auth_generation::Entity::delete_many()
        .filter(auth_generation::Column::Address.eq(next.address))
        .filter(auth_generation::Column::Generation.lt(next.generation - next.keep_older))
        .exec(&txn)
        .await?;
    // Rounds before the wallet, as plays and expiry lock them (the other order could deadlock
    // with a play). Then the wallet, locked (made if missing): a batch of commits locks it
    // before it reads the current generation, so a round it opened before this lock is expired
    // by the second pass, and one after it is checked against the new generation.
    let mut expired = super::rounds::expire_of(&txn, next.address, next.issued_at).await?;
    super::ledger::ensure_wallet(&txn, next.address, next.issued_at).await?;
    wallet::Entity::find_by_id(next.address.to_owned())
        .lock_exclusive()
        .one(&txn)
        .await?;
    expired += super::rounds::expire_of(&txn, next.address, next.issued_at).await?;
    txn.commit().await?;
    Ok(Some(expired))
}
