//! The house's own rail: `transferWithAuthorization` signed with the house key, journalled on
//! the payment row and in the house's journal before it is broadcast.

use async_trait::async_trait;

use super::{Claim, Presented, Settler, Submission};
use crate::chain::{SendError, SignedTx};
use crate::faults::{CrashPoint, crash_if};
use crate::service::{Arcade, now_ms};
use crate::store::entities::payment::Rail;
use crate::store::{self, DbErr};
use crate::telemetry::money;

pub struct HouseRail;

#[async_trait]
impl Settler for HouseRail {
    fn rail(&self) -> Rail {
        Rail::House
    }

    async fn submit(&self, arcade: &Arcade, claim: &Claim, payment: &Presented<'_>) -> Submission {
        let Ok(payments) = arcade.payments() else {
            return Submission::ChainDown("no chain is configured".into());
        };
        let chain = &payments.chain;
        let journal = |tx: SignedTx| journal_settlement(arcade, claim, tx);
        let sender = match arcade.house_sender().await {
            Ok(sender) => sender,
            Err(error) => return Submission::JournalFailed(error),
        };
        let verified = payment.verified;
        let sent = chain
            .transfer_with_authorization(&verified.authorization, &verified.signature, journal)
            .await;
        sender.release().await;
        match sent {
            Ok(tx) => {
                crash_if(arcade.crash_after, CrashPoint::SettlementBroadcast);
                money::settlement_submitted(claim.id, &tx.hash.to_string(), "house");
                Submission::Submitted(Some(tx.hash))
            }
            Err(SendError::NotSent(error)) => Submission::from_chain_error(error),
            Err(SendError::Journal(error)) => Submission::JournalFailed(error),
            Err(SendError::Unconfirmed { tx, error }) => {
                money::settlement_submitted(claim.id, &tx.hash.to_string(), "house");
                tracing::warn!(payment = claim.id, tx = %tx.hash, %error, "broadcast unanswered; the reconciler will look it up");
                Submission::BroadcastUnanswered(tx.hash)
            }
        }
    }
}

/// Write-ahead: the signed settlement is stored before it is broadcast. Refuses (and so stops
/// the broadcast) if the reservation is no longer this request's attempt.
async fn journal_settlement(arcade: &Arcade, claim: &Claim, tx: SignedTx) -> Result<(), DbErr> {
    let hash = tx.hash.to_string();
    let signed = store::house::Signed {
        hash: &hash,
        raw: &tx.raw,
        nonce: tx.nonce,
        sender: tx.sender,
    };
    let journalled =
        store::payments::journal_settlement(&arcade.db, claim.id, claim.attempt, &signed, now_ms());
    if !journalled.await? {
        return Err(DbErr::RecordNotUpdated);
    }
    crash_if(arcade.crash_after, CrashPoint::SettlementSigned);
    Ok(())
}
