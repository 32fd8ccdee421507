//! The x402 `payment-identifier` of a purchase: read and checked before anything else
//! (`x402::payment_identifier`), stored with the payment (unique in `payments`, so across
//! instances), and answered from the store when the same payment comes again under it.

use super::{Payments, Purchase, PurchaseError, Purchases};
use crate::address;
use crate::store::entities::payment::{self, PaymentState};
use crate::store::payments::Identified;
use crate::store::{self};
use crate::x402::payment_identifier::{fingerprint, identifier};
use crate::x402::wire::{decode_json, decode_payment};

/// The payment's identifier and fingerprint, if it carries one; an unreadable payment has
/// none here (verification refuses it as before), a malformed identifier is refused.
pub(super) fn identified(header: &str) -> Result<Option<Identified>, PurchaseError> {
    let (Ok(json), Ok(payment)) = (decode_json(header), decode_payment(header)) else {
        return Ok(None);
    };
    let id = identifier(&json).map_err(PurchaseError::IdentifierInvalid)?;
    Ok(id.map(|id| Identified {
        id,
        fingerprint: fingerprint(&payment),
    }))
}

impl Purchases {
    /// The original answer when this identifier's payment was settled and this is the same
    /// payment; a conflict when the identifier came with another payment; `None` to go on
    /// (a new identifier, or its payment still settling or failed: reserving answers those).
    pub(super) async fn answered_before(
        &self,
        payments: &Payments,
        identified: &Identified,
    ) -> Result<Option<Purchase>, PurchaseError> {
        let Some((row, balance)) = store::payments::by_identifier(&self.db, &identified.id).await?
        else {
            return Ok(None);
        };
        if row.payment_fingerprint.as_deref() != Some(identified.fingerprint.as_str()) {
            return Err(PurchaseError::IdentifierConflict(identified.id.clone()));
        }
        Ok((row.state == PaymentState::Settled).then(|| answer(payments, row, balance)))
    }
}

/// What a settled payment's purchase answers, with the payer's balance after its credit.
pub(super) fn answer(payments: &Payments, row: payment::Model, balance: i64) -> Purchase {
    Purchase {
        address: address::display_key(&row.payer),
        tier: row.tier,
        chips_credited: row.chips,
        balance,
        tx_hash: row.tx_hash.unwrap_or_default(),
        network: row.network,
        amount: row.amount,
        asset: payments.terms.asset.to_checksum(None),
        payment_id: row.id,
    }
}
