use arcade_core::Game;
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "bets")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub round_id: String,
    pub address: String,
    pub game: BetGame,
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

/// A bet's game: stored as its name, read back only as a game the fairness core knows (any
/// other name is a read error, not a guess).
#[derive(Clone, Copy, Debug, PartialEq, Eq, DeriveValueType)]
#[sea_orm(
    value_type = "String",
    from_str = "BetGame::parse",
    to_str = "BetGame::name"
)]
pub struct BetGame(pub Game);

/// A stored game name the fairness core does not know.
#[derive(Debug, thiserror::Error)]
#[error("no game is named {0:?}")]
pub struct UnknownGame(String);

impl BetGame {
    fn parse(name: &str) -> Result<Self, UnknownGame> {
        Game::parse(name)
            .map(Self)
            .ok_or_else(|| UnknownGame(name.to_owned()))
    }

    fn name(&self) -> &'static str {
        self.0.as_str()
    }
}

impl serde::Serialize for BetGame {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_stored_by_its_name_and_only_a_known_name_reads_back() {
        for game in Game::ALL {
            let stored: sea_orm::Value = BetGame(game).into();
            assert_eq!(stored, sea_orm::Value::from(game.as_str()));
            let read = <BetGame as sea_orm::sea_query::ValueType>::try_from(stored).unwrap();
            assert_eq!(read, BetGame(game));
        }
        let plinko = sea_orm::Value::from("plinko");
        assert!(<BetGame as sea_orm::sea_query::ValueType>::try_from(plinko).is_err());
    }
}
