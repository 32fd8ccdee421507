//! `seed_batches`: published batches of pre-committed seeds, and the indices each batch of
//! commits takes (the batch rows read locked and moved on, in the commits' transaction: no
//! index is used twice or skipped, whatever the concurrency). A batch is taken from only by the
//! running instance that published it (its `owner`), so no instance started after a restore
//! continues a batch whose later seeds were revealed before it.

use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, FromQueryResult,
    QueryFilter, QueryOrder, QuerySelect,
};

use super::Db;
use super::entities::{bet, round, seed_batch};

/// A seed taken for a commit: its batch, the batch's salt, and the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    pub batch_id: i64,
    pub salt: Option<String>,
    pub index: i64,
    /// Indices the batch has left after this one.
    pub left: i64,
}

/// Takes the next `count` indices of `owner`'s batches, oldest batch first; fewer when every
/// batch it published runs out (publish one and try again). The batches' rows are read locked
/// (`FOR UPDATE` on PostgreSQL; SQLite's one writer holds the database) and each moved on
/// once, so no index is used twice or skipped, whatever the concurrency.
pub async fn take_indices(
    db: &impl ConnectionTrait,
    owner: &str,
    count: usize,
) -> Result<Vec<Taken>, DbErr> {
    let mut taken = Vec::with_capacity(count);
    if count == 0 {
        return Ok(taken);
    }
    let with_room = seed_batch::Entity::find()
        .filter(seed_batch::Column::Owner.eq(owner))
        .filter(Expr::col(seed_batch::Column::NextIndex).lt(Expr::col(seed_batch::Column::Size)))
        .order_by_asc(seed_batch::Column::CreatedAt)
        .order_by_asc(seed_batch::Column::Id)
        .lock_exclusive()
        .all(db)
        .await?;
    for batch in with_room {
        let wanted =
            i64::try_from(count - taken.len()).map_err(|e| DbErr::Custom(e.to_string()))?;
        if wanted == 0 {
            break;
        }
        let next = batch.next_index + Ord::min(wanted, batch.size - batch.next_index);
        let moved = seed_batch::Entity::update_many()
            .col_expr(seed_batch::Column::NextIndex, Expr::value(next))
            .filter(seed_batch::Column::Id.eq(batch.id))
            .filter(seed_batch::Column::NextIndex.eq(batch.next_index))
            .exec(db)
            .await?;
        if !super::happened(moved) {
            return Err(DbErr::Custom(format!(
                "seed batch {}'s next index moved while its row was locked",
                batch.id
            )));
        }
        taken.extend((batch.next_index..next).map(|index| Taken {
            batch_id: batch.id,
            salt: batch.salt.clone(),
            index,
            left: batch.size - index - 1,
        }));
    }
    Ok(taken)
}

#[derive(Debug, FromQueryResult)]
struct Room {
    left: Option<i64>,
}

/// How many indices `owner`'s batches have left.
pub async fn room(db: &Db, owner: &str) -> Result<i64, DbErr> {
    let room = seed_batch::Entity::find()
        .select_only()
        // SUM of BIGINT is NUMERIC on PostgreSQL: cast back.
        .column_as(Expr::cust("CAST(SUM(size - next_index) AS BIGINT)"), "left")
        .filter(seed_batch::Column::Owner.eq(owner))
        .into_model::<Room>()
        .one(db)
        .await?;
    Ok(room.and_then(|r| r.left).unwrap_or(0))
}

/// Gives a batch up: no instance takes its indices again (those used stay accounted for).
pub async fn disown(db: &Db, batch_id: i64) -> Result<(), DbErr> {
    seed_batch::Entity::update_many()
        .col_expr(
            seed_batch::Column::Owner,
            Expr::value(Option::<String>::None),
        )
        .filter(seed_batch::Column::Id.eq(batch_id))
        .exec(db)
        .await?;
    Ok(())
}

/// Publishes a batch; `false` if a batch with its id exists (ids are drawn at random: draw
/// another).
pub async fn publish(db: &Db, batch: seed_batch::Model) -> Result<bool, DbErr> {
    let row = seed_batch::ActiveModel {
        id: Set(batch.id),
        size: Set(batch.size),
        next_index: Set(0),
        merkle_root: Set(batch.merkle_root),
        created_at: Set(batch.created_at),
        signature: Set(batch.signature),
        salt: Set(batch.salt),
        owner: Set(batch.owner),
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

/// Every batch, oldest first.
pub async fn all(db: &Db) -> Result<Vec<seed_batch::Model>, DbErr> {
    seed_batch::Entity::find()
        .order_by_asc(seed_batch::Column::CreatedAt)
        .order_by_asc(seed_batch::Column::Id)
        .all(db)
        .await
}

pub async fn find(
    db: &impl ConnectionTrait,
    batch_id: i64,
) -> Result<Option<seed_batch::Model>, DbErr> {
    seed_batch::Entity::find_by_id(batch_id).one(db).await
}

/// The rounds that took indices `from` and up of the batch, at most `limit` of them, in index
/// order, each with its bet's id once played.
pub async fn rounds_of(
    db: &Db,
    batch_id: i64,
    from: i64,
    limit: u64,
) -> Result<Vec<(round::Model, Option<i64>)>, DbErr> {
    let rounds = round::Entity::find()
        .filter(round::Column::BatchId.eq(batch_id))
        .filter(round::Column::SeedIndex.gte(from))
        .order_by_asc(round::Column::SeedIndex)
        .limit(limit)
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
