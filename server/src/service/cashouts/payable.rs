//! Whether the house can pay a cashout now, asked with the treasury's cashout gate held.

use alloy::primitives::{Address, U256};

use super::error::CashoutError;
use crate::chain::{Chain, ChainError, RefusalKind};
use crate::service::error::ServiceError;
use crate::store;
use crate::store::Db;

/// Refuses a cashout of `amount` base units to `to` that the house cannot pay now: its
/// tokens, less what cashouts in flight still owe, must cover it, and the transfer must
/// simulate and its gas be covered. Call with the treasury's cashout gate held.
pub(super) async fn ensure_payable(
    db: &Db,
    chain: &Chain,
    to: Address,
    amount: U256,
) -> Result<(), CashoutError> {
    let unavailable =
        |error: ChainError| CashoutError::from(ServiceError::ChainUnavailable(error.to_string()));
    let held = chain
        .token_balance(chain.house_address())
        .await
        .map_err(unavailable)?;
    let owed = store::cashouts::owed_in_flight(db).await?;
    if held < owed.saturating_add(amount) {
        return Err(CashoutError::HouseUnderfunded(format!(
            "it holds {held} token base units; cashouts in flight owe {owed} and this one {amount}"
        )));
    }
    match chain.check_transfer(to, amount).await {
        Ok(()) => Ok(()),
        Err(ChainError::Refused(refusal))
            if matches!(
                refusal.kind,
                RefusalKind::InsufficientGas | RefusalKind::InsufficientBalance
            ) =>
        {
            Err(CashoutError::HouseUnderfunded(refusal.message))
        }
        // Refused for another reason: sending would be refused the same way, and that path
        // refunds with the node's reason.
        Err(ChainError::Refused(_)) => Ok(()),
        Err(error) => Err(unavailable(error)),
    }
}
