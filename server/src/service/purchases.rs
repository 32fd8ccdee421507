//! Buying chips over x402: the money flow from a signed authorization to credited chips.
//!
//! 1. read and verify the payment (`x402::verify`, no IO);
//! 2. reserve its `(payer, nonce)` in `payments` (unique: a replay or a racing copy stops here);
//! 3. check the chain: authorization unused, payer funded;
//! 4. settle: the house signs `transferWithAuthorization`, journals its hash, broadcasts, and
//!    waits (bounded) for the receipt;
//! 5. credit the chips to the payer in the same DB transaction that marks the payment settled.
//!
//! Anything unfinished at step 4 stays `settling` with its hash and is finished by
//! `reconcile::reconcile_payments`; a payment is credited at most once because step 5 is a
//! conditional update.

use alloy::primitives::Address;
use alloy::sol_types::SolCall;
use salvo::oapi::ToSchema;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ActiveValue::Set, ColumnTrait, DbErr, EntityTrait, QueryFilter, TransactionTrait};
use serde::Serialize;

use super::ledger::{self, Kind};
use super::{Arcade, now_ms};
use crate::address;
use crate::chain::token::DollarToken;
use crate::chain::{Chain, ChainError, SendError, SignedTx};
use crate::entities::{payment, wallet};
use crate::error::{ApiError, Challenge};
use crate::tiers::Tier;
use crate::x402::verify::{self, Rejection, Verified};
use crate::x402::wire::{SettleResponse, decode_payment};
use crate::x402::{Terms, wire::PaymentRequired};

/// The chain and the terms every offer is made on; present when a chain is configured.
pub struct Payments {
    pub chain: Chain,
    pub terms: Terms,
}

/// The body of a successful purchase.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Purchase {
    /// The payment signer, who got the chips (EIP-55).
    pub address: String,
    pub tier: String,
    pub chips_credited: i64,
    /// Chips after the credit.
    pub balance: i64,
    /// The settlement transaction.
    pub tx_hash: String,
    /// CAIP-2, e.g. `eip155:8453`.
    pub network: String,
    /// Token base units paid, decimal.
    pub amount: String,
    pub asset: String,
    pub payment_id: i64,
}

/// A purchase and the `PAYMENT-RESPONSE` that goes with it.
pub struct Paid {
    pub purchase: Purchase,
    pub settlement: SettleResponse,
}

/// A payment's row, reserved for this request.
struct Reservation {
    id: i64,
    payer: Address,
}

impl Arcade {
    pub fn payments(&self) -> Result<&Payments, ApiError> {
        self.payments.as_ref().ok_or(ApiError::PaymentsUnavailable)
    }

    /// The 402 for a tier's resource, optionally saying why a payment was refused.
    pub fn challenge(
        &self,
        tier: &Tier,
        resource_url: &str,
        refusal: Option<(&'static str, String)>,
        payer: Option<Address>,
        transaction: Option<String>,
    ) -> Result<ApiError, ApiError> {
        let payments = self.payments()?;
        let reason = refusal.as_ref().map(|(reason, _)| *reason);
        let required: PaymentRequired = payments.terms.payment_required(
            tier,
            resource_url.to_owned(),
            reason.map(str::to_owned),
        );
        let settlement = reason.map(|reason| SettleResponse {
            success: false,
            error_reason: Some(reason.to_owned()),
            payer: payer.map(|p| p.to_checksum(None)),
            transaction: transaction.clone().unwrap_or_default(),
            network: payments.terms.network.clone(),
        });
        Ok(ApiError::PaymentRequired(Box::new(Challenge {
            required,
            settlement,
            detail: refusal.map(|(_, detail)| detail),
            transaction,
        })))
    }

    /// Buys `tier` with the payment in `header`; without one, answers the 402 challenge.
    pub async fn buy_chips(
        &self,
        tier: &Tier,
        resource_url: &str,
        header: Option<&str>,
    ) -> Result<Paid, ApiError> {
        let payments = self.payments()?;
        let Some(header) = header else {
            return Err(self.challenge(tier, resource_url, None, None, None)?);
        };
        let payment = decode_payment(header).map_err(|error| ApiError::MalformedPayment {
            detail: error.to_string(),
        })?;
        let offer = payments.terms.requirements(tier);
        let domain = payments.chain.eip712_domain();
        let now_seconds = u64::try_from(now_ms() / 1000).unwrap_or_default();
        let verified = match verify::verify(&payment, &offer, &domain, now_seconds) {
            Ok(verified) => verified,
            Err(Rejection::Malformed(detail)) => {
                return Err(ApiError::MalformedPayment { detail });
            }
            Err(Rejection::Refused { reason, detail }) => {
                let payer = verify::payer_of(&payment);
                return Err(self.challenge(
                    tier,
                    resource_url,
                    Some((reason, detail)),
                    payer,
                    None,
                )?);
            }
        };
        let reservation = self.reserve(&verified, tier, payments).await?;
        let refuse = |reason: &'static str, detail: String, transaction: Option<String>| {
            self.challenge(
                tier,
                resource_url,
                Some((reason, detail)),
                Some(reservation.payer),
                transaction,
            )
        };
        match self.settle(payments, &reservation, &verified).await {
            Settlement::Settled(tx_hash) => {
                let purchase = self
                    .credit_settled(payments, reservation.id, &tx_hash)
                    .await?;
                Ok(Paid {
                    settlement: SettleResponse {
                        success: true,
                        error_reason: None,
                        payer: Some(reservation.payer.to_checksum(None)),
                        transaction: tx_hash,
                        network: payments.terms.network.clone(),
                    },
                    purchase,
                })
            }
            Settlement::Refused { reason, detail } => {
                self.mark_failed(reservation.id, &detail).await?;
                Err(refuse(reason, detail, None)?)
            }
            Settlement::ChainDown(error) => {
                self.mark_failed(reservation.id, &error.to_string()).await?;
                Err(ApiError::ChainUnavailable(error.to_string()))
            }
            Settlement::Pending(tx_hash) => Err(refuse(
                "settlement_pending",
                format!(
                    "the settlement {tx_hash} is not confirmed yet; the chips are credited once it is (check the balance), do not pay again"
                ),
                Some(tx_hash),
            )?),
            Settlement::JournalFailed(error) => {
                self.mark_failed(reservation.id, "could not record the transaction")
                    .await?;
                Err(ApiError::internal(error))
            }
        }
    }

