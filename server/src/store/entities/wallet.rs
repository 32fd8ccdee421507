use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "wallets")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub address: String,
    pub chips: i64,
    pub bought_in: bool,
    pub free_claimed: bool,
    /// Chips granted for free, in all: play money that a cashout may not take.
    pub free_granted: i64,
    pub net_day: i64,
    pub net_today: i64,
    pub created_at: i64,
    /// Rounds this address holds open (committed, not played, not expired).
    pub open_rounds: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
