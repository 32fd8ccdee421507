use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "bets")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub round_id: String,
    pub address: String,
    pub game: String,
    pub client_seed: String,
    pub nonce: i64,
    pub wager: i64,
    pub params: String,
    pub result: String,
    pub won: bool,
    pub payout: i64,
    pub profit: i64,
    pub settled_at: i64,
    /// The house's EIP-712 signature of the receipt (none for rounds before signing began).
    pub receipt_signature: Option<String>,
    /// The round's commitment, copied from `rounds` so that the recent rounds read bets alone.
    pub commitment: String,
    /// When the round was committed (ms), copied from `rounds` likewise.
    pub committed_at: i64,
    /// Chips of the wager taken from the free pocket (play money).
    pub free_wagered: i64,
    /// Chips of the payout credited to the free pocket (play money).
    pub free_paid: i64,
    /// Played by one of the house's own wallets, as recorded (and signed) at settlement; `None`
    /// for bets settled before it was recorded.
    pub house_agent: Option<bool>,
    /// The player's EIP-712 `Play` signature (docs/proofs.md), checked before settlement;
    /// `None` for a play sent without one.
    pub play_signature: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    #[sea_orm(
        belongs_to = "super::round::Entity",
        from = "Column::RoundId",
        to = "super::round::Column::Id"
    )]
    Round,
}

impl Related<super::round::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Round.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
