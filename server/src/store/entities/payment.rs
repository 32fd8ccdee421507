use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "payments")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub payer: String,
    pub nonce: String,
    pub tier: String,
    pub chips: i64,
    pub amount: String,
    pub network: String,
    pub asset: String,
    pub pay_to: String,
    pub valid_before: i64,
    /// The token's logs are searched from this block for the transaction that used the nonce.
    pub from_block: i64,
    pub state: PaymentState,
    /// The name of the rail that recorded it (`payments.rail`), which resumes it.
    pub settled_by: String,
    pub tx_hash: Option<String>,
    pub raw_tx: Option<String>,
    pub error: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    /// The x402 `payment-identifier` the client sent with it (unique), if any.
    pub payment_identifier: Option<String>,
    /// The fingerprint of the payment sent under that identifier.
    pub payment_fingerprint: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// A payment's state: `settling` (reserved by one request; its transaction, if any, is journalled
/// before its broadcast), `settled` (proven paid, chips credited in the same transaction),
/// `failed` (proven never to be paid, paid a value that is no tier's price, or refused before
/// anything was sent; may be presented again, as a fresh attempt with its own terms).
#[derive(Debug, Clone, Copy, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "Text")]
pub enum PaymentState {
    #[sea_orm(string_value = "settling")]
    Settling,
    #[sea_orm(string_value = "settled")]
    Settled,
    #[sea_orm(string_value = "failed")]
    Failed,
}
