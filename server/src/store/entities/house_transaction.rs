use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "house_transactions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub hash: String,
    pub nonce: i64,
    pub purpose: Purpose,
    /// `payment:<id>` or `cashout:<id>`.
    pub reference: String,
    pub created_at: i64,
    /// The signing address (lowercase hex); `None` for rows journalled before senders were.
    pub sender: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// What a house transaction does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "Text")]
pub enum Purpose {
    /// `transferWithAuthorization` of a purchase.
    #[sea_orm(string_value = "settlement")]
    Settlement,
    /// A cashout's ERC-20 `transfer`.
    #[sea_orm(string_value = "cashout")]
    Cashout,
}
