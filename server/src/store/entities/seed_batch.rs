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
    /// 32 random bytes (hex) drawn when the batch was created, in every seed's derivation;
    /// `None` for batches published before salts.
    pub salt: Option<String>,
    /// The running instance that published the batch, the only one that takes its indices.
    pub owner: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
