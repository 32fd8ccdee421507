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
    pub state: String,
    pub settled_by: String,
    pub tx_hash: Option<String>,
    pub raw_tx: Option<String>,
    pub error: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

pub const SETTLING: &str = "settling";
pub const SETTLED: &str = "settled";
pub const FAILED: &str = "failed";

pub const BY_HOUSE: &str = "house";
pub const BY_FACILITATOR: &str = "facilitator";
