//! The SQL of a batch of plays (`plays.rs`): one fixed text per statement and backend. A
//! batch's round ids and its rows travel as one JSON array each, so every batch, whatever its
//! size, runs the same prepared statements; a text per batch size would be parsed and planned
//! again and again. SQLite reads the arrays with `json_each` and `jsonb_each`, PostgreSQL with
//! `jsonb_array_elements`.

use std::sync::LazyLock;

use sea_orm::DbBackend;

/// How a column is read from its place in a JSON row.
#[derive(Debug, Clone, Copy)]
pub enum Column {
    Text,
    Integer,
    Boolean,
}

/// The columns of a wallet's row in a batch's update, in the order `plays.rs` writes them.
pub const WALLET_ROW: &[(&str, Column)] = &[
    ("address", Column::Text),
    ("chips_before", Column::Integer),
    ("chips", Column::Integer),
    ("free_before", Column::Integer),
    ("free_chips", Column::Integer),
    ("net_day", Column::Integer),
    ("net_today", Column::Integer),
    ("rounds_spent", Column::Integer),
    ("rounds_opened", Column::Integer),
];

/// The columns of a bet row, in the order `plays.rs` writes them.
pub const BET_ROW: &[(&str, Column)] = &[
    ("id", Column::Integer),
    ("round_id", Column::Text),
    ("address", Column::Text),
    ("game", Column::Text),
    ("client_seed", Column::Text),
    ("nonce", Column::Integer),
    ("wager", Column::Integer),
    ("params", Column::Text),
    ("result", Column::Text),
    ("won", Column::Boolean),
    ("payout", Column::Integer),
    ("profit", Column::Integer),
    ("settled_at", Column::Integer),
    ("receipt_signature", Column::Text),
    ("commitment", Column::Text),
    ("committed_at", Column::Integer),
    ("free_wagered", Column::Integer),
    ("free_paid", Column::Integer),
    ("house_agent", Column::Boolean),
    ("play_signature", Column::Text),
];

/// The columns of a ledger row, in the order `plays.rs` writes them.
pub const LEDGER_ROW: &[(&str, Column)] = &[
    ("address", Column::Text),
    ("kind", Column::Text),
    ("delta", Column::Integer),
    ("balance_after", Column::Integer),
    ("reference", Column::Text),
    ("created_at", Column::Integer),
    ("free_delta", Column::Integer),
];

/// A batch's statements on one backend. `$n` is the nth bound value (SQLite numbers them the
/// same way, across the statements of a list too).
pub struct PlaySql {
    /// The rounds of the ids in `$2` still open, not expired and opened after `$3`, spent at
    /// `$1`, each returned with its wallet's balance, free pocket and the day's net
    /// (`wallet_chips`, `wallet_free_chips`, `wallet_net_day`, `wallet_net_today`; null if it
    /// has none), and where the bets' ids come from: on SQLite the largest bet id
    /// (`largest_bet`); on PostgreSQL a new id of the bets' sequence per round
    /// (`reserved_bet`), the wallets locked `FOR UPDATE` in address order.
    pub spend: String,
    /// The rounds of the ids in `$1` opened again.
    pub unspend: String,
    /// The wallets, bets and ledger rows of the JSON arrays in `$1`, `$2` and `$3`, in one
    /// round trip: on SQLite a list of three statements (their counts of rows add up); on
    /// PostgreSQL one statement of three steps, answering the rows written as `written`.
    pub writes: String,
}

pub fn for_backend(backend: DbBackend) -> &'static PlaySql {
    static SQLITE: LazyLock<PlaySql> = LazyLock::new(|| PlaySql::new(DbBackend::Sqlite));
    static POSTGRES: LazyLock<PlaySql> = LazyLock::new(|| PlaySql::new(DbBackend::Postgres));
    match backend {
        DbBackend::Postgres => &POSTGRES,
        _ => &SQLITE,
    }
}

impl PlaySql {
    fn new(backend: DbBackend) -> Self {
        Self {
            spend: spend(backend),
            unspend: format!(
                "{} rounds SET state = 'open', spent_at = NULL WHERE id {} AND state = 'spent'",
                update(backend),
                among(backend, 1)
            ),
            writes: writes(backend),
        }
    }
}

/// The verb of a batch's updates.
fn update(backend: DbBackend) -> &'static str {
    // SQLite copies every page a statement that updates several rows touches to a statement
    // journal, in case a constraint aborts it halfway and it must be undone alone. A batch's
    // statements fail or commit together (an error rolls the whole transaction back), so on
    // SQLite its updates stop where they fail (`OR FAIL`, which needs no undo). Its inserts
    // keep the journal: a foreign key checked per statement needs it whatever the clause.
    if backend == DbBackend::Sqlite {
        "UPDATE OR FAIL"
    } else {
        "UPDATE"
    }
}

