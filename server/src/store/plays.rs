//! Settling a batch of plays in one transaction (the group commit of `service::play_writer`):
//! the batch's rounds and their wallets read (the wallets locked in address order), the rounds
//! spent by one conditional update, then the wallets written by one conditional update and the
//! bets and their ledger rows inserted as multi-row inserts. On SQLite, whose statements each
//! cost a hop to the connection's own thread, the reads are one statement and the writes are
//! one; PostgreSQL takes them one by one. Every balance change keeps its ledger row; nothing
//! here decides who wins or who may play.

use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbBackend, DbErr, EntityTrait, FromQueryResult,
    QueryFilter, QueryOrder, QuerySelect, QueryTrait, Statement,
};

use super::entities::ledger::{self, LedgerKind};
use super::entities::round::{self, RoundState};
use super::entities::{bet, wallet};
use super::ledger::Entry;

/// A wallet as a batch reads it: the balance and the day's net the plays are settled against.
#[derive(Debug, Clone)]
pub struct WalletRead {
    pub address: String,
    pub chips: i64,
    pub net_day: i64,
    pub net_today: i64,
}

/// What a batch reads before it settles.
#[derive(Debug)]
pub struct BatchRead {
    /// The rounds among the batch's ids (missing ids are simply absent).
    pub rounds: Vec<round::Model>,
    /// The wallets of those rounds, one per address.
    pub wallets: Vec<WalletRead>,
    /// SQLite: the largest bet id, read with the rounds (bet ids follow it; see
    /// `reserve_bet_ids`).
    largest_bet: Option<i64>,
}

/// The rounds among `ids` and their wallets. PostgreSQL locks the wallets `FOR UPDATE` in
/// address order, the order every batch takes them in, so two instances' batches queue instead
/// of deadlocking; SQLite has one writer, and reads it all in one statement.
pub async fn read_batch(db: &impl ConnectionTrait, ids: &[&str]) -> Result<BatchRead, DbErr> {
    if db.get_database_backend() == DbBackend::Sqlite {
        return read_batch_in_one(db, ids).await;
    }
    let rounds = round::Entity::find()
        .filter(round::Column::Id.is_in(ids.iter().copied()))
        .all(db)
        .await?;
    let mut addresses: Vec<&str> = rounds.iter().map(|r| &*r.address).collect();
    addresses.sort_unstable();
    addresses.dedup();
    let wallets = wallet::Entity::find()
        .filter(wallet::Column::Address.is_in(addresses))
        .order_by_asc(wallet::Column::Address)
        .lock_exclusive()
        .all(db)
        .await?
        .into_iter()
        .map(|w| WalletRead {
            address: w.address,
            chips: w.chips,
            net_day: w.net_day,
            net_today: w.net_today,
        })
        .collect();
    Ok(BatchRead {
        rounds,
        wallets,
        largest_bet: None,
    })
}

