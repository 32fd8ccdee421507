//! `deployment_secrets`: the secrets a deployment generated for itself, one row each. The first
//! instance to start inserts its freshly drawn value; every other instance (and every restart)
//! reads that one.

use sea_orm::sea_query::OnConflict;
use sea_orm::{ActiveValue::Set, DbErr, EntityTrait};

use super::Db;
use super::entities::deployment_secret;

/// The value kept under a name, and whether this call put it there.
pub struct Kept {
    pub value: String,
    pub created: bool,
}

/// The value kept under `name`, if any.
pub async fn kept(db: &Db, name: &str) -> Result<Option<String>, DbErr> {
    let row = deployment_secret::Entity::find_by_id(name.to_owned())
        .one(db)
        .await?;
    Ok(row.map(|row| row.value))
}

/// Keeps `fresh` under `name` unless a value is already kept there; the kept value.
pub async fn keep(db: &Db, name: &str, fresh: &str, at: i64) -> Result<Kept, DbErr> {
    let row = deployment_secret::ActiveModel {
        name: Set(name.to_owned()),
        value: Set(fresh.to_owned()),
        created_at: Set(at),
    };
    let inserted = deployment_secret::Entity::insert(row)
        .on_conflict(
            OnConflict::column(deployment_secret::Column::Name)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    let kept = deployment_secret::Entity::find_by_id(name.to_owned())
        .one(db)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound(format!("deployment secret {name}")))?;
    Ok(Kept {
        created: inserted == 1 && kept.value == fresh,
        value: kept.value,
    })
}