/// [`PlaySql::spend`].
fn spend(backend: DbBackend) -> String {
    // Both planners match these conditions to the partial index of open rounds
    // (`rounds_open_by_age`), and with statistics taken while few rounds were open they
    // plan the batch as a scan of every open round filtered by the batch's ids: a batch then
    // costs in proportion to the rounds open (on PostgreSQL 2.8 ms at 6,000). Inside a CASE
    // they match no index, so the rounds are looked up by their ids whatever the statistics.
    let still_open = "CASE WHEN state = 'open' AND expired_at IS NULL AND created_at > $3 \
                      THEN true ELSE false END";
    let spend_rounds = format!(
        "{} rounds SET state = 'spent', spent_at = $1 WHERE id {} AND {still_open}",
        update(backend),
        among(backend, 2)
    );
    if backend == DbBackend::Sqlite {
        // One writer holds the database: the rows returned read their wallets and the
        // largest bet id by subqueries.
        let wallet = |column: &str| {
            format!(
                "(SELECT {column} FROM wallets WHERE wallets.address = rounds.address) \
                 AS wallet_{column}"
            )
        };
        format!(
            "{spend_rounds} RETURNING *, {}, {}, {}, {}, \
             (SELECT COALESCE(MAX(id), 0) FROM bets) AS largest_bet",
            wallet("chips"),
            wallet("free_chips"),
            wallet("net_day"),
            wallet("net_today")
        )
    } else {
        // The wallets are locked by a step of their own, sorted before its rows are locked,
        // and materialized so that it runs once, whole, whatever plan joins it. The step
        // that deletes nothing from `bets` takes the table's ROW EXCLUSIVE lock before any id
        // is taken, as an insert would: the floor's fold (`stats::settled_up_to`) waits for
        // it with a SHARE lock, so it never reads past ids this batch holds but has not
        // written yet (writers' locks do not conflict with each other).
        format!(
            "WITH holding_ids AS (DELETE FROM bets WHERE false), \
             spent AS ({spend_rounds} RETURNING *), \
             locked AS MATERIALIZED (SELECT address, chips, free_chips, net_day, net_today \
             FROM wallets WHERE address = ANY (ARRAY(SELECT address FROM spent)) \
             ORDER BY address FOR UPDATE) \
             SELECT spent.*, locked.chips AS wallet_chips, \
             locked.free_chips AS wallet_free_chips, locked.net_day AS wallet_net_day, \
             locked.net_today AS wallet_net_today, \
             nextval(pg_get_serial_sequence('bets', 'id')) AS reserved_bet \
             FROM spent LEFT JOIN locked ON locked.address = spent.address"
        )
    }
}

/// [`PlaySql::writes`].
fn writes(backend: DbBackend) -> String {
    let insert = |table: &str, param: usize, columns: &[(&str, Column)]| {
        let names: Vec<&str> = columns.iter().map(|(name, _)| *name).collect();
        format!(
            "INSERT INTO {table} ({}) {}",
            names.join(", "),
            rows(backend, param, columns)
        )
    };
    let update_wallets = update_wallets(backend);
    let (bets, ledger) = (insert("bets", 2, BET_ROW), insert("ledger", 3, LEDGER_ROW));
    if backend == DbBackend::Sqlite {
        [update_wallets, bets, ledger].join(";\n")
    } else {
        format!(
            "WITH wallets_written AS ({update_wallets} RETURNING 1), \
             bets_written AS ({bets} RETURNING 1), \
             ledger_written AS ({ledger} RETURNING 1) \
             SELECT (SELECT COUNT(*) FROM wallets_written) + \
             (SELECT COUNT(*) FROM bets_written) + \
             (SELECT COUNT(*) FROM ledger_written) AS written"
        )
    }
}

/// The update of the wallets of the JSON array in `$1`, each only if its balances are still
/// the ones the batch read.
fn update_wallets(backend: DbBackend) -> String {
    // PostgreSQL guesses 100 rows for any JSON array and would join them to every wallet
    // by a full scan; naming the addresses as well makes it look them up by key.
    let listed = if backend == DbBackend::Sqlite {
        ""
    } else {
        "wallets.address = ANY (ARRAY(SELECT value ->> 0 \
         FROM jsonb_array_elements($1::jsonb) AS listed (value))) AND "
    };
    format!(
        "{} wallets SET chips = batch.chips, free_chips = batch.free_chips, \
         net_day = batch.net_day, net_today = batch.net_today, \
         open_rounds = wallets.open_rounds - batch.rounds_spent + batch.rounds_opened \
         FROM ({}) AS batch \
         WHERE {listed}wallets.address = batch.address AND wallets.chips = batch.chips_before \
         AND wallets.free_chips = batch.free_before",
        update(backend),
        rows(backend, 1, WALLET_ROW)
    )
}

/// `IN` the JSON array of strings bound as `$param` (PostgreSQL: `= ANY` of it, which its
/// planner answers from the index whatever the table's size).
fn among(backend: DbBackend, param: usize) -> String {
    match backend {
        DbBackend::Postgres => {
            format!("= ANY (ARRAY(SELECT jsonb_array_elements_text(${param}::jsonb)))")
        }
        _ => format!("IN (SELECT value FROM json_each(${param}))"),
    }
}

/// The rows of the JSON array of arrays bound as `$param`, as `columns`, in array order.
fn rows(backend: DbBackend, param: usize, columns: &[(&str, Column)]) -> String {
    let source = match backend {
        DbBackend::Postgres => {
            format!(
                "jsonb_array_elements(${param}::jsonb) WITH ORDINALITY AS batch_rows (value, key)"
            )
        }
        // `jsonb_each`: each row's value stays binary, so reading its fields parses nothing
        // again (`json_each` would hand each row over as text, parsed anew per field).
        _ => format!("jsonb_each(${param}) AS batch_rows"),
    };
    let fields: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(at, (name, column))| match column {
            Column::Text => format!("value ->> {at} AS {name}"),
            Column::Integer => format!("CAST(value ->> {at} AS BIGINT) AS {name}"),
            Column::Boolean => format!("CAST(value ->> {at} AS BOOLEAN) AS {name}"),
        })
        .collect();
    format!("SELECT {} FROM {source} ORDER BY key", fields.join(", "))
}