    /// Claims the authorization for this request: a new row, or a failed one tried again.
    async fn reserve(
        &self,
        verified: &Verified,
        tier: &Tier,
        payments: &Payments,
    ) -> Result<Reservation, ApiError> {
        let auth = &verified.authorization;
        let payer = address::key(&auth.from);
        let nonce = auth.nonce.to_string();
        let now = now_ms();
        let chips = i64::try_from(tier.chips).map_err(ApiError::internal)?;
        let valid_before = i64::try_from(auth.validBefore).unwrap_or(i64::MAX);
        let row = payment::ActiveModel {
            payer: Set(payer.clone()),
            nonce: Set(nonce.clone()),
            tier: Set(tier.name.to_owned()),
            chips: Set(chips),
            amount: Set(auth.value.to_string()),
            network: Set(payments.terms.network.clone()),
            asset: Set(address::key(&payments.terms.asset)),
            pay_to: Set(address::key(&payments.terms.pay_to)),
            valid_before: Set(valid_before),
            state: Set(payment::SETTLING.to_owned()),
            tx_hash: Set(None),
            raw_tx: Set(None),
            error: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        };
        let inserted = payment::Entity::insert(row)
            .on_conflict(
                OnConflict::columns([payment::Column::Payer, payment::Column::Nonce])
                    .do_nothing()
                    .to_owned(),
            )
            .exec(&self.db)
            .await;
        match inserted {
            Ok(result) => {
                return Ok(Reservation {
                    id: result.last_insert_id,
                    payer: auth.from,
                });
            }
            Err(DbErr::RecordNotInserted) => {}
            Err(error) => return Err(error.into()),
        }
        let retried = payment::Entity::update_many()
            .col_expr(payment::Column::State, Expr::value(payment::SETTLING))
            .col_expr(payment::Column::Tier, Expr::value(tier.name))
            .col_expr(payment::Column::Chips, Expr::value(chips))
            .col_expr(payment::Column::Error, Expr::value(Option::<String>::None))
            .col_expr(payment::Column::TxHash, Expr::value(Option::<String>::None))
            .col_expr(payment::Column::RawTx, Expr::value(Option::<String>::None))
            .col_expr(payment::Column::UpdatedAt, Expr::value(now))
            .filter(payment::Column::Payer.eq(&payer))
            .filter(payment::Column::Nonce.eq(&nonce))
            .filter(payment::Column::State.eq(payment::FAILED))
            .exec_with_returning(&self.db)
            .await?;
        if let Some(row) = retried.into_iter().next() {
            return Ok(Reservation {
                id: row.id,
                payer: auth.from,
            });
        }
        let existing = payment::Entity::find()
            .filter(payment::Column::Payer.eq(&payer))
            .filter(payment::Column::Nonce.eq(&nonce))
            .one(&self.db)
            .await?;
        Err(ApiError::PaymentAlreadyUsed {
            state: existing
                .as_ref()
                .map_or_else(|| payment::SETTLING.to_owned(), |row| row.state.clone()),
            tx_hash: existing.and_then(|row| row.tx_hash),
        })
    }

