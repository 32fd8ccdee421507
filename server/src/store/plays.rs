//! Settling a batch of plays in one transaction (the group commit of `service::settler`): the
//! batch's rounds read in one statement, its wallets locked in address order, the rounds spent
//! by one conditional update, the wallets written by one conditional update, and the bets
//! and their ledger rows inserted as multi-row inserts. Every balance change keeps its ledger
//! row; nothing here decides who wins or who may play.

use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbBackend, DbErr, EntityTrait, FromQueryResult,
    QueryFilter, QueryOrder, QuerySelect, Statement,
};

use super::entities::ledger::{self, LedgerKind};
use super::entities::round::{self, RoundState};
use super::entities::{bet, wallet};
use super::ledger::Entry;

/// The rounds among `ids` (any order; missing ids are simply absent).
pub async fn rounds(db: &impl ConnectionTrait, ids: &[&str]) -> Result<Vec<round::Model>, DbErr> {
    round::Entity::find()
        .filter(round::Column::Id.is_in(ids.iter().copied()))
        .all(db)
        .await
}

/// The wallets of `addresses`, locked until the transaction ends (on PostgreSQL, `FOR UPDATE`
/// in address order, the order every batch takes them in, so two instances' batches queue
/// instead of deadlocking; SQLite has one writer).
pub async fn lock_wallets(
    db: &impl ConnectionTrait,
    addresses: &[&str],
) -> Result<Vec<wallet::Model>, DbErr> {
    wallet::Entity::find()
        .filter(wallet::Column::Address.is_in(addresses.iter().copied()))
        .order_by_asc(wallet::Column::Address)
        .lock_exclusive()
        .all(db)
        .await
}

/// Open, not expired and opened after `opened_after` → spent; the ids it spent (a round
/// another play or the upkeep got to first is not among them). The wallets' counts of open
/// rounds are written with their balances (`write_wallet`).
pub async fn spend(
    db: &impl ConnectionTrait,
    ids: &[&str],
    now: i64,
    opened_after: i64,
) -> Result<Vec<String>, DbErr> {
    let spent = round::Entity::update_many()
        .col_expr(round::Column::State, Expr::value(RoundState::Spent))
        .col_expr(round::Column::SpentAt, Expr::value(now))
        .filter(round::Column::Id.is_in(ids.iter().copied()))
        .filter(round::Column::State.eq(RoundState::Open))
        .filter(round::Column::ExpiredAt.is_null())
        .filter(round::Column::CreatedAt.gt(opened_after))
        .exec_with_returning(db)
        .await?;
    Ok(spent.into_iter().map(|round| round.id).collect())
}

/// Opens again rounds this transaction spent but whose play was refused (a short balance,
/// the daily cap): as if they had not been touched.
pub async fn unspend(db: &impl ConnectionTrait, ids: &[&str]) -> Result<(), DbErr> {
    if ids.is_empty() {
        return Ok(());
    }
    round::Entity::update_many()
        .col_expr(round::Column::State, Expr::value(RoundState::Open))
        .col_expr(round::Column::SpentAt, Expr::value(Option::<i64>::None))
        .filter(round::Column::Id.is_in(ids.iter().copied()))
        .filter(round::Column::State.eq(RoundState::Spent))
        .exec(db)
        .await?;
    Ok(())
}

/// A wallet's state after a batch: balance, the day's net, and the rounds it spent.
#[derive(Debug, Clone)]
pub struct WalletAfter {
    pub address: String,
    /// The balance the batch read (the update happens only if it still holds).
    pub chips_before: i64,
    pub chips: i64,
    pub net_day: i64,
    pub net_today: i64,
    pub rounds_spent: i64,
}

