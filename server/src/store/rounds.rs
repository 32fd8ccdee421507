//! Rounds and the bets that settle them. A round is opened by a commit (counted in its wallet's
//! `open_rounds`, which caps them) and spent once, by the play that records its bet in the same
//! transaction (`plays.rs`), or expired unplayed.

use std::collections::BTreeMap;

use sea_orm::sea_query::{CaseStatement, Expr, ExprTrait};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    QueryTrait, TransactionTrait,
};

use super::Db;
use super::entities::round::{self, RoundState};
use super::entities::{bet, wallet};

/// Makes the wallets of `wallets` where missing (each created at its time), then reads each
/// one's count of open rounds, on PostgreSQL locked `FOR UPDATE` in address order (the order
/// play batches lock them in); SQLite's one writer holds the database.
pub async fn lock_open_counts(
    db: &impl ConnectionTrait,
    wallets: &BTreeMap<&str, i64>,
) -> Result<BTreeMap<String, i64>, DbErr> {
    super::ledger::ensure_wallets(db, wallets).await?;
    let counts: Vec<(String, i64)> = wallet::Entity::find()
        .select_only()
        .column(wallet::Column::Address)
        .column(wallet::Column::OpenRounds)
        .filter(wallet::Column::Address.is_in(wallets.keys().copied()))
        .order_by_asc(wallet::Column::Address)
        .lock_exclusive()
        .into_tuple()
        .all(db)
        .await?;
    Ok(counts.into_iter().collect())
}

/// Inserts the open rounds `rounds` (each with its seed's batch and index, its commitment and
/// its signature; no seed stored) and adds `added` to their addresses' counts of open rounds,
/// each count kept within `cap`: `false` if a count would pass it (roll the transaction back).
pub async fn insert_opened(
    db: &impl ConnectionTrait,
    rounds: impl IntoIterator<Item = round::Model>,
    added: &BTreeMap<&str, i64>,
    cap: i64,
) -> Result<bool, DbErr> {
    if added.is_empty() {
        return Ok(true);
    }
    let adding: Expr = added
        .iter()
        .fold(CaseStatement::new(), |case, (address, count)| {
            case.case(wallet::Column::Address.eq(*address), Expr::value(*count))
        })
        .finally(Expr::value(0_i64))
        .into();
    let counted = wallet::Entity::update_many()
        .col_expr(
            wallet::Column::OpenRounds,
            Expr::col(wallet::Column::OpenRounds).add(adding.clone()),
        )
        .filter(wallet::Column::Address.is_in(added.keys().copied()))
        .filter(Expr::col(wallet::Column::OpenRounds).add(adding).lte(cap))
        .exec(db)
        .await?;
    if counted.rows_affected != added.len() as u64 {
        return Ok(false);
    }
    insert_rounds(db, rounds).await?;
    Ok(true)
}

