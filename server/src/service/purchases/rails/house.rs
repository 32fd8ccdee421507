//! The house's own rail (`payments.rail = "house"`): `transferWithAuthorization` signed with
//! the house key, journalled on the payment row and in the house's journal before it is
//! broadcast. The house alone holds what it signed, so an open payment it never signed is
//! released, and one it signed is broadcast again.

use async_trait::async_trait;

use super::RailEntry;
use super::settler::{Presented, RailContext, ResumeError, Resumed, Settler, Submission};
use crate::chain::{SendError, SignedTx};
use crate::faults::{CrashPoint, crash_if};
use crate::service::house_sender::{journal_entry, journalled};
use crate::service::now_ms;
use crate::service::purchases::{Claim, decide};
use crate::store::entities::payment;
use crate::store::{self, DbErr};
use crate::telemetry::money;

/// How the settings choose and build this rail: it needs nothing of its own.
pub const ENTRY: RailEntry = RailEntry {
    name: "house",
    needs: None,
    build: |_| Ok(Some(Box::new(HouseRail))),
};

pub struct HouseRail;

#[async_trait]
impl Settler for HouseRail {
    async fn submit(
        &self,
        context: &RailContext<'_>,
        claim: &Claim,
        payment: &Presented<'_>,
    ) -> Submission {
        let journal = |tx: SignedTx| journal_settlement(context, claim, tx);
        let sender = match context.house_sender().await {
            Ok(sender) => sender,
            Err(error) => return Submission::JournalFailed(error),
        };
        let verified = payment.verified;
        let sent = context
            .chain
            .transfer_with_authorization(&verified.authorization, &verified.signature, journal)
            .await;
        sender.release().await;
        match sent {
            Ok(tx) => {
                crash_if(context.crash_after, CrashPoint::SettlementBroadcast);
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

    async fn resume(
        &self,
        context: &RailContext<'_>,
        claim: &Claim,
        row: &payment::Model,
    ) -> Result<Resumed, ResumeError> {
        let Some(raw) = row.raw_tx.as_deref() else {
            // Nothing was signed, so nothing was sent by the house, and no one else has used
            // the authorization: release it.
            let reason = "stopped before the settlement was signed";
            decide::fail(context.db, claim, reason).await?;
            return Ok(Resumed::Released);
        };
        let raw = alloy::hex::decode(raw)?;
        if let Err(error) = context.chain.rebroadcast(&raw).await {
            tracing::info!(payment = row.id, %error, "rebroadcast refused; checking again later");
        }
        Ok(Resumed::Rebroadcast)
    }
}

/// Write-ahead: the signed settlement is stored before it is broadcast. Refuses (and so stops
/// the broadcast) if the reservation is no longer this request's attempt.
async fn journal_settlement(
    context: &RailContext<'_>,
    claim: &Claim,
    tx: SignedTx,
) -> Result<(), DbErr> {
    let hash = tx.hash.to_string();
    let signed = journal_entry(&tx, &hash);
    let updated =
        store::payments::journal_settlement(context.db, claim.id, claim.attempt, &signed, now_ms());
    journalled(updated.await?)?;
    crash_if(context.crash_after, CrashPoint::SettlementSigned);
    Ok(())
}
