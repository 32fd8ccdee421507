//! `house_books`: how far the books have matched each house key's transactions on the chain,
//! and recording again, in one transaction each, a house transaction the database forgot (a
//! restore from an older copy): its journal row (whose hash is the guard: recorded once,
//! however many instances find it), its cashout or payment row, the chips it moved, and the
//! books' cursor past its nonce.

use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter,
    TransactionTrait,
};

use super::entities::cashout::{self, CashoutStatus};
use super::entities::house_book;
use super::entities::house_transaction::{self, Purpose};
use super::entities::ledger::LedgerKind;
use super::entities::payment::{self, PaymentState};
use super::entities::wallet;
use super::{Db, ledger, outbox};

/// Where the books stand for one house key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub next_nonce: u64,
    pub block: u64,
}

/// The cursor of `sender`; a new books starting at `start` if it has none (the deployment's
/// first sight of the key: nothing it sent before is this deployment's).
pub async fn cursor(db: &Db, sender: &str, start: Cursor, at: i64) -> Result<Cursor, DbErr> {
    let row = house_book::ActiveModel {
        sender: Set(sender.to_owned()),
        next_nonce: Set(stored(start.next_nonce)?),
        block: Set(stored(start.block)?),
        started_at: Set(at),
        updated_at: Set(at),
    };
    house_book::Entity::insert(row)
        .on_conflict(
            OnConflict::column(house_book::Column::Sender)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    let row = house_book::Entity::find_by_id(sender.to_owned())
        .one(db)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound(format!("house books of {sender}")))?;
    Ok(Cursor {
        next_nonce: u64::try_from(row.next_nonce).unwrap_or(0),
        block: u64::try_from(row.block).unwrap_or(0),
    })
}

/// Moves the cursor of `sender` past `nonce` (mined after `block`), unless it already is.
async fn advance(
    db: &impl ConnectionTrait,
    sender: &str,
    nonce: u64,
    block: u64,
    at: i64,
) -> Result<(), DbErr> {
    house_book::Entity::update_many()
        .col_expr(
            house_book::Column::NextNonce,
            Expr::value(stored(nonce + 1)?),
        )
        .col_expr(house_book::Column::Block, Expr::value(stored(block)?))
        .col_expr(house_book::Column::UpdatedAt, Expr::value(at))
        .filter(house_book::Column::Sender.eq(sender))
        .filter(house_book::Column::NextNonce.lte(stored(nonce)?))
        .exec(db)
        .await?;
    Ok(())
}

/// The nonce matched to a transaction the journal knows (or to one that moved no chips).
pub async fn matched(db: &Db, sender: &str, nonce: u64, block: u64, at: i64) -> Result<(), DbErr> {
    advance(db, sender, nonce, block, at).await
}

/// A house transaction the database forgot, as the chain shows it.
#[derive(Debug, Clone)]
pub struct Forgotten<'a> {
    pub sender: &'a str,
    pub hash: &'a str,
    pub nonce: u64,
    /// A block by which the next nonce was not mined (for the cursor).
    pub block: u64,
    pub at: i64,
}