/// Inserts open rounds, their wallets' counts written by the caller: by `insert_opened` for
/// commits, with a batch of plays' wallets for the successors its plays opened (`next_round`),
/// each in the place of the round its play spent.
pub async fn insert_rounds(
    db: &impl ConnectionTrait,
    rounds: impl IntoIterator<Item = round::Model>,
) -> Result<(), DbErr> {
    let rows: Vec<round::ActiveModel> = rounds.into_iter().map(Into::into).collect();
    if rows.is_empty() {
        return Ok(());
    }
    round::Entity::insert_many(rows)
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// The round the play of `round_id` opened (`next_round`), if it asked for one.
pub async fn successor_of(db: &Db, round_id: &str) -> Result<Option<round::Model>, DbErr> {
    round::Entity::find()
        .filter(round::Column::PredecessorId.eq(round_id))
        .one(db)
        .await
}

pub async fn find(db: &Db, round_id: &str) -> Result<Option<round::Model>, DbErr> {
    round::Entity::find_by_id(round_id.to_owned()).one(db).await
}

/// Expires up to `batch` rounds opened before `cutoff` and still open; how many it expired.
pub async fn expire_stale(db: &Db, cutoff: i64, now: i64, batch: u64) -> Result<u64, DbErr> {
    let stale = round::Entity::find()
        .select_only()
        .column(round::Column::Id)
        .filter(round::Column::State.eq(RoundState::Open))
        .filter(round::Column::ExpiredAt.is_null())
        .filter(round::Column::CreatedAt.lt(cutoff))
        .order_by_asc(round::Column::CreatedAt)
        .limit(batch)
        .into_query();
    let txn = db.begin().await?;
    let expired = expire_where(&txn, round::Column::Id.in_subquery(stale), now).await?;
    txn.commit().await?;
    Ok(expired)
}

/// Expires those of the rounds `ids` opened at or before `cutoff` and still open; how many it
/// expired. After it, none of them can be spent, by any instance.
pub async fn expire_past(db: &Db, ids: &[&str], cutoff: i64, now: i64) -> Result<u64, DbErr> {
    let txn = db.begin().await?;
    let past = round::Column::Id
        .is_in(ids.iter().copied())
        .and(round::Column::CreatedAt.lte(cutoff));
    let expired = expire_where(&txn, past, now).await?;
    txn.commit().await?;
    Ok(expired)
}

/// Expires every open round of `address` (its owner rotated); how many it expired.
pub async fn expire_of(db: &impl ConnectionTrait, address: &str, now: i64) -> Result<u64, DbErr> {
    expire_where(db, round::Column::Address.eq(address), now).await
}

/// Marks the open rounds matching `which` expired and takes them off their addresses' counts.
async fn expire_where(
    db: &impl ConnectionTrait,
    which: sea_orm::sea_query::SimpleExpr,
    now: i64,
) -> Result<u64, DbErr> {
    let expired = round::Entity::update_many()
        .col_expr(round::Column::ExpiredAt, Expr::value(now))
        .filter(which)
        .filter(round::Column::State.eq(RoundState::Open))
        .filter(round::Column::ExpiredAt.is_null())
        .exec_with_returning(db)
        .await?;
    let mut per_address: BTreeMap<&str, i64> = BTreeMap::new();
    for round in &expired {
        *per_address.entry(round.address.as_str()).or_default() += 1;
    }
    for (address, count) in per_address {
        uncount_open(db, address, count).await?;
    }
    Ok(expired.len() as u64)
}

async fn uncount_open(db: &impl ConnectionTrait, address: &str, count: i64) -> Result<(), DbErr> {
    wallet::Entity::update_many()
        .col_expr(
            wallet::Column::OpenRounds,
            Expr::col(wallet::Column::OpenRounds).sub(count),
        )
        .filter(wallet::Column::Address.eq(address))
        .exec(db)
        .await?;
    Ok(())
}

/// Settled bets after `after` and up to `up_to` in bet order, with their rounds (the audit
/// feed).
pub async fn settled_between(
    db: &Db,
    after: i64,
    up_to: i64,
    limit: u64,
) -> Result<Vec<(bet::Model, round::Model)>, DbErr> {
    let rows = bet::Entity::find()
        .find_also_related(round::Entity)
        .filter(bet::Column::Id.gt(after))
        .filter(bet::Column::Id.lte(up_to))
        .order_by_asc(bet::Column::Id)
        .limit(limit)
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(bet, round)| Some((bet, round?)))
        .collect())
}

/// The bet that settled `round_id`, if it was played.
pub async fn bet_of_round(db: &Db, round_id: &str) -> Result<Option<bet::Model>, DbErr> {
    bet::Entity::find()
        .filter(bet::Column::RoundId.eq(round_id))
        .one(db)
        .await
}

/// A bet with the round it settled.
pub async fn bet(db: &Db, bet_id: i64) -> Result<Option<(bet::Model, round::Model)>, DbErr> {
    let found = bet::Entity::find_by_id(bet_id)
        .find_also_related(round::Entity)
        .one(db)
        .await?;
    Ok(found.and_then(|(bet, round)| Some((bet, round?))))
}

/// The newest bets first (each row holds what a public listing shows of its round).
pub async fn recent(db: &Db, limit: u64) -> Result<Vec<bet::Model>, DbErr> {
    bet::Entity::find()
        .order_by_desc(bet::Column::Id)
        .limit(limit)
        .all(db)
        .await
}

/// The rounds still open of salted batches that store their seed (opened by an older version),
/// each with its batch's salt.
pub async fn open_with_stored_seed(db: &Db) -> Result<Vec<(round::Model, Option<String>)>, DbErr> {
    use super::entities::seed_batch;
    let rounds = round::Entity::find()
        .filter(round::Column::State.eq(RoundState::Open))
        .filter(round::Column::ServerSeed.ne(""))
        .filter(round::Column::BatchId.is_not_null())
        .all(db)
        .await?;
    let mut salts = std::collections::HashMap::new();
    let mut found = Vec::with_capacity(rounds.len());
    for round in rounds {
        let Some(batch_id) = round.batch_id else {
            continue;
        };
        if let std::collections::hash_map::Entry::Vacant(entry) = salts.entry(batch_id) {
            let batch = seed_batch::Entity::find_by_id(batch_id).one(db).await?;
            entry.insert(batch.and_then(|b| b.salt));
        }
        if let Some(Some(salt)) = salts.get(&batch_id) {
            found.push((round, Some(salt.clone())));
        }
    }
    Ok(found)
}

/// Erases the stored seed of round `id` if it still is `seed`; whether it did.
pub async fn erase_seed(db: &Db, id: &str, seed: &str) -> Result<bool, DbErr> {
    let updated = round::Entity::update_many()
        .col_expr(round::Column::ServerSeed, Expr::value(""))
        .filter(round::Column::Id.eq(id))
        .filter(round::Column::ServerSeed.eq(seed))
        .exec(db)
        .await?;
    Ok(super::happened(updated))
}
