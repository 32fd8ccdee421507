//! Aggregates for the public statistics. The bets are folded into `floor_totals` from a
//! watermark (the last bet id folded), so reading the floor costs a few rows plus the bets since
//! the last fold, however many bets there are; no play writes to a shared row.

use std::collections::HashSet;

use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    AccessMode, ActiveValue::Set, ColumnTrait, ConnectionTrait, DbBackend, DbErr, EntityTrait,
    IsolationLevel, QueryFilter, QuerySelect, TransactionTrait,
};

use super::Db;
use super::entities::cashout::{self, CashoutStatus};
use super::entities::floor_total::{self, FloorScope};
use super::entities::{bet, floor_watermark};

/// One game's settled rounds on one side of the floor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameTotals {
    pub scope: FloorScope,
    pub game: String,
    pub rounds: i64,
    pub wagered: i64,
    pub paid_out: i64,
}

/// The floor as it stands: the folded totals plus the bets past the watermark, read in one
/// snapshot (so a fold landing meanwhile is counted once).
pub async fn floor(db: &Db, house: &HashSet<String>) -> Result<Vec<GameTotals>, DbErr> {
    let txn = match db.get_database_backend() {
        DbBackend::Postgres => {
            db.begin_with_config(
                Some(IsolationLevel::RepeatableRead),
                Some(AccessMode::ReadOnly),
            )
            .await?
        }
        // One connection, and a read transaction is a snapshot already.
        _ => db.begin().await?,
    };
    let watermark = watermark(&txn).await?;
    let mut totals: Vec<GameTotals> = floor_total::Entity::find()
        .all(&txn)
        .await?
        .into_iter()
        .map(|row| GameTotals {
            scope: row.scope,
            game: row.game,
            rounds: row.rounds,
            wagered: row.wagered,
            paid_out: row.paid_out,
        })
        .collect();
    totals.extend(totals_between(&txn, watermark.last_bet_id, None, house).await?);
    txn.commit().await?;
    Ok(totals)
}

/// Folds the bets past the watermark into the totals (from the first bet again when the house
/// wallets changed). `false` when another fold got there first.
pub async fn fold(db: &Db, house: &HashSet<String>, now: i64) -> Result<bool, DbErr> {
    let upto = settled_up_to(db).await?;
    let house_key = house_key(house);
    let txn = db.begin().await?;
    let before = watermark(&txn).await?;
    let refold = before.house_wallets != house_key;
    let after = if refold { 0 } else { before.last_bet_id };
    if upto <= after && !refold {
        return Ok(true);
    }
    let claimed = floor_watermark::Entity::update_many()
        .col_expr(floor_watermark::Column::LastBetId, Expr::value(upto))
        .col_expr(
            floor_watermark::Column::HouseWallets,
            Expr::value(&house_key),
        )
        .col_expr(floor_watermark::Column::FoldedAt, Expr::value(now))
        .filter(floor_watermark::Column::Id.eq(1))
        .filter(floor_watermark::Column::LastBetId.eq(before.last_bet_id))
        .filter(floor_watermark::Column::HouseWallets.eq(&before.house_wallets))
        .exec(&txn)
        .await?;
    if !super::happened(claimed) {
        return Ok(false);
    }
    if refold {
        floor_total::Entity::delete_many().exec(&txn).await?;
    }
    for totals in totals_between(&txn, after, Some(upto), house).await? {
        add(&txn, &totals).await?;
    }
    txn.commit().await?;
    Ok(true)
}

/// Whether bet ids are taken and committed under one write lock, in order (SQLite): then every
/// visible bet is below the highest id committed, and a reader needs no `settled_up_to`.
pub fn bet_ids_commit_in_order(db: &Db) -> bool {
    db.get_database_backend() != DbBackend::Postgres
}

/// The highest bet id below which every bet is committed. On PostgreSQL ids are taken before
/// their transactions commit, so a later id can be visible before an earlier one: a moment's
/// SHARE lock waits out the inserts in flight, and the play batches that took ids and have not
/// written them yet (their spend holds the table's ROW EXCLUSIVE lock: `play_sql`); plays queue
/// behind it for that moment.
pub async fn settled_up_to(db: &Db) -> Result<i64, DbErr> {
    let txn = db.begin().await?;
    if !bet_ids_commit_in_order(db) {
        txn.execute_unprepared("LOCK TABLE bets IN SHARE MODE")
            .await?;
    }
    let max: Option<Option<i64>> = bet::Entity::find()
        .select_only()
        .column_as(Expr::col(bet::Column::Id).max(), "max")
        .into_tuple()
        .one(&txn)
        .await?;
    txn.commit().await?;
    Ok(max.flatten().unwrap_or(0))
}

