use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "cashouts")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub address: String,
    pub chips: i64,
    pub amount: String,
    pub asset: String,
    pub network: String,
    pub status: CashoutStatus,
    pub tx_nonce: Option<i64>,
    pub tx_hash: Option<String>,
    pub raw_tx: Option<String>,
    pub error: Option<String>,
    /// The client's `Idempotency-Key`, unique per address.
    pub idempotency_key: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// A cashout's status: an outbox, each step durable before the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "Text")]
pub enum CashoutStatus {
    /// Debited; once signed, its nonce, hash and raw bytes are journalled before the broadcast.
    #[sea_orm(string_value = "pending")]
    Pending,
    /// Broadcast; waiting for the receipt.
    #[sea_orm(string_value = "sent")]
    Sent,
    /// Mined deep enough (final).
    #[sea_orm(string_value = "confirmed")]
    Confirmed,
    /// Never paid: refunded in the transaction that set it (final).
    #[sea_orm(string_value = "failed")]
    Failed,
}

impl CashoutStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Sent => "sent",
            Self::Confirmed => "confirmed",
            Self::Failed => "failed",
        }
    }
}