/// A forgotten cashout: `chips` of `to` paid out. Recorded `confirmed`, its chips debited
/// (every paid chip first, then free ones, never below zero: what the chain paid is gone,
/// whatever the copy held). `false` if another pass recorded it first.
pub async fn cashout_again(
    db: &Db,
    forgotten: &Forgotten<'_>,
    (to, chips, terms): (&str, i64, (&str, &str)),
) -> Result<bool, DbErr> {
    let txn = db.begin().await?;
    let nonce = stored(forgotten.nonce)?;
    ledger::ensure_wallet(&txn, to, forgotten.at).await?;
    let row = cashout::ActiveModel {
        address: Set(to.to_owned()),
        chips: Set(chips),
        amount: Set(
            (u64::try_from(chips).unwrap_or(0) * crate::tiers::BASE_UNITS_PER_CHIP).to_string(),
        ),
        asset: Set(terms.0.to_owned()),
        network: Set(terms.1.to_owned()),
        status: Set(CashoutStatus::Confirmed),
        tx_nonce: Set(Some(nonce)),
        tx_hash: Set(Some(forgotten.hash.to_owned())),
        raw_tx: Set(None),
        error: Set(None),
        created_at: Set(forgotten.at),
        updated_at: Set(forgotten.at),
        ..Default::default()
    };
    let id = cashout::Entity::insert(row)
        .exec(&txn)
        .await?
        .last_insert_id;
    let reference = outbox::reference::<cashout::Entity>(id);
    if !journal(&txn, forgotten, Purpose::Cashout, &reference).await? {
        return Ok(false);
    }
    let held = ledger::wallet(&txn, to).await?;
    let (balance, free) = held.map_or((0, 0), |w| (w.chips, w.free_chips));
    let taken = Ord::min(chips, balance);
    let free_taken = Ord::max(taken - (balance - free), 0);
    // Nothing held: nothing to take (the ledger keeps no empty movement).
    if taken > 0 {
        wallet::Entity::update_many()
            .col_expr(
                wallet::Column::Chips,
                Expr::col(wallet::Column::Chips).sub(taken),
            )
            .col_expr(
                wallet::Column::FreeChips,
                Expr::col(wallet::Column::FreeChips).sub(free_taken),
            )
            .filter(wallet::Column::Address.eq(to))
            .exec(&txn)
            .await?;
        let entry = ledger::Entry {
            kind: LedgerKind::Cashout,
            reference: &reference,
            at: forgotten.at,
        };
        ledger::record(&txn, to, (-taken, -free_taken), balance - taken, entry).await?;
    }
    advance(
        &txn,
        forgotten.sender,
        forgotten.nonce,
        forgotten.block,
        forgotten.at,
    )
    .await?;
    txn.commit().await?;
    if taken < chips {
        tracing::warn!(
            address = to,
            paid = chips,
            held = balance,
            "a forgotten cashout paid more than the restored balance held: plays after the copy are lost, the balance is now 0"
        );
    }
    Ok(true)
}

/// A forgotten purchase the house settled: `payer`'s authorization `nonce` paid `amount`
/// base units to `pay_to`.
#[derive(Debug, Clone)]
pub struct PaidIn<'a> {
    pub payer: &'a str,
    pub nonce: &'a str,
    pub amount: String,
    pub valid_before: i64,
    /// The tier whose price is the amount, with its chips; `None`: no tier's price (nothing
    /// is credited, the payment recorded failed).
    pub tier: Option<(&'static str, i64)>,
    /// `(network, asset, pay_to)`.
    pub terms: (&'a str, &'a str, &'a str),
}

/// What recording a forgotten purchase did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaidInRecorded {
    /// Its payment row is settled now, its chips credited.
    Credited,
    /// Its payment row already said what the chain says (or another pass recorded it).
    AlreadyKnown,
    /// Its amount is no tier's price: recorded failed, nothing credited.
    NoTier,
}

