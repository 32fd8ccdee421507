//! Migrations run on a database that already holds rows: what an older release wrote must read
//! the same after the server's start migrates it.

use arcade_core::Commitment;
use arcade_migrations::{Migrator, MigratorTrait};
use sea_orm::{ConnectionTrait, Database};

use crate::helpers::{Backend, TestApp, fresh_database};

/// The migration before the bets kept their round's commitment and time.
const BEFORE_BETS_KEPT_THE_ROUND: u32 = 7;

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
