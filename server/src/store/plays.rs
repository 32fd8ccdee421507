//! Settling a batch of plays in one transaction (the group commit of `service::play_writer`):
//! the batch's rounds and their wallets read (the wallets locked in address order), the rounds
//! spent by one conditional update, then the wallets written by one conditional update and the
//! bets and their ledger rows inserted as multi-row inserts, each batch's rows sent as one JSON
//! array per statement (the statements' text is fixed: `play_sql.rs`). On SQLite, whose
//! statements each cost a hop to the connection's own thread, the reads are one statement;
//! PostgreSQL reads the rounds, then locks their wallets. On both the writes are one round trip.
//! Every balance change keeps its ledger row; nothing here decides who wins or who may play.

use sea_orm::{ActiveEnum, ConnectionTrait, DbBackend, DbErr, FromQueryResult, Statement};

use super::entities::bet;
use super::entities::ledger::LedgerKind;
use super::entities::round;
use super::play_sql;

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
    let backend = db.get_database_backend();
    if backend == DbBackend::Sqlite {
        return read_batch_in_one(db, ids).await;
    }
    let sql = play_sql::for_backend(backend);
    let rounds = round::Model::find_by_statement(statement(backend, &sql.read, [json(ids)?]))
        .all(db)
        .await?;
    let mut addresses: Vec<&str> = rounds.iter().map(|r| &*r.address).collect();
    addresses.sort_unstable();
    addresses.dedup();
    let locked = statement(backend, &sql.lock_wallets, [json(&addresses)?]);
    let wallets = WalletRow::find_by_statement(locked)
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

#[derive(Debug, FromQueryResult)]
struct WalletRow {
    address: String,
    chips: i64,
    net_day: i64,
    net_today: i64,
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
    let backend = DbBackend::Sqlite;
    let sql = &play_sql::for_backend(backend).read;
    let rows = db
        .query_all_raw(statement(backend, sql, [json(ids)?]))
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
/// rounds are written with their balances (`write_batch`).
pub async fn spend(
    db: &impl ConnectionTrait,
    ids: &[&str],
    now: i64,
    opened_after: i64,
) -> Result<Vec<String>, DbErr> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let backend = db.get_database_backend();
    let sql = &play_sql::for_backend(backend).spend;
    let values = [now.into(), json(ids)?, opened_after.into()];
    let spent = SpentRound::find_by_statement(statement(backend, sql, values))
        .all(db)
        .await?;
    Ok(spent.into_iter().map(|round| round.id).collect())
}

#[derive(Debug, FromQueryResult)]
struct SpentRound {
    id: String,
}

/// Opens again rounds this transaction spent but whose play was refused (a short balance,
/// the daily cap): as if they had not been touched.
pub async fn unspend(db: &impl ConnectionTrait, ids: &[&str]) -> Result<(), DbErr> {
    if ids.is_empty() {
        return Ok(());
    }
    let backend = db.get_database_backend();
    let sql = &play_sql::for_backend(backend).unspend;
    db.execute_raw(statement(backend, sql, [json(ids)?]))
        .await?;
    Ok(())
}

/// `sql` (a fixed text of `play_sql`) with its values.
fn statement<const N: usize>(
    backend: DbBackend,
    sql: &str,
    values: [sea_orm::Value; N],
) -> Statement {
    Statement::from_sql_and_values(backend, sql, values)
}

/// `rows` as one JSON text, the value a `play_sql` statement reads them from.
fn json(rows: &(impl serde::Serialize + ?Sized)) -> Result<sea_orm::Value, DbErr> {
    serde_json::to_string(rows)
        .map(sea_orm::Value::from)
        .map_err(|e| DbErr::Custom(e.to_string()))
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
/// multi-row inserts, the three in one round trip (`play_sql::PlaySql::writes`). Whether every
/// wallet was written (if not, the caller rolls the batch back).
pub async fn write_batch(
    db: &impl ConnectionTrait,
    wallets: &[WalletAfter],
    bets: &[bet::Model],
    ledger_rows: &[LedgerRow],
) -> Result<bool, DbErr> {
    if wallets.is_empty() && bets.is_empty() && ledger_rows.is_empty() {
        return Ok(true);
    }
    let backend = db.get_database_backend();
    let expected = wallets.len() + bets.len() + ledger_rows.len();
    // Each row in the order `play_sql` lists its columns.
    let wallets: Vec<_> = wallets
        .iter()
        .map(|w| {
            (
                &w.address,
                w.chips_before,
                w.chips,
                w.net_day,
                w.net_today,
                w.rounds_spent,
            )
        })
        .collect();
    let bets: Vec<_> = bets.iter().map(bet_row).collect();
    let ledger_rows: Vec<_> = ledger_rows
        .iter()
        .map(|r| {
            (
                &r.address,
                r.kind.to_value(),
                r.delta,
                r.balance_after,
                &r.reference,
                r.at,
            )
        })
        .collect();
    let rows = [json(&wallets)?, json(&bets)?, json(&ledger_rows)?];
    let writes = statement(backend, &play_sql::for_backend(backend).writes, rows);
    let written = if backend == DbBackend::Sqlite {
        db.execute_raw(writes).await?.rows_affected()
    } else {
        let counted = db.query_one_raw(writes).await?;
        let written: i64 = counted.map_or(Ok(0), |row| row.try_get("", "written"))?;
        u64::try_from(written).unwrap_or_default()
    };
    Ok(written == expected as u64)
}

/// A bet as the JSON row `play_sql::BET_ROW` reads.
#[allow(clippy::type_complexity)]
fn bet_row(
    bet: &bet::Model,
) -> (
    i64,
    &str,
    &str,
    &str,
    &str,
    i64,
    i64,
    &str,
    &str,
    bool,
    i64,
    i64,
    i64,
    Option<&str>,
) {
    (
        bet.id,
        &bet.round_id,
        &bet.address,
        &bet.game,
        &bet.client_seed,
        bet.nonce,
        bet.wager,
        &bet.params,
        &bet.result,
        bet.won,
        bet.payout,
        bet.profit,
        bet.settled_at,
        bet.receipt_signature.as_deref(),
    )
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
