use sea_orm::entity::prelude::*;

/// A published batch of server seeds: its signed Merkle root, and how many of its indices
/// commits have taken.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "seed_batches")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub size: i64,
    /// The next index a commit takes; `size` when the batch is used up.
    pub next_index: i64,
    /// RFC 9162 tree head over the seeds' commitments (hex).
    pub merkle_root: String,
    pub created_at: i64,
    /// The house's EIP-712 signature of the `SeedBatch`.
    pub signature: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
