use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ledger")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub address: String,
    pub kind: LedgerKind,
    pub delta: i64,
    pub balance_after: i64,
    pub reference: String,
    pub created_at: i64,
    /// The change of the free pocket in `delta` (the rest of it is the paid pocket's).
    pub free_delta: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// Why a balance changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "Text")]
pub enum LedgerKind {
    #[sea_orm(string_value = "free")]
    Free,
    #[sea_orm(string_value = "purchase")]
    Purchase,
    #[sea_orm(string_value = "wager")]
    Wager,
    #[sea_orm(string_value = "win")]
    Win,
    #[sea_orm(string_value = "cashout")]
    Cashout,
    #[sea_orm(string_value = "refund")]
    Refund,
}
