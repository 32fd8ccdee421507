use sea_orm::entity::prelude::*;

/// How far the books have matched a house key's transactions on the chain (`service::books`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "house_books")]
pub struct Model {
    /// The house key's address (lowercase hex).
    #[sea_orm(primary_key, auto_increment = false)]
    pub sender: String,
    /// Every house transaction with a nonce below it that moved the token is in the books.
    pub next_nonce: i64,
    /// The token's logs are read up to this block (and `next_nonce` was not mined by it).
    pub block: i64,
    /// What the house key held of the token at `block` (decimal base units), if read.
    pub house_balance: Option<String>,
    /// What the pay-to address held of the token at `block`, if read.
    pub pay_to_balance: Option<String>,
    pub started_at: i64,
    pub updated_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
