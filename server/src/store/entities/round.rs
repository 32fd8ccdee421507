use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "rounds")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub address: String,
    pub server_seed: String,
    pub commitment: String,
    pub state: RoundState,
    pub created_at: i64,
    pub spent_at: Option<i64>,
    /// Set when an open round passed `rounds.ttl_secs` or its owner rotated: it can no longer
    /// be played (no chips were taken at commit, so nothing is owed).
    pub expired_at: Option<i64>,
    /// The seed batch the server seed came from (none for rounds before batches).
    pub batch_id: Option<i64>,
    /// The seed's index in its batch.
    pub seed_index: Option<i64>,
    /// The house's EIP-712 signature of the commitment, made at commit.
    pub commitment_signature: Option<String>,
    /// The round whose play opened this one (`next_round`); none for a round a commit opened.
    pub predecessor_id: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

#[derive(Debug, Clone, Copy, PartialEq, Eq, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "Text")]
pub enum RoundState {
    /// Committed; the server seed is secret.
    #[sea_orm(string_value = "open")]
    Open,
    /// Played once; its bet reveals the seed.
    #[sea_orm(string_value = "spent")]
    Spent,
}
