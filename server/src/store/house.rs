//! The house key's transactions: the journal of every one it signs (written before its
//! broadcast, in the same transaction as the row it settles or pays), and the `house_sender`
//! row that instances sharing a PostgreSQL database hold while they send. Only one transaction
//! per (sender, nonce) can ever be mined, so a journalled transaction of the same sender mined
//! deep enough proves every other one with its nonce never will be. A transaction replaced at a
//! higher fee keeps its row here beside its replacement, under the same reference: whichever of
//! them is mined is the one that counts. Rows written before the
//! journal kept senders have none (`migrations/src/sql/0010_house_journal_sender.sql`).

use alloy::primitives::Address;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, Condition, ConnectionTrait, DbBackend, DbErr, EntityTrait,
    QueryFilter, QueryOrder,
};

use super::entities::house_transaction::{self, Purpose};
use super::{Db, Tx};
use crate::address;

/// A transaction the house signed, as the journal keeps it.
#[derive(Debug, Clone, Copy)]
pub struct Signed<'a> {
    pub hash: &'a str,
    pub raw: &'a [u8],
    pub nonce: u64,
    /// The address that signed it (its nonce is this address's).
    pub sender: Address,
}

impl Signed<'_> {
    pub fn raw_hex(&self) -> String {
        alloy::hex::encode_prefixed(self.raw)
    }

    /// The nonce as the database keeps it (a signed 64-bit integer).
    pub fn stored_nonce(&self) -> Result<i64, DbErr> {
        i64::try_from(self.nonce).map_err(|e| DbErr::Custom(e.to_string()))
    }
}

/// Journals `signed` (inside the caller's transaction). `reference` names the row it belongs
/// to: `payment:<id>` or `cashout:<id>`.
pub async fn record(
    db: &impl ConnectionTrait,
    signed: &Signed<'_>,
    purpose: Purpose,
    reference: &str,
    at: i64,
) -> Result<(), DbErr> {
    let nonce = signed.stored_nonce()?;
    let row = house_transaction::ActiveModel {
        hash: Set(signed.hash.to_owned()),
        nonce: Set(nonce),
        purpose: Set(purpose),
        reference: Set(reference.to_owned()),
        created_at: Set(at),
        sender: Set(Some(address::key(&signed.sender))),
    };
    house_transaction::Entity::insert(row)
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// The hashes of the journalled transactions of `sender` with `nonce` that belong to another
/// row than `except` (`payment:<id>` or `cashout:<id>`: a row's replacements share its nonce),
/// and of those with that nonce whose sender is unknown (journalled before senders were): the
/// caller checks each one's sender on the chain.
pub async fn others_with_nonce(
    db: &Db,
    sender: &Address,
    nonce: i64,
    except: &str,
) -> Result<Vec<String>, DbErr> {
    Ok(house_transaction::Entity::find()
        .filter(house_transaction::Column::Nonce.eq(nonce))
        .filter(house_transaction::Column::Reference.ne(except))
        .filter(
            Condition::any()
                .add(house_transaction::Column::Sender.eq(address::key(sender)))
                .add(house_transaction::Column::Sender.is_null()),
        )
        .all(db)
        .await?
        .into_iter()
        .map(|row| row.hash)
        .collect())
}

/// Every transaction journalled for the row `reference` with `nonce` (a transaction and the
/// ones that replaced it), oldest first.
pub async fn journalled_for(
    db: &Db,
    nonce: i64,
    reference: &str,
) -> Result<Vec<house_transaction::Model>, DbErr> {
    house_transaction::Entity::find()
        .filter(house_transaction::Column::Nonce.eq(nonce))
        .filter(house_transaction::Column::Reference.eq(reference))
        .order_by_asc(house_transaction::Column::CreatedAt)
        .order_by_asc(house_transaction::Column::Hash)
        .all(db)
        .await
}

/// On PostgreSQL, a transaction holding the `house_sender` row `FOR UPDATE`: other instances
/// queue behind it until it ends. `None` on SQLite, one process's database.
pub async fn hold_sender(db: &Db) -> Result<Option<Tx>, DbErr> {
    match db.get_database_backend() {
        DbBackend::Postgres => {
            let txn = super::begin(db).await?;
            txn.execute_unprepared("SELECT id FROM house_sender WHERE id = 1 FOR UPDATE")
                .await?;
            Ok(Some(txn))
        }
        _ => Ok(None),
    }
}