    /// Steps 3 and 4: the chain checks, then the house's settlement transaction.
    async fn settle(
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
                return Settlement::Refused {
                    reason: "invalid_exact_evm_nonce_already_used",
                    detail: "the token says this authorization was already used".into(),
                };
            }
            Ok(false) => {}
        }
        match chain.token_balance(auth.from).await {
            Err(error) => return Settlement::from_chain_error(error),
            Ok(balance) if balance < auth.value => {
                return Settlement::Refused {
                    reason: "insufficient_funds",
                    detail: format!(
                        "the payer holds {balance} base units of the token; the price is {}",
                        auth.value
                    ),
                };
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
        let tx = match chain
            .send(chain.token(), call.abi_encode().into(), journal)
            .await
        {
            Ok(tx) => tx,
            Err(SendError::NotSent(error)) => return Settlement::from_chain_error(error),
            Err(SendError::Journal(error)) => return Settlement::JournalFailed(error),
            Err(SendError::Unconfirmed { tx, error }) => {
                tracing::warn!(payment = reservation.id, tx = %tx.hash, %error, "broadcast unanswered; the reconciler will look it up");
                return Settlement::Pending(tx.hash.to_string());
            }
        };
        let hash = tx.hash.to_string();
        match chain.wait_confirmed(tx.hash).await {
            Some(mined) if mined.success => Settlement::Settled(hash),
            Some(_) => Settlement::Refused {
                reason: "invalid_exact_evm_transaction_failed",
                detail: format!("the settlement {hash} reverted"),
            },
            None => Settlement::Pending(hash),
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

    /// Step 5, once per payment: marks it settled and credits its chips in one transaction.
    /// If it was already credited (the reconciler got there first), reports that purchase.
    pub(crate) async fn credit_settled(
        &self,
        payments: &Payments,
        payment_id: i64,
        tx_hash: &str,
    ) -> Result<Purchase, ApiError> {
        let now = now_ms();
        let txn = self.db.begin().await?;
        let settled = payment::Entity::update_many()
            .col_expr(payment::Column::State, Expr::value(payment::SETTLED))
            .col_expr(payment::Column::TxHash, Expr::value(tx_hash))
            .col_expr(payment::Column::UpdatedAt, Expr::value(now))
            .filter(payment::Column::Id.eq(payment_id))
            .filter(payment::Column::State.eq(payment::SETTLING))
            .exec_with_returning(&txn)
            .await?;
        let row = match settled.into_iter().next() {
            Some(row) => {
                ledger::ensure_wallet(&txn, &row.payer, now).await?;
                let reference = format!("payment:{}", row.id);
                ledger::credit(&txn, &row.payer, row.chips, Kind::Purchase, &reference, now)
                    .await?;
                wallet::Entity::update_many()
                    .col_expr(wallet::Column::BoughtIn, Expr::value(true))
                    .filter(wallet::Column::Address.eq(&row.payer))
                    .exec(&txn)
                    .await?;
                row
            }
            None => payment::Entity::find_by_id(payment_id)
                .one(&txn)
                .await?
                .ok_or_else(|| ApiError::internal(DbErr::RecordNotFound("payment".into())))?,
        };
        let balance = wallet::Entity::find_by_id(row.payer.clone())
            .one(&txn)
            .await?
            .map_or(0, |w| w.chips);
        txn.commit().await?;
        if row.state != payment::SETTLED && row.state != payment::SETTLING {
            return Err(ApiError::internal(DbErr::Custom(format!(
                "payment {payment_id} is {}, not settled",
                row.state
            ))));
        }
        Ok(Purchase {
            address: address::display_key(&row.payer),
            tier: row.tier,
            chips_credited: row.chips,
            balance,
            tx_hash: tx_hash.to_owned(),
            network: row.network,
            amount: row.amount,
            asset: payments.terms.asset.to_checksum(None),
            payment_id,
        })
    }

    /// Nothing moved on-chain: the reservation is released (the authorization may be retried).
    pub(crate) async fn mark_failed(&self, payment_id: i64, error: &str) -> Result<(), DbErr> {
        payment::Entity::update_many()
            .col_expr(payment::Column::State, Expr::value(payment::FAILED))
            .col_expr(payment::Column::Error, Expr::value(error))
            .col_expr(payment::Column::UpdatedAt, Expr::value(now_ms()))
            .filter(payment::Column::Id.eq(payment_id))
            .filter(payment::Column::State.eq(payment::SETTLING))
            .exec(&self.db)
            .await?;
        Ok(())
    }
}

enum Settlement {
    Settled(String),
    Refused {
        reason: &'static str,
        detail: String,
    },
    ChainDown(ChainError),
    Pending(String),
    JournalFailed(DbErr),
}

impl Settlement {
    /// A simulation revert names its cause; the RPC being down is nobody's payment problem.
    fn from_chain_error(error: ChainError) -> Self {
        match error {
            ChainError::Unavailable(_) => Self::ChainDown(error),
            ChainError::Refused(message) => Self::Refused {
                reason: revert_reason(&message),
                detail: format!("the settlement would fail: {message}"),
            },
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
