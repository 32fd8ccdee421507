//! Where the token's logs are searched for a payment's nonce (`payments.from_block`), moved
//! for a payment decided from blocks older than the ones searched by default.

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbErr, QueryFilter};

use super::Db;
use super::entities::payment::{self, PaymentState};
use super::outbox;
use super::payments::Attempt;

/// Payment `id`'s logs are searched from `from_block`, if it is still `settling` as `attempt`
/// (the reconciler reads it there); `false` if the row moved on.
pub async fn search_from(
    db: &Db,
    id: i64,
    attempt: Attempt,
    from_block: i64,
    at: i64,
) -> Result<bool, DbErr> {
    let updated = outbox::while_in::<payment::Entity>(id, &[PaymentState::Settling], at)
        .filter(payment::Column::CreatedAt.eq(attempt.began))
        .col_expr(payment::Column::FromBlock, Expr::value(from_block))
        .exec(db)
        .await?;
    Ok(super::happened(updated))
}
