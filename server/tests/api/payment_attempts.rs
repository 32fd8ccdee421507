//! A failed payment row claimed again is a new attempt, and a decision about an earlier attempt,
//! or about a row that moved on since it was read, never ends it. The reconciler reads the rows
//! it judges, then asks the chain: while it asks, the request that holds the row may sign and
//! record its settlement, or fail it so that another request claims it again with new terms. The
//! reconciler's verdict on what it read (expired by the first attempt's window, never signed)
//! must not fail the row, whose settlement could then land with nothing credited. Shown on the
//! store that both go through, with the reconciler's stale writes made by hand.

use arcade_server::entities::house_transaction;
use arcade_server::entities::payment::{self, PaymentState};
use arcade_server::store::house::Signed;
use arcade_server::store::payments::{self as payments, Attempt, NewPayment, Reserved};
use sea_orm::EntityTrait;

use crate::helpers::TestApp;
use crate::on_both_backends;

fn presented(at: i64, tier: &'static str, chips: i64, amount: &str) -> NewPayment {
    NewPayment {
        payer: "0x00000000000000000000000000000000000000a1".into(),
        nonce: format!("0x{}", "ab".repeat(32)),
        tier,
        chips,
        amount: amount.into(),
        network: "eip155:31337".into(),
        asset: "0x00000000000000000000000000000000000000b2".into(),
        pay_to: "0x00000000000000000000000000000000000000c3".into(),
        valid_before: at / 1000 + 300,
        from_block: 0,
        rail: "house",
        at,
        identified: None,
        fingerprint: None,
    }
}

fn held(reserved: Reserved) -> (i64, Attempt) {
    match reserved {
        Reserved::Held { id, attempt } => (
            id,
            Attempt {
                began: attempt,
                read_at: None,
            },
        ),
        other => panic!("not held: {other:?}"),
    }
}

async fn a_verdict_on_an_earlier_attempt_never_fails_a_later_one(app: &TestApp) {
    let db = &app.arcade.db;
    let at = chrono::Utc::now().timestamp_millis();
    let (id, first) = held(
        payments::reserve(db, presented(at, "micro", 100, "10000"))
            .await
            .unwrap(),
    );
    assert!(
        payments::fail(db, id, first, "refused: insufficient_funds", at)
            .await
            .unwrap()
    );
    // Claimed again within the same millisecond: still a later attempt.
    let again = payments::reserve(db, presented(at, "medium", 10_000, "1000000")).await;
    let (same_id, second) = held(again.unwrap());
    assert_eq!(same_id, id);
    assert!(
        second.began > first.began,
        "{second:?} is not after {first:?}"
    );

    let stale = payments::fail(
        db,
        id,
        first,
        "expired (by the first attempt's window)",
        at + 5,
    );
    assert!(
        !stale.await.unwrap(),
        "the first attempt's verdict failed the second"
    );
    let row = payment::Entity::find_by_id(id)
        .one(db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (row.state, row.amount.as_str(), row.chips),
        (PaymentState::Settling, "1000000", 10_000)
    );
    assert!(
        payments::fail(db, id, second, "its own verdict", at + 6)
            .await
            .unwrap()
    );
}

on_both_backends!(a_verdict_on_an_earlier_attempt_never_fails_a_later_one);

async fn a_verdict_on_a_row_read_before_it_moved_never_fails_it(app: &TestApp) {
    let db = &app.arcade.db;
    let at = chrono::Utc::now().timestamp_millis() - 120_000;
    let (id, attempt) = held(
        payments::reserve(db, presented(at, "small", 1_000, "100000"))
            .await
            .unwrap(),
    );
    // The reconciler reads the row (nothing signed yet, untouched for two minutes)…
    let read = payment::Entity::find_by_id(id)
        .one(db)
        .await
        .unwrap()
        .unwrap();
    assert!(read.tx_hash.is_none());
    // …while it asks the chain, the request records its transaction…
    let now = chrono::Utc::now().timestamp_millis();
    let hash = format!("0x{}", "cd".repeat(32));
    assert!(
        payments::record_reported(db, id, attempt, &hash, now)
            .await
            .unwrap()
    );
    // …and the reconciler's verdict on what it read ("never signed") does not apply.
    let seen = Attempt {
        began: read.created_at,
        read_at: Some(read.updated_at),
    };
    let stale = payments::fail(
        db,
        id,
        seen,
        "stopped before the settlement was signed",
        now + 1,
    );
    assert!(
        !stale.await.unwrap(),
        "a verdict on a stale read failed the row"
    );
    let row = payment::Entity::find_by_id(id)
        .one(db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (row.state, row.tx_hash),
        (PaymentState::Settling, Some(hash))
    );
}

on_both_backends!(a_verdict_on_a_row_read_before_it_moved_never_fails_it);

/// A settlement the house signed, as the journal keeps it.
fn signed(hash: &str) -> Signed<'_> {
    Signed {
        hash,
        raw: &[0x02, 0x01],
        nonce: 7,
        sender: alloy::primitives::Address::repeat_byte(0x11),
    }
}

/// The write-ahead of a settlement is the attempt's own: an earlier attempt's signed settlement
/// writes nothing (not on the row, not in the house journal); the current one is journalled
/// under the row's name.
async fn only_the_current_attempt_journals_its_settlement(app: &TestApp) {
    let db = &app.arcade.db;
    let at = chrono::Utc::now().timestamp_millis();
    let (id, first) = held(
        payments::reserve(db, presented(at, "micro", 100, "10000"))
            .await
            .unwrap(),
    );
    assert!(payments::fail(db, id, first, "refused", at).await.unwrap());
    let (_, second) = held(
        payments::reserve(db, presented(at, "micro", 100, "10000"))
            .await
            .unwrap(),
    );
    let stale = format!("0x{}", "aa".repeat(32));
    let current = format!("0x{}", "bb".repeat(32));
    assert!(
        !payments::journal_settlement(db, id, first, &signed(&stale), at + 1)
            .await
            .unwrap()
    );
    assert!(
        payments::journal_settlement(db, id, second, &signed(&current), at + 2)
            .await
            .unwrap()
    );
    let journal = house_transaction::Entity::find().all(db).await.unwrap();
    let written: Vec<(&str, &str)> = journal
        .iter()
        .map(|row| (row.hash.as_str(), row.reference.as_str()))
        .collect();
    assert_eq!(
        written,
        [(current.as_str(), format!("payment:{id}").as_str())]
    );
    let row = payment::Entity::find_by_id(id)
        .one(db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.tx_hash.as_deref(), Some(current.as_str()));
}

on_both_backends!(only_the_current_attempt_journals_its_settlement);
