//! `signed_marks`: the one row of the house's signed marks, and what they are made from when a
//! deployment has none yet. The first instance to insert the row wins; every other instance
//! (and every restart) reads that one. Nothing here updates or deletes it.

use sea_orm::sea_query::OnConflict;
use sea_orm::{ActiveValue::Set, DbBackend, DbErr, EntityTrait, FromQueryResult, Statement};

use super::Db;
use super::entities::signed_mark;

/// The row's key: there is one.
const ROW: i64 = 1;

/// The marks as a deployment's history calls for them, before any are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marks {
    pub signed_from: i64,
    pub house_agent_signed_from: i64,
}

/// The marks kept, if any.
pub async fn kept(db: &Db) -> Result<Option<signed_mark::Model>, DbErr> {
    signed_mark::Entity::find_by_id(ROW).one(db).await
}

/// Keeps `marks` with their `signature` unless marks are kept already; the marks kept.
pub async fn keep(
    db: &Db,
    marks: Marks,
    signature: &str,
    at: i64,
) -> Result<signed_mark::Model, DbErr> {
    let row = signed_mark::ActiveModel {
        id: Set(ROW),
        signed_from: Set(marks.signed_from),
        house_agent_signed_from: Set(marks.house_agent_signed_from),
        signature: Set(signature.to_owned()),
        created_at: Set(at),
    };
    signed_mark::Entity::insert(row)
        .on_conflict(
            OnConflict::column(signed_mark::Column::Id)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    kept(db)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound("signed_marks row 1".into()))
}

#[derive(FromQueryResult)]
struct Made {
    signed_from: i64,
    next_bet: i64,
}

/// The marks a deployment's bets call for now:
/// - `signed_from`: one past the largest bet whose proofs are incomplete (no receipt signature,
///   or its round has no seed batch or no commitment signature), 1 when there is none; every
///   bet at or above it is fully signed.
/// - `house_agent_signed_from`: the next bet id. On PostgreSQL ids come from a sequence and are
///   taken before their plays commit, so it is one past the larger of the largest bet and the
///   sequence's last value: past every id any batch in flight holds.
///
/// Sound only while nothing settles plays with the old `Receipt` type: it is read before this
/// instance's writer takes a play, and instances built before the marks must be stopped first.
pub async fn from_history(db: &Db) -> Result<Marks, DbErr> {
    let backend = db.get_database_backend();
    let largest_taken = match backend {
        DbBackend::Postgres => {
            "GREATEST(COALESCE(MAX(id), 0), COALESCE(pg_sequence_last_value(\
             pg_get_serial_sequence('bets', 'id')::regclass), 0))"
        }
        _ => "COALESCE(MAX(id), 0)",
    };
    let sql = format!(
        "SELECT (SELECT COALESCE(MAX(bets.id), 0) + 1 FROM bets \
         LEFT JOIN rounds ON rounds.id = bets.round_id \
         WHERE bets.receipt_signature IS NULL OR rounds.batch_id IS NULL \
         OR rounds.commitment_signature IS NULL) AS signed_from, \
         (SELECT {largest_taken} + 1 FROM bets) AS next_bet"
    );
    let made = Made::find_by_statement(Statement::from_string(backend, sql))
        .one(db)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound("the bets' marks".into()))?;
    Ok(Marks {
        signed_from: made.signed_from,
        house_agent_signed_from: made.next_bet,
    })
}
