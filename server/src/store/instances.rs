//! `instances`: each running instance's heartbeat, a count it alone moves up. Another instance
//! reads whether anyone beats; the instance itself reads whether its count went back.

use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{ActiveValue::Set, ColumnTrait, DbErr, EntityTrait, QueryFilter};

use super::Db;
use super::entities::instance;

/// Every instance's id and count.
pub async fn beats(db: &Db) -> Result<Vec<(String, i64)>, DbErr> {
    let all = instance::Entity::find().all(db).await?;
    Ok(all.into_iter().map(|row| (row.id, row.beat)).collect())
}

/// The instance's row at count 0 (a new one, or its own put back after its count went back).
pub async fn start(db: &Db, id: &str, at: i64) -> Result<(), DbErr> {
    let row = instance::ActiveModel {
        id: Set(id.to_owned()),
        beat: Set(0),
        started_at: Set(at),
    };
    instance::Entity::insert(row)
        .on_conflict(
            OnConflict::column(instance::Column::Id)
                .update_columns([instance::Column::Beat, instance::Column::StartedAt])
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// Counts the instance's beat up from `count`; `false` if its row does not stand at `count`
/// (gone, or another value: the database went back under it).
pub async fn beat(db: &Db, id: &str, count: i64) -> Result<bool, DbErr> {
    let updated = instance::Entity::update_many()
        .col_expr(
            instance::Column::Beat,
            Expr::col(instance::Column::Beat).add(1),
        )
        .filter(instance::Column::Id.eq(id))
        .filter(instance::Column::Beat.eq(count))
        .exec(db)
        .await?;
    Ok(super::happened(updated))
}

/// Forgets instances that no longer beat.
pub async fn forget(db: &Db, ids: &[String]) -> Result<(), DbErr> {
    if ids.is_empty() {
        return Ok(());
    }
    instance::Entity::delete_many()
        .filter(instance::Column::Id.is_in(ids.iter().cloned()))
        .exec(db)
        .await?;
    Ok(())
}
