//! Migrations run on a database that already holds rows: what an older release wrote must read
//! the same after the server's start migrates it.

use arcade_core::Commitment;
use arcade_migrations::{Migrator, MigratorTrait};
use arcade_server::entities::payment::{self, PaymentState};
use sea_orm::{ConnectionTrait, Database, DatabaseConnection, EntityTrait, Statement};

use crate::helpers::{Backend, TestApp, fresh_database};

/// The migration before the bets kept their round's commitment and time.
const BEFORE_BETS_KEPT_THE_ROUND: u32 = 7;

/// The migrations before the CHECKs on games and rails were dropped (0016, 0017).
const BEFORE_THE_LISTS_MOVED_TO_THE_CODE: u32 = 13;

/// A bet settled before 0008 lists the commitment and time of its round, copied at migration.
async fn bets_written_before_the_copy_list_their_round(backend: Backend) {
    let database_url = fresh_database(backend).await;
    let db = Database::connect(database_url.as_str()).await.unwrap();
    Migrator::up(&db, Some(BEFORE_BETS_KEPT_THE_ROUND))
        .await
        .unwrap();
    let seed = "7".repeat(64);
    let commitment = Commitment::of(&seed).as_str().to_owned();
    let (committed_at, settled_at) = (1_767_225_600_000_i64, 1_767_225_601_000_i64);
    db.execute_unprepared(&format!(
        "INSERT INTO rounds (id, address, server_seed, commitment, state, created_at, spent_at) \
         VALUES ('r_before', '0x00000000000000000000000000000000000000aa', '{seed}', \
         '{commitment}', 'spent', {committed_at}, {settled_at})"
    ))
    .await
    .unwrap();
    db.execute_unprepared(&format!(
        "INSERT INTO bets (round_id, address, game, client_seed, nonce, wager, params, result, \
         won, payout, profit, settled_at) VALUES ('r_before', \
         '0x00000000000000000000000000000000000000aa', 'coinflip', 'old-client-seed', 0, 5, \
         '{{\"call\":\"heads\"}}', '{{\"outcome\":\"tails\"}}', FALSE, 0, -5, {settled_at})"
    ))
    .await
    .unwrap();
    db.close().await.unwrap();

    let app = TestApp::spawn_on(&database_url, |_| {}).await;
    let recent = app.get("/api/arcade/recent").await.ok();
    let listed = &recent[0];
    assert_eq!(listed["round_id"], "r_before");
    assert_eq!(listed["commitment"], commitment.as_str());
    assert_eq!(listed["committed_at"], "2026-01-01T00:00:00.000Z");
    let verified = app.get("/api/arcade/verify/1").await.ok();
    assert_eq!(verified["commitment"], listed["commitment"]);
    assert_eq!(verified["committed_at"], listed["committed_at"]);
}

mod bets_written_before_the_copy_list_their_round {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::bets_written_before_the_copy_list_their_round(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::bets_written_before_the_copy_list_their_round(crate::helpers::Backend::Postgres)
            .await;
    }
}

/// A payment row as a release before 0017 wrote it, by `rail`.
fn old_payment(nonce: &str, rail: &str) -> String {
    format!(
        "INSERT INTO payments (payer, nonce, tier, chips, amount, network, asset, pay_to, \
         valid_before, state, settled_by, created_at, updated_at) VALUES \
         ('0x00000000000000000000000000000000000000a1', '{nonce}', 'small', 1000, '100000', \
         'eip155:31337', '0x00000000000000000000000000000000000000b2', \
         '0x00000000000000000000000000000000000000c3', 1767225900, 'settled', '{rail}', \
         1767225600000, 1767225600000)"
    )
}

async fn one_text(db: &DatabaseConnection, sql: &str) -> String {
    let row = db
        .query_one_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .unwrap();
    row.try_get_by_index::<String>(0).unwrap()
}

