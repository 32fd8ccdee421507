//! Settlement by the house: `transferWithAuthorization` signed with the house key, journalled
//! on the payment row (and in the house's transaction journal) before it is broadcast.

use alloy::sol_types::SolCall;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter, TransactionTrait};

use super::{Claim, Payments, Submission};
use crate::chain::token::DollarToken;
use crate::chain::{SendError, SignedTx};
use crate::entities::{house_transaction, payment};
use crate::faults::{CrashPoint, crash_if};
use crate::service::{Arcade, house_journal, now_ms};
use crate::x402::verify::Verified;

impl Arcade {
    /// Step 4 by the house: the settlement transaction, signed, journalled and broadcast.
    pub(super) async fn settle_by_house(
        &self,
        payments: &Payments,
        claim: &Claim,
        verified: &Verified,
    ) -> Submission {
        let chain = &payments.chain;
        let auth = &verified.authorization;
        let call = DollarToken::transferWithAuthorizationCall {
            from: auth.from,
            to: auth.to,
            value: auth.value,
            validAfter: auth.validAfter,
            validBefore: auth.validBefore,
            nonce: auth.nonce,
            v: 27 + u8::from(verified.signature.v()),
            r: verified.signature.r().into(),
            s: verified.signature.s().into(),
        };
        let journal = |tx: SignedTx| self.journal_settlement(claim.id, tx);
        let sender = match self.house_sender().await {
            Ok(sender) => sender,
            Err(error) => return Submission::JournalFailed(error),
        };
        let sent = chain
            .send(chain.token(), call.abi_encode().into(), journal)
            .await;
        sender.release().await;
        match sent {
            Ok(tx) => {
                crash_if(self.crash_after, CrashPoint::SettlementBroadcast);
                Submission::Submitted(Some(tx.hash))
            }
            Err(SendError::NotSent(error)) => Submission::from_chain_error(error),
            Err(SendError::Journal(error)) => Submission::JournalFailed(error),
            Err(SendError::Unconfirmed { tx, error }) => {
                tracing::warn!(payment = claim.id, tx = %tx.hash, %error, "broadcast unanswered; the reconciler will look it up");
                Submission::BroadcastUnanswered(tx.hash)
            }
        }
    }

    /// Write-ahead: the signed settlement is stored before it is broadcast. Refuses (and so
    /// stops the broadcast) if the reservation is no longer this request's.
    async fn journal_settlement(&self, payment_id: i64, tx: SignedTx) -> Result<(), DbErr> {
        let txn = self.db.begin().await?;
        let updated = payment::Entity::update_many()
            .col_expr(payment::Column::TxHash, Expr::value(tx.hash.to_string()))
            .col_expr(
                payment::Column::RawTx,
                Expr::value(alloy::hex::encode_prefixed(&tx.raw)),
            )
            .col_expr(payment::Column::UpdatedAt, Expr::value(now_ms()))
            .filter(payment::Column::Id.eq(payment_id))
            .filter(payment::Column::State.eq(payment::SETTLING))
            .exec(&txn)
            .await?;
        if updated.rows_affected == 0 {
            return Err(DbErr::RecordNotUpdated);
        }
        let reference = format!("payment:{payment_id}");
        house_journal::record(&txn, &tx, house_transaction::SETTLEMENT, &reference).await?;
        txn.commit().await?;
        crash_if(self.crash_after, CrashPoint::SettlementSigned);
        Ok(())
    }
}
