//! Settlement by the house: the chain checks, then `transferWithAuthorization` signed with the
//! house key, journalled on the payment row before it is broadcast, and a bounded wait for its
//! receipt.

use alloy::sol_types::SolCall;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter};

use super::{Payments, Reservation, Settlement};
use crate::chain::token::DollarToken;
use crate::chain::{ChainError, SendError, SignedTx};
use crate::entities::payment;
use crate::service::{Arcade, now_ms};
use crate::x402::verify::Verified;

impl Arcade {
    /// Steps 3 and 4: the chain checks, then the house's settlement transaction.
    pub(super) async fn settle_by_house(
        &self,
        payments: &Payments,
        reservation: &Reservation,
        verified: &Verified,
    ) -> Settlement {
        let chain = &payments.chain;
        let auth = &verified.authorization;
        match chain.authorization_used(auth.from, auth.nonce).await {
            Err(error) => return Settlement::from_chain_error(error),
            Ok(true) => {
                return Settlement::refused(
                    "invalid_exact_evm_nonce_already_used",
                    "the token says this authorization was already used",
                );
            }
            Ok(false) => {}
        }
        match chain.token_balance(auth.from).await {
            Err(error) => return Settlement::from_chain_error(error),
            Ok(balance) if balance < auth.value => {
                return Settlement::refused(
                    "insufficient_funds",
                    format!(
                        "the payer holds {balance} base units of the token; the price is {}",
                        auth.value
                    ),
                );
            }
            Ok(_) => {}
        }
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
        let journal = |tx: SignedTx| self.journal(reservation.id, tx);
        let sender = match self.house_sender().await {
            Ok(sender) => sender,
            Err(error) => return Settlement::JournalFailed(error),
        };
        let sent = chain
            .send(chain.token(), call.abi_encode().into(), journal)
            .await;
        sender.release().await;
        let tx = match sent {
            Ok(tx) => tx,
            Err(SendError::NotSent(error)) => return Settlement::from_chain_error(error),
            Err(SendError::Journal(error)) => return Settlement::JournalFailed(error),
            Err(SendError::Unconfirmed { tx, error }) => {
                tracing::warn!(payment = reservation.id, tx = %tx.hash, %error, "broadcast unanswered; the reconciler will look it up");
                return Settlement::Pending(Some(tx.hash.to_string()));
            }
        };
        let hash = tx.hash.to_string();
        match chain.wait_confirmed(tx.hash).await {
            Some(mined) if mined.success => Settlement::Settled(hash),
            Some(_) => Settlement::refused(
                "invalid_exact_evm_transaction_failed",
                format!("the settlement {hash} reverted"),
            ),
            None => Settlement::Pending(Some(hash)),
        }
    }

    /// Write-ahead: the signed settlement is stored before it is broadcast. Refuses (and so
    /// stops the broadcast) if the reservation is no longer this request's.
    async fn journal(&self, payment_id: i64, tx: SignedTx) -> Result<(), DbErr> {
        let updated = payment::Entity::update_many()
            .col_expr(payment::Column::TxHash, Expr::value(tx.hash.to_string()))
            .col_expr(
                payment::Column::RawTx,
                Expr::value(alloy::hex::encode_prefixed(&tx.raw)),
            )
            .col_expr(payment::Column::UpdatedAt, Expr::value(now_ms()))
            .filter(payment::Column::Id.eq(payment_id))
            .filter(payment::Column::State.eq(payment::SETTLING))
            .exec(&self.db)
            .await?;
        if updated.rows_affected == 0 {
            return Err(DbErr::RecordNotUpdated);
        }
        Ok(())
    }
}

impl Settlement {
    /// A simulation revert names its cause; the RPC being down is nobody's payment problem.
    pub(super) fn from_chain_error(error: ChainError) -> Self {
        match error {
            ChainError::Unavailable(_) => Self::ChainDown(error.to_string()),
            ChainError::Refused(message) => Self::refused(
                revert_reason(&message),
                format!("the settlement would fail: {message}"),
            ),
        }
    }
}

/// x402 reasons for the token's revert messages (ours and USDC's word them alike).
fn revert_reason(message: &str) -> &'static str {
    let message = message.to_ascii_lowercase();
    if message.contains("exceeds balance") {
        "insufficient_funds"
    } else if message.contains("used or canceled") {
        "invalid_exact_evm_nonce_already_used"
    } else if message.contains("expired") {
        "invalid_exact_evm_payload_authorization_valid_before"
    } else if message.contains("not yet valid") {
        "invalid_exact_evm_payload_authorization_valid_after"
    } else if message.contains("invalid signature") {
        "invalid_exact_evm_payload_signature"
    } else {
        "invalid_exact_evm_transaction_simulation_failed"
    }
}
