//! Plays settled in batches (one transaction for every play waiting): a play refused by the
//! rules, or racing another for its round, is answered on its own and changes nothing, while
//! the plays around it settle. Everything is sent at once, so the writer takes them together.

use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::ledger::LedgerKind;
use arcade_server::store;
use arcade_server::store::plays::{LedgerRow, WalletAfter};
use arcade_server::store::wal_checkpoints::WalCheckpointer;
use futures::future::join_all;
use sea_orm::{ConnectionTrait, DbBackend, Statement};
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, recover, signer};
use crate::on_both_backends;
use crate::play::assert_receipt_verifies;

fn flip(round_id: &str, seed: &str, wager: i64) -> Value {
    json!({ "round_id": round_id, "client_seed": seed, "wager": wager, "call": "heads" })
}

async fn refused_plays_leave_their_batch_settled(app: &TestApp) {
    let good = PrivateKeySigner::random();
    app.fund(good.address(), 1_000).await;
    let short = PrivateKeySigner::random();
    app.fund(short.address(), 1).await;
    let capped = PrivateKeySigner::random();
    app.fund(capped.address(), 1_000).await;
    app.set_net_today(capped.address(), 1_990).await;
    let racer = PrivateKeySigner::random();
    app.fund(racer.address(), 100).await;

    let mut plays = Vec::new();
    for i in 0..24 {
        let round_id = app.commit(&good).await;
        plays.push(("good", flip(&round_id, &format!("good {i}"), 10)));
    }
    let short_round = app.commit(&short).await;
    plays.push(("short", flip(&short_round, "short", 2)));
    let capped_round = app.commit(&capped).await;
    plays.push(("capped", flip(&capped_round, "capped", 52)));
    let raced = app.commit(&racer).await;
    plays.push(("racer", flip(&raced, "first", 1)));
    plays.push(("racer", flip(&raced, "second", 1)));
    plays.push(("missing", flip("no-such-round", "x", 1)));

    let sent = plays
        .iter()
        .map(|(_, body)| app.post("/api/arcade/flip", body));
    let answers: Vec<_> = join_all(sent).await;
    let house = signer(&app.get("/api/arcade/manifest").await.ok());
    let mut good_profit = 0;
    let mut racer_settled = 0;
    for ((who, _), answer) in plays.iter().zip(&answers) {
        match (*who, answer.status) {
            ("good", 200) => {
                assert_receipt_verifies(&answer.body);
                // A large batch's receipts are signed on two threads: each signature is
                // the house's, over its own receipt.
                let signed = &answer.body["proofs"]["receipt"];
                assert_eq!(recover(signed), house, "{}", answer.body);
                let message = &signed["typed_data"]["message"];
                assert_eq!(message["bet_id"], answer.body["bet_id"]);
                assert_eq!(message["round_id"], answer.body["round_id"]);
                good_profit += answer.body["profit"].as_i64().unwrap();
            }
            ("short", 400) => assert_eq!(answer.body["code"], "insufficient_chips"),
            ("capped", 400) => assert_eq!(answer.body["code"], "daily_win_cap"),
            ("racer", 200) => racer_settled += 1,
            ("racer", 409) => assert_eq!(answer.body["code"], "round_spent"),
            ("missing", 404) => assert_eq!(answer.body["code"], "round_not_found"),
            _ => panic!("{who}: {} {}", answer.status, answer.body),
        }
    }
    assert_eq!(racer_settled, 1, "one play of the raced round settles");
    assert_eq!(app.chips(good.address()).await, 1_000 + good_profit);

    // The refused plays changed nothing: their rounds are still open and playable.
    assert_eq!(app.chips(short.address()).await, 1);
    assert_eq!(app.chips(capped.address()).await, 1_000);
    for round_id in [&short_round, &capped_round] {
        let round = app
            .get(&format!("/api/arcade/rounds/{round_id}"))
            .await
            .ok();
        assert_eq!(round["state"], "open", "{round}");
    }
    app.post("/api/arcade/flip", &flip(&short_round, "again", 1))
        .await
        .ok();
    app.post("/api/arcade/flip", &flip(&capped_round, "again", 10))
        .await
        .ok();
}
on_both_backends!(refused_plays_leave_their_batch_settled);

