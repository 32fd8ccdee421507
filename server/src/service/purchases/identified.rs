//! The x402 `payment-identifier` of a purchase: read and checked before anything else
//! (`x402::payment_identifier`), stored with the payment (unique in `payments`, so across
//! instances), and answered from the store when the same payment comes again under it.

use super::{Purchase, PurchaseError, Purchases};
use crate::address;
use crate::service::payments::Payments;
use crate::store::entities::payment::{self, PaymentState};
use crate::store::payments::Identified;
use crate::store::{self};
use crate::x402::payment_identifier::{fingerprint, identifier};
use crate::x402::wire::{decode_json, decode_payment};

/// The payment's identifier, payer and fingerprint, if it carries one; an unreadable payment
/// has none here (verification refuses it as before), a malformed identifier is refused.
pub(super) fn identified(header: &str) -> Result<Option<Identified>, PurchaseError> {
    let (Ok(json), Ok(payment)) = (decode_json(header), decode_payment(header)) else {
        return Ok(None);
    };
    let id = identifier(&json).map_err(PurchaseError::IdentifierInvalid)?;
    let Some(payer) = address::parse(&payment.payload.authorization.from) else {
        return Ok(None);
    };
    Ok(id.map(|id| Identified {
        payer: address::key(&payer),
        id,
        fingerprint: fingerprint(&payment),
    }))
}

/// The payment's fingerprint, whether or not it carries an identifier (a row that holds a key
/// records which payment its current attempt is).
pub(super) fn fingerprint_of(header: &str) -> Option<String> {
    decode_payment(header)
        .ok()
        .map(|payment| fingerprint(&payment))
}

impl Purchases {
    /// The original answer when the payer's payment under this identifier was settled and this
    /// is the same payment; a conflict when the payer sent the identifier with another payment;
    /// `None` to go on (a new identifier, or its payment still settling or failed: reserving
    /// answers those). A key is the payer's own: another payer's identical key is not looked at.
    pub(super) async fn answered_before(
        &self,
        payments: &Payments,
        identified: &Identified,
    ) -> Result<Option<Purchase>, PurchaseError> {
        let found =
            store::payments::by_identifier(&self.db, &identified.payer, &identified.id).await?;
        let Some(row) = found else {
            return Ok(None);
        };
        if row.payment_fingerprint.as_deref() != Some(identified.fingerprint.as_str()) {
            return Err(PurchaseError::IdentifierConflict(identified.id.clone()));
        }
        if row.state != PaymentState::Settled {
            return Ok(None);
        }
        let balance = store::payments::balance_after_credit(&self.db, &row).await?;
        Ok(Some(answer(payments, row, balance)))
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