/// SQLite: the rounds, their wallets and the largest bet id in one statement.
async fn read_batch_in_one(db: &impl ConnectionTrait, ids: &[&str]) -> Result<BatchRead, DbErr> {
    let mut read = BatchRead {
        rounds: Vec::with_capacity(ids.len()),
        wallets: Vec::new(),
        largest_bet: None,
    };
    if ids.is_empty() {
        return Ok(read);
    }
    let marks = vec!["?"; ids.len()].join(", ");
    let sql = format!(
        "SELECT rounds.*, wallets.chips AS wallet_chips, wallets.net_day AS wallet_net_day, \
         wallets.net_today AS wallet_net_today, \
         (SELECT COALESCE(MAX(id), 0) FROM bets) AS largest_bet \
         FROM rounds LEFT JOIN wallets ON wallets.address = rounds.address \
         WHERE rounds.id IN ({marks})"
    );
    let values = ids.iter().map(|id| sea_orm::Value::from(*id));
    let rows = db
        .query_all_raw(Statement::from_sql_and_values(
            DbBackend::Sqlite,
            sql,
            values,
        ))
        .await?;
    for row in rows {
        let round = round::Model::from_query_result(&row, "")?;
        read.largest_bet = Some(row.try_get("", "largest_bet")?);
        if let Some(chips) = row.try_get::<Option<i64>>("", "wallet_chips")? {
            read.wallets.push(WalletRead {
                address: round.address.clone(),
                chips,
                net_day: row.try_get("", "wallet_net_day")?,
                net_today: row.try_get("", "wallet_net_today")?,
            });
        }
        read.rounds.push(round);
    }
    read.wallets
        .sort_unstable_by(|a, b| a.address.cmp(&b.address));
    read.wallets.dedup_by(|a, b| a.address == b.address);
    Ok(read)
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

/// Writes a batch's results: every wallet in one statement, each only if its balance is still
/// the one read, then the bets (ids reserved, receipts signed) and their ledger rows as
/// multi-row inserts; on SQLite the three go as one statement list, in one hop. Whether every
/// wallet was written (if not, the caller rolls the batch back).
pub async fn write_batch(
    db: &impl ConnectionTrait,
    wallets: &[WalletAfter],
    bets: Vec<bet::Model>,
    ledger_rows: Vec<LedgerRow>,
) -> Result<bool, DbErr> {
    let backend = db.get_database_backend();
    let expected = wallets.len() + bets.len() + ledger_rows.len();
    let statements: Vec<Statement> = [
        wallets_update(backend, wallets),
        bets_insert(backend, bets),
        ledger_insert(backend, &ledger_rows),
    ]
    .into_iter()
    .flatten()
    .collect();
    let written = if backend == DbBackend::Sqlite {
        match one_statement_list(statements) {
            Some(all) => db.execute_raw(all).await?.rows_affected(),
            None => 0,
        }
    } else {
        let mut written = 0;
        for statement in statements {
            written += db.execute_raw(statement).await?.rows_affected();
        }
        written
    };
    Ok(written == expected as u64)
}

/// SQLite: statements joined into one list, their `?` values in order (SQLite binds a list's
/// unnumbered parameters statement after statement).
fn one_statement_list(statements: Vec<Statement>) -> Option<Statement> {
    let mut sql = Vec::with_capacity(statements.len());
    let mut values = Vec::new();
    for statement in statements {
        sql.push(statement.sql);
        values.extend(statement.values.map(|v| v.0).unwrap_or_default());
    }
    (!sql.is_empty())
        .then(|| Statement::from_sql_and_values(DbBackend::Sqlite, sql.join(";\n"), values))
}

/// Every wallet's batch result in one conditional update.
fn wallets_update(backend: DbBackend, wallets: &[WalletAfter]) -> Option<Statement> {
    if wallets.is_empty() {
        return None;
    }
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
    Some(Statement::from_sql_and_values(backend, sql, values))
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
/// (PostgreSQL: the table's own sequence; SQLite: past the largest, which `read` holds, inside
/// its one writer's transaction, the primary key refusing any overlap).
pub async fn reserve_bet_ids(
    db: &impl ConnectionTrait,
    count: usize,
    read: &BatchRead,
) -> Result<Vec<i64>, DbErr> {
    let count = i64::try_from(count).map_err(|e| DbErr::Custom(e.to_string()))?;
    if let Some(largest) = read.largest_bet {
        return Ok((1..=count).map(|offset| largest + offset).collect());
    }
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

/// Settled bets (ids reserved, receipts signed) in one insert.
fn bets_insert(backend: DbBackend, bets: Vec<bet::Model>) -> Option<Statement> {
    if bets.is_empty() {
        return None;
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
    Some(bet::Entity::insert_many(rows).build(backend))
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

/// Ledger rows, in order, in one insert.
fn ledger_insert(backend: DbBackend, rows: &[LedgerRow]) -> Option<Statement> {
    if rows.is_empty() {
        return None;
    }
    let rows = rows.iter().map(|row| {
        let entry = Entry {
            kind: row.kind,
            reference: &row.reference,
            at: row.at,
        };
        super::ledger::row(&row.address, row.delta, row.balance_after, entry)
    });
    Some(ledger::Entity::insert_many(rows).build(backend))
}
