use sea_orm::entity::prelude::*;

/// One game's settled rounds for one side of the floor, folded in up to the watermark.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "floor_totals")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub scope: FloorScope,
    #[sea_orm(primary_key, auto_increment = false)]
    pub game: String,
    pub rounds: i64,
    pub wagered: i64,
    pub paid_out: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "Text")]
pub enum FloorScope {
    /// The service's own wallets (`house.wallets` and the house agents).
    #[sea_orm(string_value = "house")]
    House,
    /// Everyone else.
    #[sea_orm(string_value = "players")]
    Players,
}
