//! Migrations that drop a `CHECK (column IN (…))` a SQL file wrote, when the list it names
//! belongs to the code (the fairness core's games, the server's payment rails), so that adding
//! to that list needs no migration. PostgreSQL drops the named constraint. SQLite, which cannot
//! drop a constraint, takes its documented way for a change that leaves every stored row valid
//! (<https://www.sqlite.org/lang_altertable.html>, "otheralter"): the table's schema text is
//! rewritten without the clause, and the schema version moves on so every connection reloads
//! it. Both then check that no such CHECK is left.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

/// One dropped `CHECK`.
pub struct DropCheck {
    pub name: &'static str,
    pub table: &'static str,
    /// PostgreSQL's name for the constraint (`{table}_{column}_check` for a column's CHECK).
    pub constraint: &'static str,
    /// The column's clause exactly as its SQL file wrote it; SQLite's text keeps `NOT NULL`.
    pub clause: &'static str,
    /// Text found in the constraint while it exists (`column IN`).
    pub marker: &'static str,
}

/// `bets.game`: the games are the fairness core's list (`0001_init.sql`).
pub const GAMES_FROM_THE_LIST: DropCheck = DropCheck {
    name: "m0016_games_from_the_list",
    table: "bets",
    constraint: "bets_game_check",
    clause: "NOT NULL CHECK (game IN ('coinflip', 'dice', 'roulette'))",
    marker: "game IN",
};

/// `payments.settled_by`: each rail records its own name, and the rails are the server's list
/// (`0002_payments.sql`).
pub const RAILS_FROM_THE_LIST: DropCheck = DropCheck {
    name: "m0017_rails_from_the_list",
    table: "payments",
    constraint: "payments_settled_by_check",
    clause: "NOT NULL CHECK (settled_by IN ('house', 'facilitator'))",
    marker: "settled_by IN",
};

impl MigrationName for DropCheck {
    fn name(&self) -> &str {
        self.name
    }
}

#[sea_orm_migration::async_trait::async_trait]
impl MigrationTrait for DropCheck {
    #[allow(elided_lifetimes_in_paths)] // the trait is declared this way
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        let left = match manager.get_database_backend() {
            DbBackend::Postgres => {
                db.execute_unprepared(&format!(
                    "ALTER TABLE {} DROP CONSTRAINT IF EXISTS {}",
                    self.table, self.constraint
                ))
                .await?;
                let sql = format!(
                    "SELECT count(*) FROM pg_constraint WHERE conrelid = '{}'::regclass \
                     AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%{}%'",
                    self.table, self.marker
                );
                one_number(db, &sql).await?
            }
            DbBackend::Sqlite => {
                let version = one_number(db, "PRAGMA schema_version").await?;
                // One call, so every statement runs on the same connection, in order.
                db.execute_unprepared(&format!(
                    "PRAGMA writable_schema = ON; \
                     UPDATE sqlite_master SET sql = replace(sql, '{}', 'NOT NULL') \
                     WHERE type = 'table' AND name = '{}'; \
                     PRAGMA schema_version = {}; \
                     PRAGMA writable_schema = OFF;",
                    self.clause.replace('\'', "''"),
                    self.table,
                    version + 1
                ))
                .await?;
                let sql = format!(
                    "SELECT count(*) FROM sqlite_master WHERE name = '{}' AND sql LIKE '%{}%'",
                    self.table, self.marker
                );
                one_number(db, &sql).await?
            }
            other => {
                return Err(DbErr::Migration(format!(
                    "unsupported database backend {other:?}"
                )));
            }
        };
        if left != 0 {
            return Err(DbErr::Migration(format!(
                "{} keeps a CHECK on {}",
                self.table, self.marker
            )));
        }
        Ok(())
    }
}

/// The first column of the one row `sql` answers, as a number.
async fn one_number(db: &SchemaManagerConnection<'_>, sql: &str) -> Result<i64, DbErr> {
    let backend = db.get_database_backend();
    db.query_one_raw(sea_orm_migration::sea_orm::Statement::from_string(
        backend, sql,
    ))
    .await?
    .ok_or_else(|| DbErr::Migration(format!("no answer to {sql}")))?
    .try_get_by_index::<i64>(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_clause_is_the_one_its_sql_file_wrote() {
        assert!(include_str!("sql/0001_init.sql").contains(GAMES_FROM_THE_LIST.clause));
        assert!(include_str!("sql/0002_payments.sql").contains(RAILS_FROM_THE_LIST.clause));
    }
}