/// Writes every wallet's batch result in one statement, each only if its balance is still
/// the one read; whether all of them were (if not, the caller rolls the batch back).
pub async fn write_wallets(
    db: &impl ConnectionTrait,
    wallets: &[WalletAfter],
) -> Result<bool, DbErr> {
    if wallets.is_empty() {
        return Ok(true);
    }
    let backend = db.get_database_backend();
    let mut values: Vec<sea_orm::Value> = Vec::with_capacity(wallets.len() * 6);
    let mut rows = Vec::with_capacity(wallets.len());
    for after in wallets {
        let first = values.len();
        values.extend([
            after.address.clone().into(),
            after.chips_before.into(),
            after.chips.into(),
            after.net_day.into(),
            after.net_today.into(),
            after.rounds_spent.into(),
        ]);
        let row: Vec<String> = (first + 1..=values.len())
            .map(|n| placeholder(backend, n))
            .collect();
        rows.push(format!("({})", row.join(", ")));
    }
    let sql = format!(
        "WITH batch (address, chips_before, chips, net_day, net_today, rounds_spent) AS \
         (VALUES {}) \
         UPDATE wallets SET chips = batch.chips, net_day = batch.net_day, \
         net_today = batch.net_today, open_rounds = wallets.open_rounds - batch.rounds_spent \
         FROM batch \
         WHERE wallets.address = batch.address AND wallets.chips = batch.chips_before",
        rows.join(", ")
    );
    let updated = db
        .execute_raw(Statement::from_sql_and_values(backend, sql, values))
        .await?;
    Ok(updated.rows_affected() == wallets.len() as u64)
}

/// The `n`th bound value's placeholder (from 1).
fn placeholder(backend: DbBackend, n: usize) -> String {
    match backend {
        DbBackend::Postgres => format!("${n}"),
        _ => "?".to_owned(),
    }
}

#[derive(Debug, FromQueryResult)]
struct ReservedId {
    id: i64,
}

/// `count` new bet ids, in order, so receipts can be signed before their rows are written
/// (PostgreSQL: the table's own sequence; SQLite: past the largest, inside its one writer's
/// transaction, the primary key refusing any overlap).
pub async fn reserve_bet_ids(db: &impl ConnectionTrait, count: usize) -> Result<Vec<i64>, DbErr> {
    let count = i64::try_from(count).map_err(|e| DbErr::Custom(e.to_string()))?;
    let backend = db.get_database_backend();
    if backend == DbBackend::Postgres {
        let sql = "SELECT nextval(pg_get_serial_sequence('bets', 'id')) AS id \
                   FROM generate_series(1, $1) ORDER BY 1";
        let rows = ReservedId::find_by_statement(Statement::from_sql_and_values(
            backend,
            sql,
            [count.into()],
        ))
        .all(db)
        .await?;
        return Ok(rows.into_iter().map(|row| row.id).collect());
    }
    let sql = "SELECT COALESCE(MAX(id), 0) AS id FROM bets";
    let largest = ReservedId::find_by_statement(Statement::from_string(backend, sql))
        .one(db)
        .await?
        .map_or(0, |row| row.id);
    Ok((1..=count).map(|offset| largest + offset).collect())
}

/// Inserts settled bets (ids reserved, receipts signed) in one statement.
pub async fn insert_bets(db: &impl ConnectionTrait, bets: Vec<bet::Model>) -> Result<(), DbErr> {
    if bets.is_empty() {
        return Ok(());
    }
    let rows = bets.into_iter().map(|bet| bet::ActiveModel {
        id: Set(bet.id),
        round_id: Set(bet.round_id),
        address: Set(bet.address),
        game: Set(bet.game),
        client_seed: Set(bet.client_seed),
        nonce: Set(bet.nonce),
        wager: Set(bet.wager),
        params: Set(bet.params),
        result: Set(bet.result),
        won: Set(bet.won),
        payout: Set(bet.payout),
        profit: Set(bet.profit),
        settled_at: Set(bet.settled_at),
        receipt_signature: Set(bet.receipt_signature),
    });
    bet::Entity::insert_many(rows)
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// A ledger row to write: the balance change and the balance after it.
#[derive(Debug, Clone)]
pub struct LedgerRow {
    pub address: String,
    pub kind: LedgerKind,
    pub delta: i64,
    pub balance_after: i64,
    pub reference: String,
    pub at: i64,
}

/// Inserts ledger rows, in order, in one statement.
pub async fn insert_ledger(db: &impl ConnectionTrait, rows: Vec<LedgerRow>) -> Result<(), DbErr> {
    if rows.is_empty() {
        return Ok(());
    }
    let rows = rows.iter().map(|row| {
        let entry = Entry {
            kind: row.kind,
            reference: &row.reference,
            at: row.at,
        };
        super::ledger::row(&row.address, row.delta, row.balance_after, entry)
    });
    ledger::Entity::insert_many(rows)
        .exec_without_returning(db)
        .await?;
    Ok(())
}
