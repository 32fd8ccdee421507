//! The house's own rail (`payments.rail = "house"`): `transferWithAuthorization` signed with
//! the house key, journalled on the payment row and in the house's journal before it is
//! broadcast. The house alone holds what it signed, so an open payment it never signed is
//! released, and one it signed is broadcast again (signed again at a higher fee, with its nonce,
//! when the chain's base fee outgrew it).

use alloy::primitives::U256;
use async_trait::async_trait;

use super::RailEntry;
use super::settler::{Presented, RailContext, ResumeError, Resumed, Settler, Submission};
use crate::chain::fees::Replacement;
use crate::chain::{Chain, SendError, SignedTx};
use crate::faults::{CrashPoint, crash_if};
use crate::service::house_sender::{journal_entry, journalled};
use crate::service::now_ms;
use crate::service::purchases::claim::{Claim, fail};
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
            fail(context.db, claim, reason).await?;
            return Ok(Resumed::Released);
        };
        let raw = alloy::hex::decode(raw)?;
        if reprice_if_outgrown(context, claim, row, &raw).await? {
            return Ok(Resumed::Rebroadcast);
        }
        if let Err(error) = context.chain.rebroadcast(&raw).await {
            tracing::info!(payment = row.id, %error, "rebroadcast refused; checking again later");
        }
        Ok(Resumed::Rebroadcast)
    }
}

/// A settlement the base fee outgrew is in no block and holds the house key's next nonce, so
/// every later house transaction (cashouts too) waits behind it: it is signed again with the
/// same nonce and call at a higher fee, journalled before its broadcast as a cashout's
/// replacement is, never above `chain.max_fee_per_gas_wei`. Whichever of the two is mined
/// pays: the chain's proof looks for the authorization's nonce, not a hash, and the shared
/// nonce lets one of them in at most. Whether it replaced `raw` (else it is rebroadcast as is).
async fn reprice_if_outgrown(
    context: &RailContext<'_>,
    claim: &Claim,
    row: &payment::Model,
    raw: &[u8],
) -> Result<bool, ResumeError> {
    let chain = context.chain;
    let (Some(signed), Some(replaced)) = (Chain::fees_of(raw), row.tx_hash.as_deref()) else {
        return Ok(false);
    };
    if Chain::signer_of(raw) != Some(chain.house_address()) {
        // Another key's nonce (the house key changed): only that key could replace it.
        return Ok(false);
    }
    let expired = claim.valid_before <= U256::from(now_ms() / 1000);
    if expired {
        // A replacement could only revert now; the chain's own clock decides the payment.
        return Ok(false);
    }
    let market = match chain.market().await {
        Ok(market) => market,
        Err(error) => {
            tracing::info!(payment = claim.id, %error, "the chain's fees unread; rebroadcasting as signed");
            return Ok(false);
        }
    };
    if !market.outprices(signed) {
        return Ok(false);
    }
    let Replacement::Bid(bid) = market.replacement(signed, chain.max_fee_per_gas()) else {
        tracing::warn!(payment = claim.id, tx = replaced, base_fee = %market.base_fee,
            "the settlement's fee cannot rise above chain.max_fee_per_gas_wei; waiting for the base fee to fall");
        return Ok(false);
    };
    let sender = context.house_sender().await?;
    let journal = |tx: SignedTx| journal_replacement(context, claim, replaced, tx);
    let result = chain.replace(raw, bid, journal).await;
    sender.release().await;
    let tx = match result {
        Ok(tx) => tx,
        Err(SendError::NotSent(error)) => {
            tracing::warn!(payment = claim.id, tx = replaced, %error, "replacing the settlement refused; it stays as signed");
            return Ok(false);
        }
        // Settled or replaced meanwhile: nothing was broadcast.
        Err(SendError::Journal(DbErr::RecordNotUpdated)) => return Ok(true),
        Err(SendError::Journal(error)) => return Err(error.into()),
        Err(SendError::Unconfirmed { tx, error }) => {
            tracing::warn!(payment = claim.id, tx = %tx.hash, %error, "the replacement's broadcast unanswered; the reconciler looks again");
            tx
        }
    };
    money::settlement_replaced(
        claim.id,
        replaced,
        &tx.hash.to_string(),
        bid.max_fee_per_gas,
    );
    Ok(true)
}

/// Write-ahead of a replacement: journalled and named on the row before its broadcast;
/// refused (nothing broadcast) if the row no longer names `replaced` or settled.
async fn journal_replacement(
    context: &RailContext<'_>,
    claim: &Claim,
    replaced: &str,
    tx: SignedTx,
) -> Result<(), DbErr> {
    let hash = tx.hash.to_string();
    let signed = journal_entry(&tx, &hash);
    let updated = store::payments::journal_settlement_replacement(
        context.db,
        claim.id,
        replaced,
        &signed,
        now_ms(),
    );
    journalled(updated.await?)?;
    Ok(())
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
