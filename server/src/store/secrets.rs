//! `secret_fingerprints`: one row per secret the deployment runs with, holding its fingerprint,
//! never its value. The first instance to start inserts it; every other instance (and every
//! restart) must match it. `deployment_secrets`: the values older versions generated and kept
//! here, read only to carry such a deployment over (`arcade secrets export`), then erased.

use sea_orm::sea_query::OnConflict;
use sea_orm::{ActiveValue::Set, DbErr, EntityTrait};

use super::Db;
use super::entities::{deployment_secret, secret_fingerprint};

/// Records `fingerprint` under `name` unless one is recorded; the one recorded.
pub async fn fingerprint(db: &Db, name: &str, fingerprint: &str, at: i64) -> Result<String, DbErr> {
    let row = secret_fingerprint::ActiveModel {
        name: Set(name.to_owned()),
        fingerprint: Set(fingerprint.to_owned()),
        created_at: Set(at),
    };
    secret_fingerprint::Entity::insert(row)
        .on_conflict(
            OnConflict::column(secret_fingerprint::Column::Name)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    secret_fingerprint::Entity::find_by_id(name.to_owned())
        .one(db)
        .await?
        .map(|row| row.fingerprint)
        .ok_or_else(|| DbErr::RecordNotFound(format!("secret fingerprint {name}")))
}

/// The value an older version generated and kept under `name`, if any.
pub async fn kept_in_database(db: &Db, name: &str) -> Result<Option<String>, DbErr> {
    let row = deployment_secret::Entity::find_by_id(name.to_owned())
        .one(db)
        .await?;
    Ok(row.map(|row| row.value))
}

/// Erases the value kept under `name` (once it lives in a file); whether there was one.
pub async fn erase_from_database(db: &Db, name: &str) -> Result<bool, DbErr> {
    let deleted = deployment_secret::Entity::delete_by_id(name.to_owned())
        .exec(db)
        .await?;
    Ok(deleted.rows_affected > 0)
}
