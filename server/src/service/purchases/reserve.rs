//! Step 2: the authorization's `(payer, nonce)` row, claimed for one request. The pair is
//! unique in `payments`, so a replayed or racing copy stops here; a `failed` row (nothing ever
//! moved for it) may be claimed again.

use alloy::primitives::U256;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ActiveValue::Set, ColumnTrait, DbErr, EntityTrait, QueryFilter};

use super::{Claim, Payments};
use crate::address;
use crate::chain::proof::ExpectedPayment;
use crate::entities::payment;
use crate::error::ApiError;
use crate::service::{Arcade, now_ms};
use crate::tiers::Tier;
use crate::x402::verify::Verified;

/// The token's logs are searched for the nonce's use from this many blocks before the one the
/// nonce was checked unused at, so an RPC behind a load balancer that lags a little cannot hide
/// a use from the search.
const FROM_BLOCK_MARGIN: u64 = 128;

impl Arcade {
    /// Claims the authorization for this request: a new row, or a failed one tried again.
    pub(super) async fn reserve(
        &self,
        verified: &Verified,
        tier: &Tier,
        payments: &Payments,
    ) -> Result<Claim, ApiError> {
        let auth = &verified.authorization;
        let head = payments
            .chain
            .block_number()
            .await
            .map_err(|error| ApiError::ChainUnavailable(error.to_string()))?;
        let from_block = head.saturating_sub(FROM_BLOCK_MARGIN);
        let payer = address::key(&auth.from);
        let nonce = auth.nonce.to_string();
        let now = now_ms();
        let chips = i64::try_from(tier.chips).map_err(ApiError::internal)?;
        let stored_from_block = i64::try_from(from_block).map_err(ApiError::internal)?;
        // x402::verify bounds validBefore to a few minutes ahead, so it fits.
        let valid_before = i64::try_from(auth.validBefore).unwrap_or(i64::MAX);
        let claim = |id| Claim {
            id,
            expected: ExpectedPayment {
                payer: auth.from,
                pay_to: auth.to,
                value: auth.value,
                nonce: auth.nonce,
            },
            from_block,
            valid_before: auth.validBefore,
        };
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
            from_block: Set(stored_from_block),
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
            Ok(result) => return Ok(claim(result.last_insert_id)),
            Err(DbErr::RecordNotInserted) => {}
            Err(error) => return Err(error.into()),
        }
        let retried = payment::Entity::update_many()
            .col_expr(payment::Column::State, Expr::value(payment::SETTLING))
            .col_expr(payment::Column::Tier, Expr::value(tier.name))
            .col_expr(payment::Column::Chips, Expr::value(chips))
            .col_expr(payment::Column::FromBlock, Expr::value(stored_from_block))
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
            return Ok(claim(row.id));
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
}

impl Claim {
    /// The claim a stored row stands for (the reconciler's view of a payment).
    pub(crate) fn of(row: &payment::Model) -> Result<Self, ApiError> {
        let invalid = |what: &str| {
            ApiError::internal(DbErr::Custom(format!(
                "payment {} has an unreadable {what}",
                row.id
            )))
        };
        Ok(Self {
            id: row.id,
            expected: ExpectedPayment {
                payer: address::parse(&row.payer).ok_or_else(|| invalid("payer"))?,
                pay_to: address::parse(&row.pay_to).ok_or_else(|| invalid("pay_to"))?,
                value: U256::from_str_radix(&row.amount, 10).map_err(|_| invalid("amount"))?,
                nonce: row.nonce.parse().map_err(|_| invalid("nonce"))?,
            },
            from_block: u64::try_from(row.from_block).unwrap_or(0),
            valid_before: U256::from(u64::try_from(row.valid_before).unwrap_or(0)),
        })
    }
}
