use sea_orm::entity::prelude::*;

/// The house's signed marks: one row (`id` 1), inserted once and never changed
/// (`service::signed_marks`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "signed_marks")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    /// Every bet from this id on carries its proofs.
    pub signed_from: i64,
    /// Every bet from this id on is signed with the `Receipt` type that includes `house_agent`.
    pub house_agent_signed_from: i64,
    /// The house's EIP-712 signature of both, made when the row was inserted.
    pub signature: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
