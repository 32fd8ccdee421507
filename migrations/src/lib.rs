//! The arcade's one database schema. Each migration is a SQL file (the source of truth) run by
//! [`Migrator`]; the server runs it at start and every test runs it on a fresh database.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

pub use sea_orm_migration::MigratorTrait;

/// Runs the arcade's migrations in order.
pub struct Migrator;

#[sea_orm_migration::async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(SqlMigration {
                name: "m0001_init",
                up: include_str!("sql/0001_init.sql"),
            }),
            Box::new(SqlMigration {
                name: "m0002_payments",
                up: include_str!("sql/0002_payments.sql"),
            }),
            Box::new(SqlMigration {
                name: "m0003_cashouts",
                up: include_str!("sql/0003_cashouts.sql"),
            }),
            Box::new(SqlMigration {
                name: "m0004_proofs",
                up: include_str!("sql/0004_proofs.sql"),
            }),
            Box::new(SqlMigration {
                name: "m0005_abuse",
                up: include_str!("sql/0005_abuse.sql"),
            }),
            Box::new(SqlMigration {
                name: "m0006_signed",
                up: include_str!("sql/0006_signed.sql"),
            }),
            Box::new(SqlMigration {
                name: "m0007_open_rounds_index",
                up: include_str!("sql/0007_open_rounds_index.sql"),
            }),
            Box::new(SqlMigration {
                name: "m0008_recent_reads_bets",
                up: include_str!("sql/0008_recent_reads_bets.sql"),
            }),
            Box::new(SqlMigration {
                name: "m0009_pockets",
                up: include_str!("sql/0009_pockets.sql"),
            }),
            Box::new(SqlMigration {
                name: "m0010_house_journal_sender",
                up: include_str!("sql/0010_house_journal_sender.sql"),
            }),
            Box::new(SqlMigration {
                name: "m0012_restore_safe",
                up: include_str!("sql/0012_restore_safe.sql"),
            }),
            Box::new(SqlMigration {
                name: "m0014_signed_marks",
                up: include_str!("sql/0014_signed_marks.sql"),
            }),
            Box::new(SqlMigration {
                name: "m0015_play_signatures",
                up: include_str!("sql/0015_play_signatures.sql"),
            }),
            Box::new(GamesFromTheList),
        ]
    }
}

/// Drops the first migration's `CHECK (game IN (…))` on `bets.game`: which games exist is the
/// fairness core's list, read where a bet is written and read back, so a new game needs no
/// migration. PostgreSQL drops the named constraint; SQLite, which cannot drop a constraint,
/// takes its documented way for a change that leaves every stored row valid
/// (<https://www.sqlite.org/lang_altertable.html>, "otheralter"): the table's schema text is
/// rewritten without the clause, and the schema version moves on so every connection reloads it.
struct GamesFromTheList;

/// The clause, exactly as `0001_init.sql` wrote it.
const GAME_CHECK: &str = "NOT NULL CHECK (game IN ('coinflip', 'dice', 'roulette'))";

impl MigrationName for GamesFromTheList {
    fn name(&self) -> &str {
        "m0016_games_from_the_list"
    }
}

#[sea_orm_migration::async_trait::async_trait]
impl MigrationTrait for GamesFromTheList {
    #[allow(elided_lifetimes_in_paths)] // the trait is declared this way
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        match manager.get_database_backend() {
            DbBackend::Postgres => {
                db.execute_unprepared("ALTER TABLE bets DROP CONSTRAINT IF EXISTS bets_game_check")
                    .await?;
                let left = one_number(
                    db,
                    "SELECT count(*) FROM pg_constraint WHERE conrelid = 'bets'::regclass \
                     AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%game IN%'",
                )
                .await?;
                if left != 0 {
                    return Err(DbErr::Migration("bets.game keeps a CHECK on games".into()));
                }
            }
            DbBackend::Sqlite => {
                let version = one_number(db, "PRAGMA schema_version").await?;
                // One call, so every statement runs on the same connection, in order.
                db.execute_unprepared(&format!(
                    "PRAGMA writable_schema = ON; \
                     UPDATE sqlite_master SET sql = replace(sql, '{}', 'NOT NULL') \
                     WHERE type = 'table' AND name = 'bets'; \
                     PRAGMA schema_version = {}; \
                     PRAGMA writable_schema = OFF;",
                    GAME_CHECK.replace('\'', "''"),
                    version + 1
                ))
                .await?;
                let left = one_number(
                    db,
                    "SELECT count(*) FROM sqlite_master WHERE name = 'bets' AND sql LIKE '%game IN%'",
                )
                .await?;
                if left != 0 {
                    return Err(DbErr::Migration("bets.game keeps a CHECK on games".into()));
                }
            }
            other => {
                return Err(DbErr::Migration(format!(
                    "unsupported database backend {other:?}"
                )));
            }
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

/// A migration written as portable SQL. `{id}` becomes the backend's auto-increment key.
struct SqlMigration {
    name: &'static str,
    up: &'static str,
}

impl MigrationName for SqlMigration {
    fn name(&self) -> &str {
        self.name
    }
}

#[sea_orm_migration::async_trait::async_trait]
impl MigrationTrait for SqlMigration {
    #[allow(elided_lifetimes_in_paths)] // the trait is declared this way
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let backend = manager.get_database_backend();
        let sql = self.up.replace("{id}", auto_increment_key(backend)?);
        let db = manager.get_connection();
        for statement in statements(&sql) {
            db.execute_unprepared(statement).await?;
        }
        Ok(())
    }
}

fn auto_increment_key(backend: DbBackend) -> Result<&'static str, DbErr> {
    match backend {
        DbBackend::Sqlite => Ok("INTEGER PRIMARY KEY AUTOINCREMENT"),
        DbBackend::Postgres => Ok("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
        other => Err(DbErr::Migration(format!(
            "unsupported database backend {other:?}"
        ))),
    }
}

/// The statements of a SQL file: split on `;` at line ends, comments dropped.
fn statements(sql: &str) -> impl Iterator<Item = &str> {
    sql.split(";\n").map(str::trim).filter(|s| {
        s.lines()
            .any(|line| !line.trim().is_empty() && !line.trim_start().starts_with("--"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_the_init_file_into_its_statements() {
        let all: Vec<&str> = statements(include_str!("sql/0001_init.sql")).collect();
        let creates = all.iter().filter(|s| s.contains("CREATE ")).count();
        assert_eq!(creates, all.len());
        assert_eq!(all.len(), 8);
    }

    #[test]
    fn the_game_check_is_the_one_the_first_migration_wrote() {
        assert!(include_str!("sql/0001_init.sql").contains(GAME_CHECK));
    }
}
