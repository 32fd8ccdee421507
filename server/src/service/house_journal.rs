//! The journal of every transaction the house key signs, written before its broadcast in the
//! same DB transaction as the row it settles or pays. Only one transaction per nonce can ever
//! be mined, so a journalled transaction mined deep enough proves that every other one with its
//! nonce never will be: that, and not a receipt lookup that answers null, is what lets a
//! cashout be refunded.

use sea_orm::{ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter};

use super::now_ms;
use crate::chain::SignedTx;
use crate::entities::house_transaction;

/// Records `tx` (inside the caller's DB transaction). `purpose` is `settlement` or `cashout`;
/// `reference` names the row (`payment:<id>`, `cashout:<id>`).
pub async fn record(
    db: &impl ConnectionTrait,
    tx: &SignedTx,
    purpose: &str,
    reference: &str,
) -> Result<(), DbErr> {
    let nonce = i64::try_from(tx.nonce).map_err(|e| DbErr::Custom(e.to_string()))?;
    let row = house_transaction::ActiveModel {
        hash: Set(tx.hash.to_string()),
        nonce: Set(nonce),
        purpose: Set(purpose.to_owned()),
        reference: Set(reference.to_owned()),
        created_at: Set(now_ms()),
    };
    house_transaction::Entity::insert(row)
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// The hashes of the other journalled transactions with `nonce`.
pub async fn others_with_nonce(
    db: &impl ConnectionTrait,
    nonce: i64,
    except: &str,
) -> Result<Vec<String>, DbErr> {
    Ok(house_transaction::Entity::find()
        .filter(house_transaction::Column::Nonce.eq(nonce))
        .filter(house_transaction::Column::Hash.ne(except))
        .all(db)
        .await?
        .into_iter()
        .map(|row| row.hash)
        .collect())
}