/// A forgotten purchase: its payment row (inserted, or a `settling` one) settled with the
/// chips of its tier credited to the payer, once.
pub async fn purchase_again(
    db: &Db,
    forgotten: &Forgotten<'_>,
    paid: &PaidIn<'_>,
) -> Result<PaidInRecorded, DbErr> {
    let txn = db.begin().await?;
    let existing = payment::Entity::find()
        .filter(payment::Column::Payer.eq(paid.payer))
        .filter(payment::Column::Nonce.eq(paid.nonce))
        .one(&txn)
        .await?;
    let (tier, chips) = paid.tier.unwrap_or(("none", 1));
    let state = if paid.tier.is_some() {
        PaymentState::Settled
    } else {
        PaymentState::Failed
    };
    let id = match existing {
        Some(row) if row.state != PaymentState::Settling => {
            advance(
                &txn,
                forgotten.sender,
                forgotten.nonce,
                forgotten.block,
                forgotten.at,
            )
            .await?;
            txn.commit().await?;
            return Ok(PaidInRecorded::AlreadyKnown);
        }
        Some(row) => {
            payment::Entity::update_many()
                .col_expr(payment::Column::State, Expr::value(state))
                .col_expr(payment::Column::TxHash, Expr::value(forgotten.hash))
                .col_expr(payment::Column::Tier, Expr::value(tier))
                .col_expr(payment::Column::Chips, Expr::value(chips))
                .col_expr(payment::Column::Amount, Expr::value(paid.amount.as_str()))
                .col_expr(payment::Column::UpdatedAt, Expr::value(forgotten.at))
                .filter(payment::Column::Id.eq(row.id))
                .exec(&txn)
                .await?;
            row.id
        }
        None => insert_paid(&txn, forgotten, paid, (tier, chips, state)).await?,
    };
    let reference = outbox::reference::<payment::Entity>(id);
    if !journal(&txn, forgotten, Purpose::Settlement, &reference).await? {
        return Ok(PaidInRecorded::AlreadyKnown);
    }
    let recorded = if paid.tier.is_some() {
        ledger::ensure_wallet(&txn, paid.payer, forgotten.at).await?;
        let kind = LedgerKind::Purchase;
        outbox::credit_paid::<payment::Entity>(&txn, id, paid.payer, chips, kind, forgotten.at)
            .await?;
        ledger::mark_bought_in(&txn, paid.payer).await?;
        PaidInRecorded::Credited
    } else {
        PaidInRecorded::NoTier
    };
    advance(
        &txn,
        forgotten.sender,
        forgotten.nonce,
        forgotten.block,
        forgotten.at,
    )
    .await?;
    txn.commit().await?;
    Ok(recorded)
}

async fn insert_paid(
    db: &impl ConnectionTrait,
    forgotten: &Forgotten<'_>,
    paid: &PaidIn<'_>,
    (tier, chips, state): (&str, i64, PaymentState),
) -> Result<i64, DbErr> {
    let (network, asset, pay_to) = paid.terms;
    let row = payment::ActiveModel {
        payer: Set(paid.payer.to_owned()),
        nonce: Set(paid.nonce.to_owned()),
        tier: Set(tier.to_owned()),
        chips: Set(chips),
        amount: Set(paid.amount.clone()),
        network: Set(network.to_owned()),
        asset: Set(asset.to_owned()),
        pay_to: Set(pay_to.to_owned()),
        valid_before: Set(paid.valid_before),
        from_block: Set(stored(forgotten.block)?),
        state: Set(state),
        settled_by: Set("house".to_owned()),
        tx_hash: Set(Some(forgotten.hash.to_owned())),
        raw_tx: Set(None),
        error: Set((state == PaymentState::Failed).then(|| {
            "invalid_exact_evm_payload_authorization_value_mismatch: found again on the chain, its amount is no tier's price".to_owned()
        })),
        created_at: Set(forgotten.at),
        updated_at: Set(forgotten.at),
        payment_identifier: Set(None),
        payment_fingerprint: Set(None),
        ..Default::default()
    };
    Ok(payment::Entity::insert(row).exec(db).await?.last_insert_id)
}

/// The house journal's row for a transaction found again; `false` (and nothing written) when
/// it is there already.
async fn journal(
    db: &impl ConnectionTrait,
    forgotten: &Forgotten<'_>,
    purpose: Purpose,
    reference: &str,
) -> Result<bool, DbErr> {
    let row = house_transaction::ActiveModel {
        hash: Set(forgotten.hash.to_owned()),
        nonce: Set(stored(forgotten.nonce)?),
        purpose: Set(purpose),
        reference: Set(reference.to_owned()),
        created_at: Set(forgotten.at),
        sender: Set(Some(forgotten.sender.to_owned())),
    };
    let inserted = house_transaction::Entity::insert(row)
        .on_conflict(
            OnConflict::column(house_transaction::Column::Hash)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    Ok(inserted == 1)
}

fn stored(value: u64) -> Result<i64, DbErr> {
    i64::try_from(value).map_err(|e| DbErr::Custom(e.to_string()))
}