async fn watermark(db: &impl ConnectionTrait) -> Result<floor_watermark::Model, DbErr> {
    floor_watermark::Entity::find_by_id(1)
        .one(db)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound("floor_watermark row 1".into()))
}

/// The house wallets as the watermark records them: sorted, comma-separated.
fn house_key(house: &HashSet<String>) -> String {
    let mut keys: Vec<&str> = house.iter().map(String::as_str).collect();
    keys.sort_unstable();
    keys.join(",")
}

/// Adds one game's totals to its row.
async fn add(db: &impl ConnectionTrait, totals: &GameTotals) -> Result<(), DbErr> {
    let updated = floor_total::Entity::update_many()
        .col_expr(
            floor_total::Column::Rounds,
            Expr::col(floor_total::Column::Rounds).add(totals.rounds),
        )
        .col_expr(
            floor_total::Column::Wagered,
            Expr::col(floor_total::Column::Wagered).add(totals.wagered),
        )
        .col_expr(
            floor_total::Column::PaidOut,
            Expr::col(floor_total::Column::PaidOut).add(totals.paid_out),
        )
        .filter(floor_total::Column::Scope.eq(totals.scope))
        .filter(floor_total::Column::Game.eq(&totals.game))
        .exec(db)
        .await?;
    if super::happened(updated) {
        return Ok(());
    }
    let row = floor_total::ActiveModel {
        scope: Set(totals.scope),
        game: Set(totals.game.clone()),
        rounds: Set(totals.rounds),
        wagered: Set(totals.wagered),
        paid_out: Set(totals.paid_out),
    };
    floor_total::Entity::insert(row)
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// Per side and game, the bets with ids in `(after, upto]` (no upper bound with `None`).
async fn totals_between(
    db: &impl ConnectionTrait,
    after: i64,
    upto: Option<i64>,
    house: &HashSet<String>,
) -> Result<Vec<GameTotals>, DbErr> {
    let mut totals = Vec::new();
    for scope in [FloorScope::House, FloorScope::Players] {
        let mut query = bet::Entity::find()
            .select_only()
            .column(bet::Column::Game)
            .column_as(Expr::cust("COUNT(*)"), "rounds")
            .column_as(
                Expr::cust("CAST(COALESCE(SUM(wager), 0) AS BIGINT)"),
                "wagered",
            )
            .column_as(
                Expr::cust("CAST(COALESCE(SUM(payout), 0) AS BIGINT)"),
                "paid_out",
            )
            .filter(bet::Column::Id.gt(after))
            .group_by(bet::Column::Game);
        if let Some(upto) = upto {
            query = query.filter(bet::Column::Id.lte(upto));
        }
        let addresses = house.iter().cloned();
        query = match scope {
            FloorScope::House if house.is_empty() => continue,
            FloorScope::House => query.filter(bet::Column::Address.is_in(addresses)),
            FloorScope::Players => query.filter(bet::Column::Address.is_not_in(addresses)),
        };
        let rows: Vec<(String, i64, i64, i64)> = query.into_tuple().all(db).await?;
        totals.extend(
            rows.into_iter()
                .map(|(game, rounds, wagered, paid_out)| GameTotals {
                    scope,
                    game,
                    rounds,
                    wagered,
                    paid_out,
                }),
        );
    }
    Ok(totals)
}

/// Per status: `(status, count, chips)`.
pub async fn cashout_totals(db: &Db) -> Result<Vec<(CashoutStatus, i64, i64)>, DbErr> {
    cashout::Entity::find()
        .select_only()
        .column(cashout::Column::Status)
        .column_as(Expr::cust("COUNT(*)"), "count")
        .column_as(
            Expr::cust("CAST(COALESCE(SUM(chips), 0) AS BIGINT)"),
            "chips",
        )
        .group_by(cashout::Column::Status)
        .into_tuple()
        .all(db)
        .await
}
