use sea_orm::entity::prelude::*;

/// The one row saying which bets `floor_totals` holds: every bet up to `last_bet_id`, split by
/// the house wallets listed in `house_wallets`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "floor_watermark")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i32,
    pub last_bet_id: i64,
    /// The house wallets' keys (sorted, comma-separated) the totals were split by: when the
    /// settings name others, the totals are folded again from the first bet.
    pub house_wallets: String,
    pub folded_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
