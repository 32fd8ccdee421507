//! Settling a batch of plays in one transaction (the group commit of `service::group_commit`):
//! the batch's rounds spent by one conditional update that returns them with their wallets (on
//! PostgreSQL locked in address order), then the wallets written by one conditional update and
//! the bets and their ledger rows inserted as multi-row inserts, in one round trip. Each batch's
//! rows go as one JSON array per statement (the statements' text is fixed: `play_sql.rs`), so a
//! batch is four round trips: begin, spend, writes, commit (and one more to open again the
//! rounds of plays the rules refused). Every balance change keeps its ledger row; nothing here
//! decides who wins or who may play.

use sea_orm::{ActiveEnum, ConnectionTrait, DbBackend, DbErr, FromQueryResult, Statement};
use serde::ser::{Serialize, SerializeTuple, Serializer};

use super::entities::bet;
use super::entities::ledger::LedgerKind;
use super::entities::round;
use super::play_sql;

/// A wallet as a batch reads it: the balance, its free pocket and the day's net the plays are
/// settled against.
#[derive(Debug, Clone)]
pub struct WalletRead {
    pub address: String,
    pub chips: i64,
    pub free_chips: i64,
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
                free_chips: row.try_get("", "wallet_free_chips")?,
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

/// A wallet's state after a batch: balance and free pocket, the day's net, the rounds it spent
/// and the successors its plays opened.
#[derive(Debug, Clone)]
pub struct WalletAfter {
    pub address: String,
    /// The balance the batch read (the update happens only if it and `free_before` still hold).
    pub chips_before: i64,
    pub chips: i64,
    /// The free pocket the batch read.
    pub free_before: i64,
    pub free_chips: i64,
    pub net_day: i64,
    pub net_today: i64,
    pub rounds_spent: i64,
    /// Rounds opened by its plays (`next_round`), each in the place of the one its play spent.
    pub rounds_opened: i64,
}

/// Writes a batch's results: every wallet in one statement, each only if its balance and free
/// pocket are still the ones read, then the bets (ids reserved, receipts signed) and their ledger rows as
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
                w.free_before,
                w.free_chips,
                w.net_day,
                w.net_today,
                w.rounds_spent,
                w.rounds_opened,
            )
        })
        .collect();
    let bets: Vec<_> = bets.iter().map(BetRow).collect();
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
                r.free_delta,
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

/// A bet as the JSON row `play_sql::BET_ROW` reads, its fields in that order.
struct BetRow<'a>(&'a bet::Model);

impl Serialize for BetRow<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let bet = self.0;
        let mut row = serializer.serialize_tuple(play_sql::BET_ROW.len())?;
        row.serialize_element(&bet.id)?;
        row.serialize_element(&bet.round_id)?;
        row.serialize_element(&bet.address)?;
        row.serialize_element(&bet.game)?;
        row.serialize_element(&bet.client_seed)?;
        row.serialize_element(&bet.nonce)?;
        row.serialize_element(&bet.wager)?;
        row.serialize_element(&bet.params)?;
        row.serialize_element(&bet.result)?;
        row.serialize_element(&bet.won)?;
        row.serialize_element(&bet.payout)?;
        row.serialize_element(&bet.profit)?;
        row.serialize_element(&bet.settled_at)?;
        row.serialize_element(&bet.receipt_signature)?;
        row.serialize_element(&bet.commitment)?;
        row.serialize_element(&bet.committed_at)?;
        row.serialize_element(&bet.free_wagered)?;
        row.serialize_element(&bet.free_paid)?;
        row.serialize_element(&bet.house_agent)?;
        row.serialize_element(&bet.play_signature)?;
        row.end()
    }
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
    /// The free pocket's part of `delta`.
    pub free_delta: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field of a bet lands in the column `play_sql::BET_ROW` names at its place.
    #[test]
    fn a_bet_row_lists_its_fields_in_the_order_of_the_columns() {
        let bet = bet::Model {
            id: 1,
            round_id: "r".into(),
            address: "a".into(),
            game: bet::BetGame(arcade_core::Game::Coinflip),
            client_seed: "c".into(),
            nonce: 2,
            wager: 3,
            params: "p".into(),
            result: "o".into(),
            won: true,
            payout: 5,
            profit: 2,
            settled_at: 6,
            receipt_signature: Some("s".into()),
            commitment: "m".into(),
            committed_at: 7,
            free_wagered: 8,
            free_paid: 4,
            house_agent: Some(true),
            play_signature: Some("q".into()),
        };
        let expected = serde_json::json!({
            "id": 1, "round_id": "r", "address": "a", "game": "coinflip", "client_seed": "c",
            "nonce": 2, "wager": 3, "params": "p", "result": "o", "won": true, "payout": 5,
            "profit": 2, "settled_at": 6, "receipt_signature": "s", "commitment": "m",
            "committed_at": 7, "free_wagered": 8, "free_paid": 4, "house_agent": true,
            "play_signature": "q",
        });
        let row = serde_json::to_value(BetRow(&bet)).unwrap();
        let row = row.as_array().unwrap();
        assert_eq!(row.len(), play_sql::BET_ROW.len());
        for ((name, _), value) in play_sql::BET_ROW.iter().zip(row) {
            assert_eq!(&expected[*name], value, "{name}");
        }
    }
}
