//! A failed payment row claimed again is a new attempt, and a decision about an earlier attempt
//! never ends a later one. The reconciler reads the rows it judges, then asks the chain: while it
//! asks, the request that held the row may fail it and another claim it again, with new terms.
//! The reconciler's verdict on the first attempt (expired by its window, never signed) must not
//! fail the second, whose settlement could then land with nothing credited. Shown on the store
//! that both go through, with the reconciler's stale write made by hand.

use arcade_server::entities::payment::{self, PaymentState, Rail};
use arcade_server::store::payments::{self as payments, NewPayment, Reserved};
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
        rail: Rail::House,
        at,
    }
}

fn held(reserved: Reserved) -> (i64, i64) {
    match reserved {
        Reserved::Held { id, attempt } => (id, attempt),
        Reserved::Taken { state, .. } => panic!("not held: {state:?}"),
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
    assert!(second > first, "attempt {second} is not after {first}");

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
