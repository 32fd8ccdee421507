//! `seed_batches`: published batches of pre-committed seeds, and the index each commit takes
//! (a conditional `UPDATE … RETURNING` on the batch row, in the commit's transaction: no index
//! is used twice or skipped, whatever the concurrency or the number of instances).

use sea_orm::sea_query::{Expr, ExprTrait, OnConflict, Query};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, FromQueryResult,
    QueryFilter, QueryOrder, QuerySelect,
};

use super::Db;
use super::entities::{bet, round, seed_batch};

/// A seed taken for a commit: its batch and index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Taken {
    pub batch_id: i64,
    pub index: i64,
    /// Indices the batch has left after this one.
    pub left: i64,
}

/// Takes the next index of the oldest batch with one left; `None` when every published batch
/// is used up (publish one and try again).
pub async fn take_index(db: &impl ConnectionTrait) -> Result<Option<Taken>, DbErr> {
    let oldest_with_room = Query::select()
        .expr(Expr::col(seed_batch::Column::Id).min())
        .from(seed_batch::Entity)
        .and_where(Expr::col(seed_batch::Column::NextIndex).lt(Expr::col(seed_batch::Column::Size)))
        .to_owned();
    let taken = seed_batch::Entity::update_many()
        .col_expr(
            seed_batch::Column::NextIndex,
            Expr::col(seed_batch::Column::NextIndex).add(1),
        )
        .filter(seed_batch::Column::Id.in_subquery(oldest_with_room))
        .filter(Expr::col(seed_batch::Column::NextIndex).lt(Expr::col(seed_batch::Column::Size)))
        .exec_with_returning(db)
        .await?;
    Ok(taken.first().map(|batch| Taken {
        batch_id: batch.id,
        index: batch.next_index - 1,
        left: batch.size - batch.next_index,
    }))
}

#[derive(Debug, FromQueryResult)]
struct Room {
    last_id: Option<i64>,
    left: Option<i64>,
}

/// The newest batch's id (0 if none) and how many indices all batches have left.
pub async fn room(db: &Db) -> Result<(i64, i64), DbErr> {
    let room = seed_batch::Entity::find()
        .select_only()
        .column_as(seed_batch::Column::Id.max(), "last_id")
        // SUM of BIGINT is NUMERIC on PostgreSQL: cast back.
        .column_as(Expr::cust("CAST(SUM(size - next_index) AS BIGINT)"), "left")
        .into_model::<Room>()
        .one(db)
        .await?;
    Ok(room.map_or((0, 0), |r| (r.last_id.unwrap_or(0), r.left.unwrap_or(0))))
}

/// Publishes a batch; `false` if another instance published one with this id first.
pub async fn publish(db: &Db, batch: seed_batch::Model) -> Result<bool, DbErr> {
    let row = seed_batch::ActiveModel {
        id: Set(batch.id),
        size: Set(batch.size),
        next_index: Set(0),
        merkle_root: Set(batch.merkle_root),
        created_at: Set(batch.created_at),
        signature: Set(batch.signature),
    };
    let inserted = seed_batch::Entity::insert(row)
        .on_conflict(
            OnConflict::column(seed_batch::Column::Id)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    Ok(inserted == 1)
}

pub async fn all(db: &Db) -> Result<Vec<seed_batch::Model>, DbErr> {
    seed_batch::Entity::find()
        .order_by_asc(seed_batch::Column::Id)
        .all(db)
        .await
}

pub async fn find(db: &Db, batch_id: i64) -> Result<Option<seed_batch::Model>, DbErr> {
    seed_batch::Entity::find_by_id(batch_id).one(db).await
}

/// The rounds that took an index of the batch, in index order, each with its bet's id once
/// played.
pub async fn rounds_of(db: &Db, batch_id: i64) -> Result<Vec<(round::Model, Option<i64>)>, DbErr> {
    let rounds = round::Entity::find()
        .filter(round::Column::BatchId.eq(batch_id))
        .order_by_asc(round::Column::SeedIndex)
        .all(db)
        .await?;
    let bets: Vec<(i64, String)> = bet::Entity::find()
        .select_only()
        .column(bet::Column::Id)
        .column(bet::Column::RoundId)
        .filter(bet::Column::RoundId.is_in(rounds.iter().map(|r| r.id.clone())))
        .into_tuple()
        .all(db)
        .await?;
    let bet_of: std::collections::HashMap<String, i64> =
        bets.into_iter().map(|(id, round)| (round, id)).collect();
    Ok(rounds
        .into_iter()
        .map(|round| {
            let bet_id = bet_of.get(&round.id).copied();
            (round, bet_id)
        })
        .collect())
}
