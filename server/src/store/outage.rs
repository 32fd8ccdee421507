//! Telling a database that cannot be reached now (stopped, restarting, its connections cut,
//! too busy to take one more, a SQLite file locked past its busy timeout) from a defect: the
//! first is answered 503 with `Retry-After` and passes by itself once the database is back
//! (the pool opens new connections), the second is a 500.

use sea_orm::{DbErr, RuntimeErr, sqlx};

/// PostgreSQL's codes for a server that cannot serve now: the connection exceptions (`08000`,
/// `08001`, `08003`, `08004`, `08006`; not `08P01`, a protocol violation, which is a defect), an
/// administrator's or crash shutdown (`57P01`, `57P02`), a server starting (`57P03`), too many
/// connections (`53300`).
const POSTGRES_UNAVAILABLE: [&str; 9] = [
    "08000", "08001", "08003", "08004", "08006", "57P01", "57P02", "57P03", "53300",
];
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

/// Whether `error`, or an error it was caused by, is a database that cannot be reached now: an
/// area's failure (a purchase's, wrapping the database's) is answered as the outage it is.
pub fn is_unavailable_cause(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(error) = cause {
        let unavailable = error.downcast_ref::<DbErr>().is_some_and(is_unavailable)
            || error.downcast_ref::<RuntimeErr>().is_some_and(
                |error| matches!(error, RuntimeErr::SqlxError(e) if sqlx_unavailable(e)),
            )
            || error
                .downcast_ref::<sqlx::Error>()
                .is_some_and(sqlx_unavailable);
        if unavailable {
            return true;
        }
        cause = error.source();
    }
    false
}

/// A connection that failed or could not be had; not a protocol error or a crashed worker
/// (defects, answered 500).
fn sqlx_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed => true,
        sqlx::Error::Database(database) => database.code().is_some_and(|code| {
            POSTGRES_UNAVAILABLE.contains(&code.as_ref()) || SQLITE_BUSY.contains(&code.as_ref())
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
        let protocol = sqlx::Error::Protocol("too many arguments".into());
        assert!(!is_unavailable(&DbErr::Query(RuntimeErr::SqlxError(
            protocol.into()
        ))));
    }

    /// An area's error wrapping the database's, at any depth, is the outage.
    #[test]
    fn an_outage_is_found_among_the_causes() {
        #[derive(Debug, thiserror::Error)]
        #[error("deciding a payment")]
        struct Deciding(#[source] DbErr);
        let cut = std::io::Error::from(std::io::ErrorKind::ConnectionReset);
        let cut = DbErr::Query(RuntimeErr::SqlxError(sqlx::Error::Io(cut).into()));
        assert!(is_unavailable_cause(&Deciding(cut)));
        assert!(!is_unavailable_cause(&Deciding(DbErr::RecordNotUpdated)));
    }
}
