//! A database backup read by an outsider reveals no seed the house has not revealed, and cannot
//! sign as the house. A live deployment (rounds played, rounds open, batches with unused rows)
//! is read whole, every column of every table as text, as whoever holds a backup can. Every
//! value read is tried as the seeds secret (does it give an open round's commitment, or a
//! batch's signed root over its unused rows?) and as the signing key (is its address the
//! signer?); no secret appears in any value. The same attempts with the state directory's
//! secrets succeed: the derivation tried is the real one.

use std::collections::BTreeSet;

use alloy::signers::local::PrivateKeySigner;
use arcade_server::proofs::{BatchKey, SeedBook};
use sea_orm::{ConnectionTrait, DbBackend, Statement};
use serde_json::json;

use crate::helpers::{Backend, TestApp, signer, state_dir};

const BATCH_SIZE: i64 = 32;

/// Every value of every column of every table, as text.
async fn every_value(app: &TestApp) -> BTreeSet<String> {
    let db = &app.arcade.db;
    let backend = db.get_database_backend();
    let columns_sql = match backend {
        DbBackend::Sqlite => {
            "SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p \
             WHERE m.type = 'table'"
        }
        _ => {
            "SELECT table_name::text, column_name::text FROM information_schema.columns \
             WHERE table_schema = 'public'"
        }
    };
    let columns = db
        .query_all_raw(Statement::from_string(backend, columns_sql))
        .await
        .unwrap();
    let mut values = BTreeSet::new();
    for column in columns {
        let table: String = column.try_get_by_index(0).unwrap();
        let name: String = column.try_get_by_index(1).unwrap();
        let sql = format!("SELECT CAST(\"{name}\" AS TEXT) FROM \"{table}\"");
        for row in db
            .query_all_raw(Statement::from_string(backend, sql))
            .await
            .unwrap()
        {
            if let Ok(Some(value)) = row.try_get_by_index::<Option<String>>(0) {
                values.insert(value);
            }
        }
    }
    values
}

/// What a backup would let its reader do with `secret` taken as the seeds secret: the open
/// rounds' commitments and the batches' roots it reproduces.
struct Seeds {
    /// `(batch id, salt, index, commitment)` of each open round.
    open: Vec<(i64, String, i64, String)>,
    /// `(batch id, salt, signed root)` of each batch with unused rows.
    batches: Vec<(i64, String, String)>,
}

impl Seeds {
    async fn read(app: &TestApp) -> Self {
        let db = &app.arcade.db;
        let backend = db.get_database_backend();
        let rows = |sql: &str| db.query_all_raw(Statement::from_string(backend, sql.to_owned()));
        let open = rows(
            "SELECT r.batch_id, b.salt, r.seed_index, r.commitment FROM rounds r \
             JOIN seed_batches b ON b.id = r.batch_id WHERE r.state = 'open'",
        )
        .await
        .unwrap()
        .iter()
        .map(|row| {
            (
                row.try_get_by_index(0).unwrap(),
                row.try_get_by_index(1).unwrap(),
                row.try_get_by_index(2).unwrap(),
                row.try_get_by_index(3).unwrap(),
            )
        })
        .collect();
        let batches =
            rows("SELECT id, salt, merkle_root FROM seed_batches WHERE next_index < size")
                .await
                .unwrap()
                .iter()
                .map(|row| {
                    (
                        row.try_get_by_index(0).unwrap(),
                        row.try_get_by_index(1).unwrap(),
                        row.try_get_by_index(2).unwrap(),
                    )
                })
                .collect();
        Self { open, batches }
    }

    /// Whether `secret` gives any open round's seed or any batch's unused seeds.
    fn derived_by(&self, secret: &str) -> bool {
        let book = SeedBook::new(secret);
        let opened = self.open.iter().any(|(id, salt, index, commitment)| {
            let key = BatchKey {
                id: *id,
                salt: Some(salt),
            };
            arcade_core::Commitment::of(&book.seed(key, *index)).as_str() == commitment
        });
        let rooted = self.batches.iter().any(|(id, salt, root)| {
            let key = BatchKey {
                id: *id,
                salt: Some(salt),
            };
            arcade_core::hex::encode(&book.tree(key, BATCH_SIZE).root()) == *root
        });
        opened || rooted
    }
}

/// The address `text` is the key of, if it is a private key (with or without `0x`).
fn key_address(text: &str) -> Option<alloy::primitives::Address> {
    let hex = text.strip_prefix("0x").unwrap_or(text);
    (hex.len() == 64)
        .then(|| hex.parse::<PrivateKeySigner>().ok())
        .flatten()
        .map(|key| key.address())
}

async fn a_backup_reveals_no_unplayed_seed_and_cannot_sign(backend: Backend) {
    let app = TestApp::spawn_with(backend, |s| s.seeds.batch_size = BATCH_SIZE as u64).await;
    let player = PrivateKeySigner::random();
    app.claim_free(&player).await;
    for _ in 0..6 {
        let round_id = app.commit(&player).await;
        app.post(
            "/api/arcade/flip",
            &json!({ "round_id": round_id, "client_seed": "a-fresh-seed-0123456789abcdef", "wager": 1, "call": "heads" }),
        )
        .await
        .ok();
    }
    for _ in 0..4 {
        app.commit(&player).await;
    }
    let seeds = Seeds::read(&app).await;
    assert_eq!(seeds.open.len(), 4, "four rounds open");
    assert!(!seeds.batches.is_empty(), "a batch with unused rows");
    let house = signer(&app.get("/api/arcade/manifest").await.ok());

    let backup = every_value(&app).await;
    assert!(
        backup.len() > 50,
        "the backup was read: {} values",
        backup.len()
    );
    let tried_as_seeds = backup.iter().filter(|v| seeds.derived_by(v)).count();
    assert_eq!(
        tried_as_seeds, 0,
        "a value of the backup derives unplayed seeds"
    );
    let signs = backup
        .iter()
        .filter(|v| key_address(v) == Some(house))
        .count();
    assert_eq!(signs, 0, "a value of the backup is the signing key");

    let kept = std::path::Path::new(&state_dir(&app.database_url)).join("secrets");
    let read = |name: &str| {
        std::fs::read_to_string(kept.join(name))
            .unwrap()
            .trim()
            .to_owned()
    };
    let (seeds_secret, signing_key, auth) = (
        read("seeds.secret"),
        read("signing.key"),
        read("auth.secret"),
    );
    assert!(
        seeds.derived_by(&seeds_secret),
        "the real secret derives them: the attempt is sound"
    );
    assert_eq!(
        key_address(&signing_key),
        Some(house),
        "the real key signs as the house"
    );
    let bare_key = signing_key.trim_start_matches("0x");
    for secret in [&seeds_secret, bare_key, &auth] {
        assert!(
            !backup.iter().any(|value| value.contains(secret)),
            "a secret is in the backup"
        );
    }
    app.audit().await;
}

mod a_backup_reveals_no_unplayed_seed_and_cannot_sign {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::a_backup_reveals_no_unplayed_seed_and_cannot_sign(crate::helpers::Backend::Sqlite)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::a_backup_reveals_no_unplayed_seed_and_cannot_sign(crate::helpers::Backend::Postgres)
            .await;
    }
}