/// 0016 and 0017 drop the CHECKs that listed games and rails, on a database holding rows, and
/// on PostgreSQL whatever the constraints are named: afterwards a rail of another name is
/// stored, the rows written before read back unchanged, and SQLite's file is intact.
async fn the_listed_names_move_to_the_code(backend: Backend) {
    let database_url = fresh_database(backend).await;
    let db = Database::connect(database_url.as_str()).await.unwrap();
    Migrator::up(&db, Some(BEFORE_THE_LISTS_MOVED_TO_THE_CODE))
        .await
        .unwrap();
    if backend == Backend::Postgres {
        db.execute_unprepared(
            "ALTER TABLE bets RENAME CONSTRAINT bets_game_check TO games_by_hand; \
             ALTER TABLE payments RENAME CONSTRAINT payments_settled_by_check TO rails_by_hand",
        )
        .await
        .unwrap();
    }
    db.execute_unprepared(&old_payment("0x01", "house"))
        .await
        .unwrap();
    db.execute_unprepared(&old_payment("0x02", "facilitator"))
        .await
        .unwrap();
    assert!(
        db.execute_unprepared(&old_payment("0x03", "courier"))
            .await
            .is_err(),
        "before 0017, only the listed rails are stored"
    );

    Migrator::up(&db, None).await.unwrap();
    db.execute_unprepared(&old_payment("0x03", "courier"))
        .await
        .unwrap();
    let rows = payment::Entity::find().all(&db).await.unwrap();
    let read: Vec<(&str, &str, PaymentState)> = rows
        .iter()
        .map(|row| (row.nonce.as_str(), row.settled_by.as_str(), row.state))
        .collect();
    assert_eq!(
        read,
        [
            ("0x01", "house", PaymentState::Settled),
            ("0x02", "facilitator", PaymentState::Settled),
            ("0x03", "courier", PaymentState::Settled),
        ]
    );
    let checks_left = match backend {
        Backend::Postgres => {
            one_text(
                &db,
                "SELECT count(*)::text FROM pg_constraint c JOIN pg_attribute a \
             ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) \
             WHERE c.contype = 'c' AND a.attname IN ('game', 'settled_by') \
             AND c.conrelid IN ('bets'::regclass, 'payments'::regclass)",
            )
            .await
        }
        Backend::Sqlite => {
            assert_eq!(one_text(&db, "PRAGMA integrity_check").await, "ok");
            one_text(
                &db,
                "SELECT CAST(count(*) AS TEXT) FROM sqlite_master \
                 WHERE sql LIKE '%game IN%' OR sql LIKE '%settled_by IN%'",
            )
            .await
        }
    };
    assert_eq!(checks_left, "0");
    // The CHECKs on values that are not lists stay.
    assert!(
        db.execute_unprepared(&old_payment("0x04", "house").replace("'settled'", "'lost'"))
            .await
            .is_err()
    );
    db.close().await.unwrap();
}

mod the_listed_names_move_to_the_code {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::the_listed_names_move_to_the_code(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::the_listed_names_move_to_the_code(crate::helpers::Backend::Postgres).await;
    }
}

/// Instances started at once on one fresh PostgreSQL database (the compose file's two) migrate
/// it once between them: every start succeeds, and the schema is whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn instances_migrating_one_database_at_once_all_start() {
    let database_url = fresh_database(Backend::Postgres).await;
    let mut settings = arcade_server::settings::Settings::default().database;
    settings.url = arcade_server::settings::Secret::new(database_url.clone());
    let migrated = futures::future::join_all((0..4).map(|_| {
        let settings = settings.clone();
        async move {
            let db = arcade_server::store::connect(&settings).await.unwrap();
            arcade_server::store::migrate(&db).await
        }
    }))
    .await;
    for outcome in migrated {
        outcome.expect("every instance's migration succeeds");
    }
    let db = Database::connect(database_url.as_str()).await.unwrap();
    assert_eq!(
        Migrator::get_pending_migrations(&db).await.unwrap().len(),
        0
    );
}
