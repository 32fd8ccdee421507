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
    pub status: String,
    pub tx_nonce: Option<i64>,
    pub tx_hash: Option<String>,
    pub raw_tx: Option<String>,
    pub error: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

pub const PENDING: &str = "pending";
pub const SENT: &str = "sent";
pub const CONFIRMED: &str = "confirmed";
pub const FAILED: &str = "failed";
