//! Migrations that drop a `CHECK (column IN (…))` a SQL file wrote, when the list it names
//! belongs to the code (the fairness core's games, the server's payment rails), so that adding
//! to that list needs no migration. PostgreSQL drops every CHECK on the column, found by the
//! column whatever its name. SQLite, which cannot drop a constraint, takes its documented way
//! for a change that leaves every stored row valid
//! (<https://www.sqlite.org/lang_altertable.html>, "otheralter"): in one transaction, the
//! table's schema text is rewritten without the clause and the schema version moves on, so
//! every connection reloads it and a concurrent migrator fails instead of moving it back. Both
//! then check, by the column, that no CHECK on it is left.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

/// One dropped `CHECK`.
pub struct DropCheck {
    pub name: &'static str,
    pub table: &'static str,
    pub column: &'static str,
    /// The column's clause exactly as its SQL file wrote it; SQLite's text keeps `NOT NULL`.
    pub clause: &'static str,
}

/// `bets.game`: the games are the fairness core's list (`0001_init.sql`).
pub const GAMES_FROM_THE_LIST: DropCheck = DropCheck {
    name: "m0016_games_from_the_list",
    table: "bets",
    column: "game",
    clause: "NOT NULL CHECK (game IN ('coinflip', 'dice', 'roulette'))",
};

/// `payments.settled_by`: each rail records its own name, and the rails are the server's list
/// (`0002_payments.sql`).
pub const RAILS_FROM_THE_LIST: DropCheck = DropCheck {
    name: "m0017_rails_from_the_list",
    table: "payments",
    column: "settled_by",
    clause: "NOT NULL CHECK (settled_by IN ('house', 'facilitator'))",
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
                    "DO $$ DECLARE found record; BEGIN \
                     FOR found IN {} LOOP \
                     EXECUTE format('ALTER TABLE {} DROP CONSTRAINT %I', found.conname); \
                     END LOOP; END $$",
                    self.postgres_checks("c.conname"),
                    self.table
                ))
                .await?;
                one_number(db, &self.postgres_checks("count(*)")).await?
            }
            DbBackend::Sqlite => {
                let version = one_number(db, "PRAGMA schema_version").await?;
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
                    "SELECT count(*) FROM sqlite_master WHERE name = '{}' AND sql LIKE '%{} IN%'",
                    self.table, self.column
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
                "{}.{} keeps a CHECK",
                self.table, self.column
            )));
        }
        Ok(())
    }

    /// One transaction on every backend: on SQLite the schema text and its version move
    /// together, or not at all.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

impl DropCheck {
    /// Selects `what` from PostgreSQL's CHECK constraints on the column (`c`), whatever they
    /// are named.
    fn postgres_checks(&self, what: &str) -> String {
        format!(
            "SELECT {what} FROM pg_constraint c JOIN pg_attribute a \
             ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) \
             WHERE c.conrelid = '{}'::regclass AND c.contype = 'c' AND a.attname = '{}'",
            self.table, self.column
        )
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
