//! Every step that moves chips or money, logged once with its ids (and counted where it ends a
//! purchase or a cashout). Callers log here only after the step is durable and only when their
//! call made it (a step another request or instance made is logged there).

use super::metrics;

/// A payment was accepted for settling: an authorization reserved for chips.
pub fn purchase_reserved(payment: i64, payer: &str, tier: &str, amount: &str) {
    tracing::info!(
        payment,
        payer,
        tier,
        amount,
        "purchase: authorization reserved"
    );
}

/// The payment's settlement transaction was submitted (by the house or a facilitator).
pub fn settlement_submitted(payment: i64, tx: &str, by: &'static str) {
    tracing::info!(payment, tx, by, "settlement: transaction submitted");
}

/// A settlement the chain's fees outgrew, signed again with its nonce at a higher fee.
pub fn settlement_replaced(payment: i64, replaced: &str, tx: &str, max_fee_per_gas: u128) {
    tracing::info!(
        payment,
        replaced,
        tx,
        max_fee_per_gas = %max_fee_per_gas,
        "settlement: replaced at a higher fee"
    );
}

/// The chain proved the payment: chips credited.
pub fn credited(payment: i64, payer: &str, tx: &str, chips: i64) {
    metrics::purchase_finished("settled");
    tracing::info!(
        payment,
        payer,
        tx,
        chips,
        "credit: payment proven, chips credited"
    );
}

/// The chain proved the payment will never be paid: nothing credited.
pub fn purchase_failed(payment: i64, error: &str) {
    metrics::purchase_finished("failed");
    tracing::warn!(payment, error, "purchase failed: nothing credited");
}

/// Free chips granted to a wallet.
pub fn granted(address: &str, chips: i64) {
    metrics::chips_granted(chips);
    tracing::info!(address, chips, "free chips granted");
}

/// Chips debited for a cashout, now owed as tokens.
pub fn cashout_opened(cashout: i64, address: &str, chips: i64, amount: &str) {
    tracing::info!(cashout, address, chips, amount, "cashout: chips debited");
}

/// The cashout's transfer was signed, journalled and broadcast.
pub fn cashout_sent(cashout: i64, tx: &str) {
    tracing::info!(cashout, tx, "cashout: transfer broadcast");
}

/// The cashout's transfer was replaced by `tx`: its nonce, a higher fee, journalled and
/// broadcast (the replaced one stays journalled; whichever is mined pays).
pub fn cashout_replaced(cashout: i64, replaced: &str, tx: &str, max_fee_per_gas: u128) {
    tracing::info!(
        cashout,
        replaced,
        tx,
        max_fee_per_gas = %max_fee_per_gas,
        "cashout: transfer replaced at a higher fee"
    );
}

/// The cashout's transfer is mined deep enough: paid.
pub fn cashout_confirmed(cashout: i64, tx: &str) {
    metrics::cashout_finished("confirmed");
    tracing::info!(cashout, tx, "cashout: transfer confirmed");
}

/// The cashout was never paid: its chips are back.
pub fn refunded(cashout: i64, error: &str) {
    metrics::cashout_finished("failed");
    tracing::warn!(cashout, error, "refund: cashout failed, chips returned");
}
