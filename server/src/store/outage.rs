//! Telling a database that cannot be reached now (stopped, restarting, its connections cut,
//! too busy to take one more, a SQLite file locked past its busy timeout) from a defect: the
//! first is answered 503 with `Retry-After` and passes by itself once the database is back
//! (the pool opens new connections), the second is a 500.

use sea_orm::{DbErr, RuntimeErr, sqlx};

/// PostgreSQL's codes for a server that cannot serve now: the connection exception class
/// (`08…`), an administrator's or crash shutdown (`57P01`, `57P02`), a server starting
/// (`57P03`), too many connections (`53300`).
const POSTGRES_UNAVAILABLE: [&str; 4] = ["57P01", "57P02", "57P03", "53300"];
/// SQLite's busy and locked codes, extended ones included.
const SQLITE_BUSY: [&str; 6] = ["5", "6", "261", "262", "517", "773"];

/// Whether `error` says the database cannot be reached now rather than that a statement is wrong.
pub fn is_unavailable(error: &DbErr) -> bool {
    match error {
        DbErr::ConnectionAcquire(_) | DbErr::Conn(_) => true,
        DbErr::Exec(RuntimeErr::SqlxError(error)) | DbErr::Query(RuntimeErr::SqlxError(error)) => {
            sqlx_unavailable(error)
        }
        _ => false,
    }
}

fn sqlx_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(database) => database.code().is_some_and(|code| {
            code.starts_with("08")
                || POSTGRES_UNAVAILABLE.contains(&code.as_ref())
                || SQLITE_BUSY.contains(&code.as_ref())
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_out_of_connections_is_unavailable_a_bad_statement_is_not() {
        let timed_out = DbErr::Query(RuntimeErr::SqlxError(sqlx::Error::PoolTimedOut.into()));
        assert!(is_unavailable(&timed_out));
        let io = std::io::Error::from(std::io::ErrorKind::ConnectionReset);
        assert!(is_unavailable(&DbErr::Exec(RuntimeErr::SqlxError(
            sqlx::Error::Io(io).into()
        ))));
        let missing = DbErr::Query(RuntimeErr::SqlxError(sqlx::Error::RowNotFound.into()));
        assert!(!is_unavailable(&missing));
        assert!(!is_unavailable(&DbErr::RecordNotUpdated));
        assert!(!is_unavailable(&DbErr::Custom("a defect".into())));
    }
}
