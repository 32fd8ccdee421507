//! Rounds and the bets that settle them. A round is opened by a commit and spent once, by the
//! play that records its bet in the same transaction.

use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect,
};

use super::Db;
use super::entities::bet;
use super::entities::round::{self, RoundState};

/// A new open round.
pub async fn open(
    db: &Db,
    round_id: &str,
    address: &str,
    server_seed: &str,
    commitment: &str,
    now: i64,
) -> Result<(), DbErr> {
    let row = round::ActiveModel {
        id: Set(round_id.to_owned()),
        address: Set(address.to_owned()),
        server_seed: Set(server_seed.to_owned()),
        commitment: Set(commitment.to_owned()),
        state: Set(RoundState::Open),
        created_at: Set(now),
        spent_at: Set(None),
    };
    round::Entity::insert(row)
        .exec_without_returning(db)
        .await?;
    Ok(())
}

pub async fn find(db: &Db, round_id: &str) -> Result<Option<round::Model>, DbErr> {
    round::Entity::find_by_id(round_id.to_owned()).one(db).await
}

/// Open → spent; `false` if it was not open (a concurrent play got there first).
pub async fn spend(db: &impl ConnectionTrait, round_id: &str, now: i64) -> Result<bool, DbErr> {
    let spent = round::Entity::update_many()
        .col_expr(round::Column::State, Expr::value(RoundState::Spent))
        .col_expr(round::Column::SpentAt, Expr::value(now))
        .filter(round::Column::Id.eq(round_id))
        .filter(round::Column::State.eq(RoundState::Open))
        .exec(db)
        .await?;
    Ok(super::happened(spent))
}

/// A settled round's receipt fields, as stored.
#[derive(Debug, Clone)]
pub struct NewBet {
    pub round_id: String,
    pub address: String,
    pub game: &'static str,
    pub client_seed: String,
    pub nonce: i64,
    pub wager: i64,
    /// The call's parameters and the result, as the core serializes them.
    pub params: String,
    pub result: String,
    pub won: bool,
    pub payout: i64,
    pub profit: i64,
    pub settled_at: i64,
}

pub async fn record_bet(db: &impl ConnectionTrait, bet: NewBet) -> Result<bet::Model, DbErr> {
    let row = bet::ActiveModel {
        round_id: Set(bet.round_id),
        address: Set(bet.address),
        game: Set(bet.game.to_owned()),
        client_seed: Set(bet.client_seed),
        nonce: Set(bet.nonce),
        wager: Set(bet.wager),
        params: Set(bet.params),
        result: Set(bet.result),
        won: Set(bet.won),
        payout: Set(bet.payout),
        profit: Set(bet.profit),
        settled_at: Set(bet.settled_at),
        ..Default::default()
    };
    bet::Entity::insert(row).exec_with_returning(db).await
}

/// A bet with the round it settled.
pub async fn bet(db: &Db, bet_id: i64) -> Result<Option<(bet::Model, round::Model)>, DbErr> {
    let found = bet::Entity::find_by_id(bet_id)
        .find_also_related(round::Entity)
        .one(db)
        .await?;
    Ok(found.and_then(|(bet, round)| Some((bet, round?))))
}

/// The newest bets first, with their rounds.
pub async fn recent(db: &Db, limit: u64) -> Result<Vec<(bet::Model, round::Model)>, DbErr> {
    let rows = bet::Entity::find()
        .find_also_related(round::Entity)
        .order_by_desc(bet::Column::Id)
        .limit(limit)
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(bet, round)| Some((bet, round?)))
        .collect())
}
