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
use salvo::oapi::ToSchema;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ActiveValue::Set, ColumnTrait, DbErr, EntityTrait, QueryFilter, TransactionTrait};
use serde::Serialize;

use super::ledger::{self, Kind};
use super::{Arcade, now_ms};
use crate::address;
use crate::chain::Chain;
use crate::entities::{payment, wallet};
use crate::error::{ApiError, Challenge};
use crate::tiers::Tier;
use crate::x402::facilitator::Facilitator;
use crate::x402::verify::{self, Rejection, Verified};
use crate::x402::wire::{SettleResponse, decode_payment};
use crate::x402::{Terms, wire::PaymentRequired};

mod facilitated;
mod house;

/// The chain and the terms every offer is made on; present when a chain is configured.
pub struct Payments {
    pub chain: Chain,
    pub terms: Terms,
    /// Verify and settle through this x402 facilitator instead of by the house.
    pub facilitator: Option<Facilitator>,
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
        refusal: Option<(String, String)>,
        payer: Option<Address>,
        transaction: Option<String>,
    ) -> Result<ApiError, ApiError> {
        let payments = self.payments()?;
        let reason = refusal.as_ref().map(|(reason, _)| reason.clone());
        let required: PaymentRequired =
            payments
                .terms
                .payment_required(tier, resource_url.to_owned(), reason.clone());
        let settlement = reason.map(|reason| SettleResponse {
            success: false,
            error_reason: Some(reason),
            error_message: None,
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
                    Some((reason.to_owned(), detail)),
                    payer,
                    None,
                )?);
            }
        };
        let reservation = self.reserve(&verified, tier, payments).await?;
        let refuse = |reason: String, detail: String, transaction: Option<String>| {
            self.challenge(
                tier,
                resource_url,
                Some((reason, detail)),
                Some(reservation.payer),
                transaction,
            )
        };
        let settlement = match &payments.facilitator {
            Some(facilitator) => {
                self.settle_by_facilitator(
                    payments,
                    facilitator,
                    &reservation,
                    &verified,
                    header,
                    &offer,
                )
                .await
            }
            None => {
                self.settle_by_house(payments, &reservation, &verified)
                    .await
            }
        };
        match settlement {
            Settlement::Settled(tx_hash) => {
                let purchase = self
                    .credit_settled(payments, reservation.id, &tx_hash)
                    .await?;
                Ok(Paid {
                    settlement: SettleResponse {
                        success: true,
                        error_reason: None,
                        error_message: None,
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
                self.mark_failed(reservation.id, &error).await?;
                Err(ApiError::ChainUnavailable(error))
            }
            Settlement::Pending(tx_hash) => Err(refuse(
                "settlement_pending".into(),
                format!(
                    "the settlement{} is not confirmed yet; the chips are credited once it is (check the balance), do not pay again",
                    tx_hash
                        .as_deref()
                        .map(|h| format!(" {h}"))
                        .unwrap_or_default()
                ),
                tx_hash,
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
            settled_by: Set(match payments.facilitator {
                Some(_) => payment::BY_FACILITATOR,
                None => payment::BY_HOUSE,
            }
            .to_owned()),
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

impl Settlement {
    fn refused(reason: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::Refused {
            reason: reason.into(),
            detail: detail.into(),
        }
    }
}

/// How a settlement attempt ended.
enum Settlement {
    /// On-chain, with this transaction.
    Settled(String),
    /// Not settled, and nothing moved: the x402 reason and a sentence.
    Refused { reason: String, detail: String },
    /// The chain (or the facilitator) did not answer before anything was sent.
    ChainDown(String),
    /// Maybe settled: the transaction if one is known. The reconciler finishes it.
    Pending(Option<String>),
    /// The settlement could not be journalled; nothing was sent.
    JournalFailed(DbErr),
}
