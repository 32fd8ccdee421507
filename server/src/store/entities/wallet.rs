use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "wallets")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub address: String,
    pub chips: i64,
    pub bought_in: bool,
    pub free_claimed: bool,
    /// Chips granted for free, in all (a record: the free pocket decides what is cashable).
    pub free_granted: i64,
    pub net_day: i64,
    pub net_today: i64,
    pub created_at: i64,
    /// Rounds this address holds open (committed, not played, not expired).
    pub open_rounds: i64,
    /// The free pocket of `chips`: play money. The rest, `chips - free_chips`, is paid and is
    /// what a cashout may take (`arcade_core::pockets`).
    pub free_chips: i64,
    /// The free pocket before the ledger's first `free_delta` (0 for wallets opened since):
    /// `free_chips = free_opening + SUM(ledger.free_delta)`.
    pub free_opening: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
