//! Steps 2 and 3 of a cashout: the transfer signed, journalled and broadcast by the house
//! sender, then its receipt; and the transitions every path ends in.

use alloy::primitives::{Address, U256};
use alloy::sol_types::SolCall;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter, TransactionTrait};

use crate::chain::token::DollarToken;
use crate::chain::{ChainError, SendError, SignedTx};
use crate::entities::{cashout, house_transaction};
use crate::error::ApiError;
use crate::faults::{CrashPoint, crash_if};
use crate::service::ledger::{self, Kind};
use crate::service::purchases::Payments;
use crate::service::{Arcade, house_journal, now_ms};

/// What sending did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// Broadcast (and confirmed, reverted and refunded, or still waiting: see the row).
    Broadcast,
    /// Not sent, refunded: the chain did not answer.
    ChainDown,
    /// Not sent, refunded: the transfer would fail (e.g. the house lacks tokens or gas).
    Refused,
    /// Another request or instance already sent (or finished) this cashout.
    Elsewhere,
}

impl Arcade {
    pub(super) async fn send_cashout(
        &self,
        payments: &Payments,
        id: i64,
    ) -> Result<Sent, ApiError> {
        let chain = &payments.chain;
        let sender = self.house_sender().await?;
        let row = cashout::Entity::find_by_id(id).one(&self.db).await?;
        let Some(row) = row.filter(|r| r.status == cashout::PENDING && r.tx_hash.is_none()) else {
            sender.release().await;
            return Ok(Sent::Elsewhere);
        };
        let to: Address = row.address.parse().map_err(ApiError::internal)?;
        let value = U256::from_str_radix(&row.amount, 10).map_err(ApiError::internal)?;
        let call = DollarToken::transferCall { to, value };
        let journal = |tx: SignedTx| self.journal_cashout(id, tx);
        let result = chain
            .send(chain.token(), call.abi_encode().into(), journal)
            .await;
        sender.release().await;
        match result {
            Ok(tx) => {
                crash_if(self.crash_after, CrashPoint::Broadcast);
                self.advance(id, &[cashout::PENDING], cashout::SENT).await?;
                match chain.wait_confirmed(tx.hash).await {
                    Some(mined) if mined.success => {
                        self.advance(id, &[cashout::SENT], cashout::CONFIRMED)
                            .await?;
                    }
                    Some(_) => self.fail_and_refund(id, "the transfer reverted").await?,
                    None => {} // stays `sent`; the reconciler follows it up
                }
                Ok(Sent::Broadcast)
            }
            Err(SendError::NotSent(error @ ChainError::Unavailable(_))) => {
                self.fail_and_refund(id, &error.to_string()).await?;
                Ok(Sent::ChainDown)
            }
            Err(SendError::NotSent(ChainError::Refused(message))) => {
                self.fail_and_refund(id, &format!("the transfer would fail: {message}"))
                    .await?;
                Ok(Sent::Refused)
            }
            Err(SendError::Journal(DbErr::RecordNotUpdated)) => Ok(Sent::Elsewhere),
            // Unsigned as far as anyone knows: it stays `pending`, the reconciler sends it.
            Err(SendError::Journal(error)) => Err(error.into()),
            Err(SendError::Unconfirmed { tx, error }) => {
                tracing::warn!(cashout = id, tx = %tx.hash, %error, "broadcast unanswered; the reconciler will look it up");
                self.advance(id, &[cashout::PENDING], cashout::SENT).await?;
                Ok(Sent::Broadcast)
            }
        }
    }

    /// Write-ahead: nonce, hash and raw bytes stored (on the row and in the house's journal)
    /// before the broadcast. Refuses if the row was signed or finished meanwhile (then nothing
    /// is broadcast).
    async fn journal_cashout(&self, id: i64, tx: SignedTx) -> Result<(), DbErr> {
        let nonce = i64::try_from(tx.nonce).map_err(|e| DbErr::Custom(e.to_string()))?;
        let txn = self.db.begin().await?;
        let updated = cashout::Entity::update_many()
            .col_expr(cashout::Column::TxNonce, Expr::value(nonce))
            .col_expr(cashout::Column::TxHash, Expr::value(tx.hash.to_string()))
            .col_expr(
                cashout::Column::RawTx,
                Expr::value(alloy::hex::encode_prefixed(&tx.raw)),
            )
            .col_expr(cashout::Column::UpdatedAt, Expr::value(now_ms()))
            .filter(cashout::Column::Id.eq(id))
            .filter(cashout::Column::Status.eq(cashout::PENDING))
            .filter(cashout::Column::TxHash.is_null())
            .exec(&txn)
            .await?;
        if updated.rows_affected == 0 {
            return Err(DbErr::RecordNotUpdated);
        }
        let reference = format!("cashout:{id}");
        house_journal::record(&txn, &tx, house_transaction::CASHOUT, &reference).await?;
        txn.commit().await?;
        crash_if(self.crash_after, CrashPoint::Sign);
        Ok(())
    }

    /// Moves a cashout to `to` if it is in one of `from`.
    pub(super) async fn advance(&self, id: i64, from: &[&str], to: &str) -> Result<bool, DbErr> {
        let updated = cashout::Entity::update_many()
            .col_expr(cashout::Column::Status, Expr::value(to))
            .col_expr(cashout::Column::UpdatedAt, Expr::value(now_ms()))
            .filter(cashout::Column::Id.eq(id))
            .filter(cashout::Column::Status.is_in(from.iter().copied()))
            .exec(&self.db)
            .await?;
        Ok(updated.rows_affected == 1)
    }

    /// Never paid: `failed` and the chips back, in one transaction, once.
    pub(super) async fn fail_and_refund(&self, id: i64, error: &str) -> Result<(), DbErr> {
        let now = now_ms();
        let txn = self.db.begin().await?;
        let failed = cashout::Entity::update_many()
            .col_expr(cashout::Column::Status, Expr::value(cashout::FAILED))
            .col_expr(cashout::Column::Error, Expr::value(error))
            .col_expr(cashout::Column::UpdatedAt, Expr::value(now))
            .filter(cashout::Column::Id.eq(id))
            .filter(cashout::Column::Status.is_in([cashout::PENDING, cashout::SENT]))
            .exec_with_returning(&txn)
            .await?;
        if let Some(row) = failed.into_iter().next() {
            let reference = format!("cashout:{id}");
            ledger::credit(&txn, &row.address, row.chips, Kind::Refund, &reference, now).await?;
            tracing::warn!(cashout = id, error, "cashout failed; chips refunded");
        }
        txn.commit().await
    }
}