/// Round ids the house never issued (a NUL, which PostgreSQL refuses in text and which used to
/// fail the batch's shared spend statement, upper case, a short or long id, another alphabet)
/// are refused as naming no round before they are queued; the honest plays sent among them all
/// settle, and nothing else moves.
async fn malformed_round_ids_never_reach_the_batch(app: &TestApp) {
    let honest = PrivateKeySigner::random();
    app.fund(honest.address(), 1_000).await;
    let issued = app.commit(&honest).await;
    let malformed = [
        format!("{}\0", &issued[..issued.len() - 1]),
        format!("{}\0{}", &issued[..10], &issued[11..]),
        issued.to_uppercase().replacen("R_", "r_", 1),
        issued[..issued.len() - 1].to_owned(),
        format!("{issued}0"),
        format!("{}é", &issued[..issued.len() - 2]),
        "r_".to_owned(),
    ];
    let mut plays = vec![("honest", flip(&issued, "honest 0", 10))];
    for i in 1..16 {
        let round_id = app.commit(&honest).await;
        plays.push(("honest", flip(&round_id, &format!("honest {i}"), 10)));
    }
    for (i, round_id) in malformed.iter().cycle().take(32).enumerate() {
        plays.insert(
            i % plays.len(),
            ("malformed", flip(round_id, "stranger", 1)),
        );
    }

    let sent = plays
        .iter()
        .map(|(_, body)| app.post("/api/arcade/flip", body));
    let answers: Vec<_> = join_all(sent).await;
    let mut profit = 0;
    for ((who, body), answer) in plays.iter().zip(&answers) {
        match (*who, answer.status) {
            ("honest", 200) => {
                assert_receipt_verifies(&answer.body);
                profit += answer.body["profit"].as_i64().unwrap();
            }
            ("malformed", 404) => assert_eq!(answer.body["code"], "round_not_found"),
            _ => panic!(
                "{who} {}: {} {}",
                body["round_id"], answer.status, answer.body
            ),
        }
    }
    assert_eq!(app.chips(honest.address()).await, 1_000 + profit);
    for round_id in &malformed {
        let path = format!("/api/arcade/rounds/{}", urlencoding(round_id));
        app.get(&path).await.error(404, "round_not_found");
    }
    app.audit().await;
}
on_both_backends!(malformed_round_ids_never_reach_the_batch);

/// `text` as one path segment.
fn urlencoding(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Two instances, each batching plays of the same wallets at once: the batches lock wallets in
/// one order (or retry whole on a deadlock), so every play settles once and the ledger adds up.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_batch_plays_of_the_same_wallets() {
    let first = TestApp::spawn(Backend::Postgres).await;
    let second = TestApp::spawn_on(&first.database_url, |_| {}).await;
    let servers = [&first, &second];
    let players: Vec<PrivateKeySigner> = (0..6).map(|_| PrivateKeySigner::random()).collect();
    let mut bodies = Vec::new();
    for (p, player) in players.iter().enumerate() {
        first.fund(player.address(), 1_000).await;
        for i in 0..20 {
            let round_id = servers[i % 2].commit(player).await;
            bodies.push(flip(&round_id, &format!("{p}/{i}"), 3));
        }
    }
    // Interleaved so each batch holds several players' plays, on both instances.
    let plays = (0..20).flat_map(|i| (0..players.len()).map(move |p| p * 20 + i));
    let sent = plays
        .enumerate()
        .map(|(n, index)| servers[n % 2].post("/api/arcade/flip", &bodies[index]));
    let answers = join_all(sent).await;
    for answer in &answers {
        assert_eq!(answer.status, 200, "{}", answer.body);
    }
    for player in &players {
        let profit: i64 = answers
            .iter()
            .filter(|a| a.body["address"] == player.address().to_checksum(None))
            .map(|a| a.body["profit"].as_i64().unwrap())
            .sum();
        assert_eq!(first.chips(player.address()).await, 1_000 + profit);
    }
    first.audit().await;
}

/// A batch writes all its wallets in one statement, each only if its balance is still the one
/// the batch read, with its ledger rows (on SQLite in the same statement list): one stale
/// balance among them is reported, so the batch rolls back whole.
async fn wallets_are_written_only_from_the_balances_read(app: &TestApp) {
    let (first, second) = (PrivateKeySigner::random(), PrivateKeySigner::random());
    app.fund(first.address(), 100).await;
    app.fund(second.address(), 50).await;
    let after = |signer: &PrivateKeySigner, chips_before, chips| WalletAfter {
        address: format!("{:#x}", signer.address()),
        chips_before,
        chips,
        free_before: 0,
        free_chips: 0,
        net_day: 7,
        net_today: chips - chips_before,
        rounds_spent: 0,
        rounds_opened: 0,
    };
    let db = &app.arcade.db;

    // Their ledger rows, as a batch writes them, so the audit that follows adds up.
    let row = |signer: &PrivateKeySigner, kind, delta, balance_after| LedgerRow {
        address: format!("{:#x}", signer.address()),
        kind,
        delta,
        balance_after,
        reference: "test:wallets".into(),
        at: 0,
        free_delta: 0,
    };
    let rows = || {
        vec![
            row(&first, LedgerKind::Wager, -10, 90),
            row(&second, LedgerKind::Win, 10, 60),
        ]
    };

    let txn = store::begin(db).await.unwrap();
    let stale = [after(&first, 100, 90), after(&second, 49, 60)];
    assert!(
        !store::plays::write_batch(&txn, &stale, &[], &rows())
            .await
            .unwrap()
    );
    txn.rollback().await.unwrap();
    assert_eq!(app.chips(first.address()).await, 100);
    assert_eq!(app.chips(second.address()).await, 50);

    let txn = store::begin(db).await.unwrap();
    let fresh = [after(&first, 100, 90), after(&second, 50, 60)];
    assert!(
        store::plays::write_batch(&txn, &fresh, &[], &rows())
            .await
            .unwrap()
    );
    txn.commit().await.unwrap();
    assert_eq!(app.chips(first.address()).await, 90);
    assert_eq!(app.chips(second.address()).await, 60);
}
on_both_backends!(wallets_are_written_only_from_the_balances_read);

