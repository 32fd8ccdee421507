//! What a house transaction the journal does not know did, read from the chain, and recording
//! it in the books: a payout as a cashout, a settlement as a purchase.

use alloy::primitives::{Address, U256};

use super::Books;
use crate::address;
use crate::chain::Chain;
use crate::chain::history::{SentBy, SettlementCall, TokenMove};
use crate::service::error::ServiceError;
use crate::service::payments::Payments;
use crate::store;
use crate::store::books::{Forgotten, PaidIn, Recorded};
use crate::tiers::Tier;

/// What a house transaction found in the logs did.
pub(super) enum Found {
    Payout {
        to: Address,
        value: U256,
    },
    Settlement {
        call: SettlementCall,
        value: U256,
    },
    /// It moved the token otherwise (a mint, say): no chips.
    Neither,
}

impl Books {
    pub(super) async fn cashout_again(
        &self,
        payments: &Payments,
        forgotten: &Forgotten<'_>,
        to: Address,
        value: U256,
    ) -> Result<Recorded, ServiceError> {
        let base_units = u64::try_from(value).map_err(ServiceError::internal)?;
        let (to, asset) = (address::key(&to), address::key(&payments.terms.asset));
        let terms = (asset.as_str(), payments.terms.network.as_str());
        let recorded =
            store::books::cashout_again(&self.db, forgotten, (&to, base_units), terms).await?;
        match recorded {
            Recorded::Known => {}
            Recorded::NoWallet => {
                tracing::info!(
                    tx = forgotten.hash,
                    address = to,
                    base_units,
                    "a transfer out of the house key to an address with no wallet: the house's funds moved, no cashout"
                );
            }
            _ => {
                tracing::warn!(
                    tx = forgotten.hash,
                    address = to,
                    base_units,
                    ?recorded,
                    "a cashout the database did not know, recorded from the chain"
                );
            }
        }
        Ok(recorded)
    }

    pub(super) async fn purchase_again(
        &self,
        payments: &Payments,
        forgotten: &Forgotten<'_>,
        call: SettlementCall,
        value: U256,
    ) -> Result<Recorded, ServiceError> {
        let base_units = u64::try_from(value).unwrap_or(u64::MAX);
        let tier = Tier::priced_at(base_units)
            .and_then(|tier| Some((tier.name, i64::try_from(tier.chips).ok()?)));
        let (payer, nonce) = (address::key(&call.payer), call.nonce.to_string());
        let terms = &payments.terms;
        let (asset, pay_to) = (address::key(&terms.asset), address::key(&terms.pay_to));
        let paid = PaidIn {
            payer: &payer,
            nonce: &nonce,
            amount: value.to_string(),
            valid_before: i64::try_from(call.valid_before).unwrap_or(i64::MAX),
            tier,
            terms: (&terms.network, &asset, &pay_to),
        };
        let recorded = store::books::purchase_again(&self.db, forgotten, &paid).await?;
        if recorded != Recorded::Known {
            tracing::warn!(
                tx = forgotten.hash,
                payer,
                ?recorded,
                "a purchase the database did not know, recorded from the chain"
            );
        }
        Ok(recorded)
    }
}

/// What the house's transaction `sent`, whose token moves are `moves`, did: a transfer out of
/// the house key is a payout; a `transferWithAuthorization` to the pay-to address that moved the
/// payer's tokens there is a settlement.
pub(super) fn what(chain: &Chain, sent: &SentBy, moves: &[TokenMove]) -> Found {
    let house = chain.house_address();
    if let Some(out) = moves.iter().find(|m| m.from == house) {
        return Found::Payout {
            to: out.to,
            value: out.value,
        };
    }
    if let Some(call) = SettlementCall::of(&sent.input)
        && call.to == chain.pay_to()
        && let Some(paid) = moves
            .iter()
            .find(|m| m.from == call.payer && m.to == chain.pay_to())
    {
        return Found::Settlement {
            call,
            value: paid.value,
        };
    }
    Found::Neither
}
