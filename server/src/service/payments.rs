//! What the money flows need of the chain: the chain itself, the terms every offer is made on,
//! the rails that settle, and the house's balances against their floors (watched here).

use std::sync::Arc;

use super::purchases::rails::Rails;
use super::treasury::Treasury;
use crate::chain::Chain;
use crate::x402::Terms;

/// The chain, the terms every offer is made on, and the rails that settle; present when a
/// chain is configured.
pub struct Payments {
    pub chain: Chain,
    pub terms: Terms,
    pub rails: Rails,
    /// The house's balances against their floors.
    pub treasury: Treasury,
}

/// Reads the house's balances every interval until the process stops.
pub fn spawn_treasury_watch(
    payments: Option<Arc<Payments>>,
) -> Option<tokio::task::JoinHandle<()>> {
    let payments = payments?;
    Some(tokio::spawn(async move {
        loop {
            if let Err(error) = payments.treasury.check(&payments.chain).await {
                tracing::warn!(%error, "reading the house's balances");
            }
            tokio::time::sleep(payments.treasury.interval()).await;
        }
    }))
}
