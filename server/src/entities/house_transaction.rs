use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "house_transactions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub hash: String,
    pub nonce: i64,
    pub purpose: String,
    /// `payment:<id>` or `cashout:<id>`.
    pub reference: String,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

pub const SETTLEMENT: &str = "settlement";
pub const CASHOUT: &str = "cashout";
