//! Balances and the one-time free grant.

use alloy::primitives::Address;
use salvo::oapi::ToSchema;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, TransactionTrait};
use serde::Serialize;

use super::ledger::{self, Kind};
use super::{Arcade, now_ms};
use crate::address;
use crate::entities::wallet;
use crate::error::ApiError;

#[derive(Debug, Serialize, ToSchema)]
pub struct Balance {
    /// EIP-55 checksummed.
    pub address: String,
    pub chips: i64,
    /// Whether the address ever bought chips (required before a cashout).
    pub bought_in: bool,
    pub free_claimed: bool,
    /// Chips a cashout may take now: the balance less the chips ever granted for free (never
    /// below 0). Free chips are play money; what they win stays cashable after a buy-in.
    pub cashable: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FreeGrant {
    pub address: String,
    /// Chips granted by this claim.
    pub granted: i64,
    /// Chips after the grant.
    pub balance: i64,
}

impl Arcade {
    pub async fn balance(&self, address: &Address) -> Result<Balance, ApiError> {
        let row = wallet::Entity::find_by_id(address::key(address))
            .one(&self.db)
            .await?;
        Ok(Balance {
            address: address::display(address),
            chips: row.as_ref().map_or(0, |w| w.chips),
            bought_in: row.as_ref().is_some_and(|w| w.bought_in),
            free_claimed: row.as_ref().is_some_and(|w| w.free_claimed),
            cashable: row.as_ref().map_or(0, cashable),
        })
    }

    /// Grants the free chips once per address. A signature, when given, must be the address's.
    pub async fn claim_free(
        &self,
        address: &Address,
        signature: Option<&str>,
    ) -> Result<FreeGrant, ApiError> {
        if signature.is_some() {
            self.identity.verify(address, signature)?;
        }
        let key = address::key(address);
        let granted = i64::try_from(self.limits.free_chips).map_err(ApiError::internal)?;
        let now = now_ms();
        let txn = self.db.begin().await?;
        ledger::ensure_wallet(&txn, &key, now).await?;
        let claimed = wallet::Entity::update_many()
            .col_expr(wallet::Column::FreeClaimed, Expr::value(true))
            .col_expr(
                wallet::Column::FreeGranted,
                Expr::col(wallet::Column::FreeGranted).add(granted),
            )
            .filter(wallet::Column::Address.eq(&key))
            .filter(wallet::Column::FreeClaimed.eq(false))
            .exec(&txn)
            .await?;
        if claimed.rows_affected == 0 {
            return Err(ApiError::FreeAlreadyClaimed(address::display(address)));
        }
        let wallet = ledger::credit(&txn, &key, granted, Kind::Free, "free", now).await?;
        txn.commit().await?;
        Ok(FreeGrant {
            address: address::display(address),
            granted,
            balance: wallet.chips,
        })
    }
}

/// The part of a wallet's chips a cashout may take.
pub fn cashable(wallet: &wallet::Model) -> i64 {
    std::cmp::max(wallet.chips - wallet.free_granted, 0)
}
