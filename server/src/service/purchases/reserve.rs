//! Step 2: the authorization's `(payer, nonce)` row, claimed for one request. The pair is
//! unique in `payments`, so a replayed or racing copy stops here; a `failed` row may be claimed
//! again, as a fresh attempt whose terms (this request's) replace the earlier ones.

use alloy::primitives::U256;

use super::PurchaseError;
use super::Purchases;
use super::claim::Claim;
use crate::address;
use crate::chain::proof::ExpectedPayment;
use crate::service::error::ServiceError;
use crate::service::now_ms;
use crate::service::payments::Payments;
use crate::store::entities::payment;
use crate::store::payments::{Attempt, Identified, NewPayment, Reserved};
use crate::store::{self, DbErr};
use crate::telemetry::money;
use crate::tiers::Tier;
use crate::x402::verify::Verified;

/// The token's logs are searched for the nonce's use from this many blocks before the one the
/// nonce was checked unused at, so an RPC behind a load balancer that lags a little cannot hide
/// a use from the search.
const FROM_BLOCK_MARGIN: u64 = 128;

impl Purchases {
    /// Claims the authorization for this request: a new row, or a failed one tried again.
    pub(super) async fn reserve(
        &self,
        verified: &Verified,
        tier: &Tier,
        payments: &Payments,
        identified: Option<Identified>,
        fingerprint: Option<String>,
    ) -> Result<Claim, PurchaseError> {
        let auth = &verified.authorization;
        let head = payments
            .chain
            .block_number()
            .await
            .map_err(|error| ServiceError::ChainUnavailable(error.to_string()))?;
        let from_block = head.saturating_sub(FROM_BLOCK_MARGIN);
        let new = NewPayment {
            payer: address::key(&auth.from),
            nonce: auth.nonce.to_string(),
            tier: tier.name,
            chips: i64::try_from(tier.chips).map_err(PurchaseError::internal)?,
            amount: auth.value.to_string(),
            network: payments.terms.network.clone(),
            asset: address::key(&payments.terms.asset),
            pay_to: address::key(&payments.terms.pay_to),
            // x402::verify bounds validBefore to a few minutes ahead, so it fits.
            valid_before: i64::try_from(auth.validBefore).unwrap_or(i64::MAX),
            from_block: i64::try_from(from_block).map_err(PurchaseError::internal)?,
            rail: payments.rails.chosen_name(),
            at: now_ms(),
            identified: identified.clone(),
            fingerprint,
        };
        match store::payments::reserve(&self.db, new).await? {
            Reserved::Held { id, attempt } => {
                let payer = address::key(&auth.from);
                money::purchase_reserved(id, &payer, tier.name, &auth.value.to_string());
                Ok(Claim {
                    id,
                    expected: ExpectedPayment {
                        payer: auth.from,
                        pay_to: auth.to,
                        nonce: auth.nonce,
                    },
                    from_block,
                    valid_before: auth.validBefore,
                    attempt: Attempt {
                        began: attempt,
                        read_at: None,
                    },
                })
            }
            Reserved::IdentifierTaken => Err(PurchaseError::IdentifierConflict(
                identified
                    .map(|identified| identified.id)
                    .unwrap_or_default(),
            )),
            Reserved::Taken { state, tx_hash } => Err(PurchaseError::AlreadyPresented {
                state,
                tx_hash,
                payer: auth.from,
            }),
        }
    }
}

impl Claim {
    /// The claim a stored row stands for (the reconciler's view of a payment).
    pub(crate) fn of(row: &payment::Model) -> Result<Self, DbErr> {
        let invalid =
            |what: &str| DbErr::Custom(format!("payment {} has an unreadable {what}", row.id));
        Ok(Self {
            id: row.id,
            expected: ExpectedPayment {
                payer: address::parse(&row.payer).ok_or_else(|| invalid("payer"))?,
                pay_to: address::parse(&row.pay_to).ok_or_else(|| invalid("pay_to"))?,
                nonce: row.nonce.parse().map_err(|_| invalid("nonce"))?,
            },
            from_block: u64::try_from(row.from_block).unwrap_or(0),
            valid_before: U256::from(u64::try_from(row.valid_before).unwrap_or(0)),
            attempt: Attempt {
                began: row.created_at,
                read_at: Some(row.updated_at),
            },
        })
    }
}
