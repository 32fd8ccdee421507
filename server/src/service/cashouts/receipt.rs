//! A cashout as answers show it.

use salvo::oapi::ToSchema;
use serde::Serialize;

/// A cashout as responses show it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CashoutReceipt {
    pub cashout_id: i64,
    /// Where the tokens go (EIP-55).
    pub address: String,
    pub chips: i64,
    /// Token base units, decimal: chips x 100.
    pub amount: String,
    pub asset: String,
    pub network: String,
    /// `pending`, `sent`, `confirmed`, or `failed` (refunded).
    pub status: String,
    pub tx_hash: Option<String>,
    /// Why a `failed` cashout failed.
    pub error: Option<String>,
    /// Chips after the cashout (after the refund, if it failed).
    pub balance: i64,
}