/// On SQLite the committed log is copied back into the database file from a connection of
/// its own: after a checkpoint every frame of the log is in the file, and the plays are there.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_sqlite_log_is_copied_back_by_its_own_connection() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let player = PrivateKeySigner::random();
    app.fund(player.address(), 100).await;
    for i in 0..8 {
        let round_id = app.commit(&player).await;
        let played = app
            .post("/api/arcade/flip", &flip(&round_id, &format!("log {i}"), 1))
            .await;
        assert_eq!(played.status, 200, "{}", played.body);
    }
    let mut checkpointer = WalCheckpointer::open(&app.database_url)
        .await
        .unwrap()
        .expect("a SQLite file has a log");
    // The service's own checkpointer may hold the checkpoint lock for a moment (SQLite then
    // answers busy, with -1 for both counts): try again until this connection gets its turn.
    let mut checkpointed = checkpointer.checkpoint().await.unwrap();
    for _ in 0..50 {
        if checkpointed.logged >= 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        checkpointed = checkpointer.checkpoint().await.unwrap();
    }
    assert!(
        checkpointed.logged > 0,
        "the plays were logged: {checkpointed:?}"
    );
    assert_eq!(
        checkpointed.copied, checkpointed.logged,
        "every committed frame is in the file"
    );
    assert!(
        WalCheckpointer::open("postgres://postgres@127.0.0.1:1/none")
            .await
            .unwrap()
            .is_none(),
        "PostgreSQL has no log to copy"
    );
    app.audit().await;
}

/// A batch spends its rounds by their ids, however many rounds are open: with 5,000 open and
/// the planner's statistics taken while none was (an `ANALYZE` of a new database), the spend's
/// plan reads the rounds' primary key, not every open round. On PostgreSQL the plan checked is
/// the one it keeps for any values, as it does for a prepared statement after a few runs.
async fn a_batch_looks_its_rounds_up_by_id_however_many_are_open(app: &TestApp) {
    let db = &app.arcade.db;
    let backend = db.get_database_backend();
    let spend = &store::play_sql::for_backend(backend).spend;
    let txn = store::begin(db).await.unwrap();
    txn.execute_unprepared("ANALYZE rounds").await.unwrap();
    let numbers = match backend {
        DbBackend::Postgres => "SELECT i FROM generate_series(1, 5000) AS n (i)",
        _ => {
            "WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) \
              SELECT i FROM n"
        }
    };
    txn.execute_unprepared(&format!(
        "INSERT INTO rounds (id, address, server_seed, commitment, state, created_at) \
         SELECT 'probe-' || i, 'probe', 'seed', 'commitment', 'open', 1000 + i \
         FROM ({numbers}) AS numbers"
    ))
    .await
    .unwrap();
    let ids = r#"["probe-7", "probe-4000"]"#;
    let (rows, column, by_id) = match backend {
        DbBackend::Postgres => {
            txn.execute_unprepared("SET LOCAL plan_cache_mode = force_generic_plan")
                .await
                .unwrap();
            txn.execute_unprepared(&format!("PREPARE probe (bigint, text, bigint) AS {spend}"))
                .await
                .unwrap();
            let explain = format!("EXPLAIN EXECUTE probe (1, '{ids}', 0)");
            let rows = txn
                .query_all_raw(Statement::from_string(backend, explain))
                .await
                .unwrap();
            txn.execute_unprepared("DEALLOCATE probe").await.unwrap();
            (rows, "QUERY PLAN", "rounds_pkey")
        }
        _ => {
            let explain = Statement::from_sql_and_values(
                backend,
                format!("EXPLAIN QUERY PLAN {spend}"),
                [1i64.into(), ids.into(), 0i64.into()],
            );
            let rows = txn.query_all_raw(explain).await.unwrap();
            (rows, "detail", "sqlite_autoindex_rounds_1")
        }
    };
    let lines: Vec<String> = rows
        .iter()
        .map(|row| row.try_get("", column).unwrap())
        .collect();
    let plan = lines.join("\n");
    txn.rollback().await.unwrap();
    assert!(
        plan.contains(by_id) && !plan.contains("rounds_open_by_age"),
        "the spend should look its rounds up by id:\n{plan}"
    );
}
on_both_backends!(a_batch_looks_its_rounds_up_by_id_however_many_are_open);
