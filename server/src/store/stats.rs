//! Aggregates for the public statistics.

use std::collections::HashSet;

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter, QuerySelect};

use super::Db;
use super::entities::bet;
use super::entities::cashout::{self, CashoutStatus};

/// Whose rounds to count.
#[derive(Debug, Clone, Copy)]
pub enum Scope<'a> {
    All,
    /// Only these addresses' (database keys).
    Of(&'a HashSet<String>),
    /// Everyone but these addresses.
    AllBut(&'a HashSet<String>),
}

/// Per game: `(game, rounds, wagered, paid_out)`.
pub async fn totals_by_game(
    db: &Db,
    scope: Scope<'_>,
) -> Result<Vec<(String, i64, i64, i64)>, DbErr> {
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
        .group_by(bet::Column::Game);
    query = match scope {
        Scope::All => query,
        Scope::Of(addresses) => query.filter(bet::Column::Address.is_in(addresses.iter().cloned())),
        Scope::AllBut(addresses) => {
            query.filter(bet::Column::Address.is_not_in(addresses.iter().cloned()))
        }
    };
    query.into_tuple().all(db).await
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
