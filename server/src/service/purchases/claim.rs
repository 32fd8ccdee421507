//! A payment reserved in `payments` with what the chain must show for it (`Claim`), and its
//! release when nothing is owed (`fail`): what the rails and the decision share.

use alloy::primitives::U256;

use crate::chain::proof::ExpectedPayment;
use crate::service::now_ms;
use crate::store::payments::Attempt;
use crate::store::{self, Db, DbErr};
use crate::telemetry::money;

/// A payment reserved in `payments`, with what the chain must show for it.
#[derive(Debug, Clone, Copy)]
pub struct Claim {
    pub id: i64,
    pub expected: ExpectedPayment,
    /// Where the token's logs are searched from for the transaction that used the nonce.
    pub from_block: u64,
    pub valid_before: U256,
    /// Which attempt at the row this is: only this attempt (and, for a claim read from the row,
    /// the version read) may be failed or written on what was decided about it.
    pub attempt: Attempt,
}

/// [`Purchases::mark_failed`](super::Purchases::mark_failed) for a rail, which holds the database but not the arcade.
pub(crate) async fn fail(db: &Db, claim: &Claim, error: &str) -> Result<(), DbErr> {
    let failed = store::payments::fail(db, claim.id, claim.attempt, error, now_ms()).await?;
    if failed {
        money::purchase_failed(claim.id, error);
    }
    Ok(())
}
