//! What the outbox tables (`payments`, `cashouts`) share. A row moves through states; each
//! write is stamped and applies only while the row is still in a state the writer expects. The
//! house's transaction for a row is journalled in the database transaction that writes it on
//! the row, and the chips a row moves carry its name in the ledger. The reconciler counts and
//! lists the rows not finished.

use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    UpdateMany, Value,
};

use super::entities::cashout::{self, CashoutStatus};
use super::entities::house_transaction::Purpose;
use super::entities::ledger::LedgerKind;
use super::entities::payment::{self, PaymentState};
use super::ledger::{self, Entry, Pocket};
use super::{Db, Unfinished, house};

/// A table of rows that move through states until they are done.
pub trait Outbox: EntityTrait {
    /// A row's state.
    type State: Into<Value> + Copy + 'static;
    /// How the house journal and the ledger name a row: `<NAME>:<id>`.
    const NAME: &'static str;
    /// What the house's transactions for a row are for.
    const PURPOSE: Purpose;
    /// The states a row is not done in.
    const UNFINISHED: &'static [Self::State];
    const ID: Self::Column;
    const STATE: Self::Column;
    const CREATED_AT: Self::Column;
    const UPDATED_AT: Self::Column;
}

impl Outbox for payment::Entity {
    type State = PaymentState;
    const NAME: &'static str = "payment";
    const PURPOSE: Purpose = Purpose::Settlement;
    const UNFINISHED: &'static [PaymentState] = &[PaymentState::Settling];
    const ID: payment::Column = payment::Column::Id;
    const STATE: payment::Column = payment::Column::State;
    const CREATED_AT: payment::Column = payment::Column::CreatedAt;
    const UPDATED_AT: payment::Column = payment::Column::UpdatedAt;
}

impl Outbox for cashout::Entity {
    type State = CashoutStatus;
    const NAME: &'static str = "cashout";
    const PURPOSE: Purpose = Purpose::Cashout;
    const UNFINISHED: &'static [CashoutStatus] = &[CashoutStatus::Pending, CashoutStatus::Sent];
    const ID: cashout::Column = cashout::Column::Id;
    const STATE: cashout::Column = cashout::Column::Status;
    const CREATED_AT: cashout::Column = cashout::Column::CreatedAt;
    const UPDATED_AT: cashout::Column = cashout::Column::UpdatedAt;
}

/// How the house journal and the ledger name row `id`: `payment:<id>`, `cashout:<id>`.
pub fn reference<E: Outbox>(id: i64) -> String {
    format!("{}:{id}", E::NAME)
}

/// An update of row `id` (stamped `at`) that applies only while it is in one of `from`.
pub(super) fn while_in<E: Outbox>(id: i64, from: &[E::State], at: i64) -> UpdateMany<E> {
    E::update_many()
        .col_expr(E::UPDATED_AT, Expr::value(at))
        .filter(E::ID.eq(id))
        .filter(E::STATE.is_in(from.iter().copied()))
}

/// Write-ahead: row `id`, while in one of `from`, updated by `set`, and the house's `signed`
/// transaction in the house journal under the row's name, in one transaction; `false`
/// (nothing written) if the update changed no row. The guard on the row and the name it is
/// journalled under are made here, from the one `id`.
pub(super) async fn journal<E: Outbox>(
    db: &Db,
    (id, from): (i64, &[E::State]),
    set: impl FnOnce(UpdateMany<E>) -> UpdateMany<E>,
    signed: &house::Signed<'_>,
    at: i64,
) -> Result<bool, DbErr> {
    let update = set(while_in::<E>(id, from, at));
    let txn = super::begin(db).await?;
    let updated = update.exec(&txn).await?;
    if !super::happened(updated) {
        return Ok(false);
    }
    house::record(&txn, signed, E::PURPOSE, &reference::<E>(id), at).await?;
    txn.commit().await?;
    Ok(true)
}

/// Credits `chips` to the paid pocket of `address`, the ledger row (`kind`) naming row `id`.
pub(super) async fn credit_paid<E: Outbox>(
    db: &impl ConnectionTrait,
    id: i64,
    address: &str,
    chips: i64,
    kind: LedgerKind,
    at: i64,
) -> Result<(), DbErr> {
    let reference = reference::<E>(id);
    let entry = Entry {
        kind,
        reference: &reference,
        at,
    };
    ledger::credit(db, address, chips, Pocket::Paid, entry).await?;
    Ok(())
}

/// The rows not finished: how many, and when the oldest was created.
pub(super) async fn unfinished<E: Outbox>(db: &Db) -> Result<Unfinished, DbErr> {
    let found: Option<(i64, Option<i64>)> = E::find()
        .select_only()
        .column_as(E::ID.count(), "count")
        .column_as(E::CREATED_AT.min(), "oldest_at")
        .filter(E::STATE.is_in(E::UNFINISHED.iter().copied()))
        .into_tuple()
        .one(db)
        .await?;
    Ok(
        found.map_or_else(Default::default, |(count, oldest_at)| Unfinished {
            count,
            oldest_at,
        }),
    )
}

/// The rows not finished and untouched since `before`, oldest first.
pub(super) async fn unfinished_since<E: Outbox>(
    db: &Db,
    before: i64,
) -> Result<Vec<E::Model>, DbErr> {
    E::find()
        .filter(E::STATE.is_in(E::UNFINISHED.iter().copied()))
        .filter(E::UPDATED_AT.lte(before))
        .order_by_asc(E::ID)
        .all(db)
        .await
}
