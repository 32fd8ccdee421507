//! Settling a batch of plays in one transaction (the group commit of `service::play_writer`):
//! the batch's rounds spent by one conditional update that returns them with their wallets (on
//! PostgreSQL locked in address order), then the wallets written by one conditional update and
//! the bets and their ledger rows inserted as multi-row inserts, in one round trip. Each batch's
//! rows go as one JSON array per statement (the statements' text is fixed: `play_sql.rs`), so a
//! batch is four round trips: begin, spend, writes, commit (and one more to open again the
//! rounds of plays the rules refused). Every balance change keeps its ledger row; nothing here
//! decides who wins or who may play.

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

/// The rounds a batch spent, their wallets, and where its bets' ids come from.
#[derive(Debug)]
pub struct BatchSpent {
    /// The rounds among the batch's ids this batch spent: found, open, not expired and opened
    /// after the limit (each once, however often its id was queued).
    pub rounds: Vec<round::Model>,
    /// The wallets of those rounds, one per address, in address order.
    pub wallets: Vec<WalletRead>,
    bet_ids: BetIds,
}

/// Where a batch's bet ids come from.
#[derive(Debug)]
enum BetIds {
    /// SQLite: past the largest, read inside its one writer's transaction (the primary key
    /// refusing any overlap).
    After(i64),
    /// PostgreSQL: one id of the table's sequence per spent round, taken by the statement that
    /// spent them (ids of plays refused afterwards stay unused, as a rolled-back insert's do).
    Reserved(Vec<i64>),
}

impl BatchSpent {
    /// `count` bet ids (at most one per spent round), in order, so receipts can be signed
    /// before their rows are written.
    pub fn bet_ids(&self, count: usize) -> Result<Vec<i64>, DbErr> {
        match &self.bet_ids {
            BetIds::After(largest) => {
                let count = i64::try_from(count).map_err(|e| DbErr::Custom(e.to_string()))?;
                Ok((1..=count).map(|offset| largest + offset).collect())
            }
            BetIds::Reserved(ids) if count <= ids.len() => Ok(ids[..count].to_vec()),
            BetIds::Reserved(ids) => Err(DbErr::Custom(format!(
                "{count} bet ids wanted, {} reserved",
                ids.len()
            ))),
        }
    }
}

/// Spends the open rounds among `ids` (not expired, opened after `opened_after`) at `now` and
/// reads their wallets, in one statement. On PostgreSQL it also locks the wallets `FOR UPDATE`
/// in address order (the order every batch takes them in, so two instances' batches queue
/// instead of deadlocking) and takes the bets' ids; SQLite's one writer holds the database. The
/// wallets' counts of open rounds are written with their balances (`write_batch`).
pub async fn spend_batch(
    db: &impl ConnectionTrait,
    ids: &[&str],
    now: i64,
    opened_after: i64,
) -> Result<BatchSpent, DbErr> {
    let backend = db.get_database_backend();
    let mut batch = BatchSpent {
        rounds: Vec::with_capacity(ids.len()),
        wallets: Vec::new(),
        bet_ids: BetIds::Reserved(Vec::new()),
    };
    if ids.is_empty() {
        return Ok(batch);
    }
    let sql = &play_sql::for_backend(backend).spend;
    let values = [now.into(), json(ids)?, opened_after.into()];
    let rows = db.query_all_raw(statement(backend, sql, values)).await?;
    let mut reserved = Vec::new();
    for row in rows {
        let round = round::Model::from_query_result(&row, "")?;
        if backend == DbBackend::Sqlite {
            batch.bet_ids = BetIds::After(row.try_get("", "largest_bet")?);
        } else {
            reserved.push(row.try_get("", "reserved_bet")?);
        }
        if let Some(chips) = row.try_get::<Option<i64>>("", "wallet_chips")? {
            batch.wallets.push(WalletRead {
                address: round.address.clone(),
                chips,
                net_day: row.try_get("", "wallet_net_day")?,
                net_today: row.try_get("", "wallet_net_today")?,
            });
        }
        batch.rounds.push(round);
    }
    if backend != DbBackend::Sqlite {
        reserved.sort_unstable();
        batch.bet_ids = BetIds::Reserved(reserved);
    }
    batch
        .wallets
        .sort_unstable_by(|a, b| a.address.cmp(&b.address));
    batch.wallets.dedup_by(|a, b| a.address == b.address);
    Ok(batch)
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
    &str,
    i64,
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
        &bet.commitment,
        bet.committed_at,
    )
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
