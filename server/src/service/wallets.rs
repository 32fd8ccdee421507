//! Balances and the one-time free grant.

use std::sync::Arc;

use alloy::primitives::Address;
use arcade_core::Limits;
use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};

use super::auth::{Auth, AuthError};
use super::now_ms;
use crate::address;
use crate::rate_limits::{Caller, Operation, RateLimits};
use crate::service::error::{ServiceError, wraps_service_error};
use crate::store;
use crate::store::Db;
use crate::store::entities::wallet;
use crate::telemetry::money;

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Balance {
    /// EIP-55 checksummed.
    pub address: String,
    pub chips: i64,
    /// Whether the address ever bought chips (required before a cashout).
    pub bought_in: bool,
    pub free_claimed: bool,
    /// Chips a cashout may take now: the paid pocket, `chips - free_chips` (a cashout also
    /// needs a past purchase, `bought_in`).
    pub cashable: i64,
    /// The chips of `chips` that are play money: the free grant and what free chips won back.
    /// A wager stakes them first; a win pays each pocket in proportion to its stake, the free
    /// pocket's share rounded up. They can be played, never cashed out.
    pub free_chips: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct FreeGrant {
    pub address: String,
    /// Chips granted by this claim.
    pub granted: i64,
    /// Chips after the grant.
    pub balance: i64,
}

/// Why a free-chips claim or a balance read did not happen.
#[derive(Debug, thiserror::Error)]
pub enum WalletError {
    #[error("{0} has already claimed its free chips")]
    FreeAlreadyClaimed(String),
    #[error(transparent)]
    Auth(#[from] AuthError),
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl crate::refusal::Refusal for WalletError {
    fn kind(&self) -> crate::refusal::ErrorKind {
        match self {
            Self::FreeAlreadyClaimed(_) => crate::refusal::FREE_ALREADY_CLAIMED,
            Self::Auth(refused) => refused.kind(),
            Self::Service(failed) => failed.kind(),
        }
    }

    fn retry_after_s(&self) -> Option<u64> {
        match self {
            Self::FreeAlreadyClaimed(_) => None,
            Self::Auth(refused) => refused.retry_after_s(),
            Self::Service(failed) => failed.retry_after_s(),
        }
    }
}

wraps_service_error!(WalletError);

/// Balances and the free grant.
#[derive(Clone)]
pub struct Wallets {
    db: Db,
    limits: Limits,
    rate_limits: Arc<RateLimits>,
    auth: Auth,
}

impl Wallets {
    pub fn new(db: Db, limits: Limits, rate_limits: Arc<RateLimits>, auth: Auth) -> Self {
        Self {
            db,
            limits,
            rate_limits,
            auth,
        }
    }

    pub async fn balance(&self, address: &Address) -> Result<Balance, WalletError> {
        let row = store::ledger::wallet(&self.db, &address::key(address)).await?;
        Ok(Balance {
            address: address::display(address),
            chips: row.as_ref().map_or(0, |w| w.chips),
            bought_in: row.as_ref().is_some_and(|w| w.bought_in),
            free_claimed: row.as_ref().is_some_and(|w| w.free_claimed),
            cashable: row.as_ref().map_or(0, cashable),
            free_chips: row.as_ref().map_or(0, |w| w.free_chips),
        })
    }

    /// Grants the free chips once per address. A signature, when given, must be the address's.
    pub async fn claim_free(
        &self,
        address: &Address,
        signature: Option<&str>,
        caller: Caller,
    ) -> Result<FreeGrant, WalletError> {
        self.rate_limits.operation(caller, Operation::Free)?;
        if signature.is_some() {
            self.auth.verify_signature(address, signature).await?;
        }
        let granted = i64::try_from(self.limits.free_chips).map_err(ServiceError::internal)?;
        let claimed =
            store::ledger::claim_free(&self.db, &address::key(address), granted, now_ms()).await?;
        let wallet =
            claimed.ok_or_else(|| WalletError::FreeAlreadyClaimed(address::display(address)))?;
        money::granted(&wallet.address, granted);
        Ok(FreeGrant {
            address: address::display(address),
            granted,
            balance: wallet.chips,
        })
    }
}

/// The part of a wallet's chips a cashout may take: the paid pocket.
pub fn cashable(wallet: &wallet::Model) -> i64 {
    wallet.chips - wallet.free_chips
}
