//! The secrets a deployment generates for itself live in its state directory, never in its
//! database: files of mode 0600 in a directory of mode 0700, the database holding only their
//! fingerprints. An instance started on the database with other secrets refuses to start. A
//! deployment whose older version kept its secrets in the database keeps its signer and seeds,
//! and `arcade secrets export` moves them into files, erasing them from the database.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use arcade_server::secrets;
use arcade_server::settings::{Secret, Settings};
use arcade_server::startup::Application;
use sea_orm::{ConnectionTrait, Statement};

use crate::helpers::{Backend, TestApp, fresh_database, signer, state_dir};

const NAMES: [&str; 3] = ["signing.key", "seeds.secret", "auth.secret"];

async fn count(app: &TestApp, sql: &str) -> i64 {
    let db = &app.arcade.db;
    let row = db
        .query_one_raw(Statement::from_string(
            db.get_database_backend(),
            sql.to_owned(),
        ))
        .await
        .unwrap()
        .unwrap();
    row.try_get_by_index(0).unwrap()
}

async fn house_signer(app: &TestApp) -> alloy::primitives::Address {
    signer(&app.get("/api/arcade/manifest").await.ok())
}

fn settings_on(database_url: &str, state: &Path) -> Settings {
    let mut settings = Settings::default();
    settings.server.port = 0;
    settings.database.url = Secret::new(database_url);
    settings.server.state_dir = Some(state.to_string_lossy().into_owned());
    settings.rate_limits.enabled = false;
    settings
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join("arcade-tests").join(format!(
        "{name}-{}",
        alloy::primitives::FixedBytes::<6>::random()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn generated_into_files_and_checked_by_fingerprint(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let kept = Path::new(&state_dir(&app.database_url)).join("secrets");
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(
        mode(&kept),
        0o700,
        "the secrets' directory is the service's alone"
    );
    for name in NAMES {
        let file = kept.join(name);
        assert_eq!(mode(&file), 0o600, "{name}");
        assert!(
            std::fs::read_to_string(&file).unwrap().trim().len() >= 64,
            "{name}"
        );
    }
    assert_eq!(
        count(&app, "SELECT COUNT(*) FROM secret_fingerprints").await,
        3
    );
    assert_eq!(
        count(&app, "SELECT COUNT(*) FROM deployment_secrets").await,
        0
    );

    // Another instance on this database with secrets of its own (another state directory).
    let elsewhere = fresh_dir("state-other");
    let refused = Application::build(settings_on(&app.database_url, &elsewhere))
        .await
        .err()
        .expect("an instance with other secrets refuses to start")
        .to_string();
    assert!(
        refused.contains("signing.key") && refused.contains("is not this deployment's"),
        "{refused}"
    );
    // The same state directory: the same secrets, the same signer.
    let again = TestApp::spawn_on(&app.database_url, |_| {}).await;
    assert_eq!(house_signer(&again).await, house_signer(&app).await);
    app.audit().await;
}

async fn an_older_deployment_keeps_its_secrets_and_exports_them(backend: Backend) {
    let database_url = fresh_database(backend).await;
    // The database as an older version left it: migrated, its generated secrets in a table.
    let mut database = Settings::default().database;
    database.url = Secret::new(database_url.clone());
    let db = arcade_server::store::connect(&database).await.unwrap();
    arcade_server::store::migrate(&db).await.unwrap();
    let legacy_key = format!("0x{}", "5a".repeat(32));
    let legacy = [
        ("signing.key", legacy_key.clone()),
        ("seeds.secret", "7e".repeat(32)),
        ("auth.secret", "9c".repeat(32)),
    ];
    for (name, value) in &legacy {
        db.execute_raw(Statement::from_string(
            db.get_database_backend(),
            format!(
                "INSERT INTO deployment_secrets (name, value, created_at) VALUES ('{name}', '{value}', 0)"
            ),
        ))
        .await
        .unwrap();
    }
    let legacy_signer = legacy_key
        .parse::<alloy::signers::local::PrivateKeySigner>()
        .unwrap()
        .address();

    let app = TestApp::spawn_on(&database_url, |_| {}).await;
    assert_eq!(
        house_signer(&app).await,
        legacy_signer,
        "it keeps working on the secrets it had"
    );

    let exported = fresh_dir("exported");
    let mut settings = settings_on(&database_url, Path::new(&state_dir(&database_url)));
    let written = secrets::export(&settings, &db, &exported).await.unwrap();
    assert_eq!(written.len(), 3);
    for (name, value) in &legacy {
        let file = exported.join(name);
        assert_eq!(
            std::fs::read_to_string(&file).unwrap().trim(),
            value,
            "{name}"
        );
        assert_eq!(
            std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    assert_eq!(
        count(&app, "SELECT COUNT(*) FROM deployment_secrets").await,
        0,
        "erased"
    );

    // Started with the exported files as its credentials (as the systemd unit loads them), and
    // a state directory that holds none: the same signer, nothing taken from the database.
    let loaded = Settings::load_from(None, Some(&exported)).unwrap();
    settings.signing = loaded.signing;
    settings.seeds.secret = loaded.seeds.secret;
    settings.auth = loaded.auth;
    settings.server.state_dir = Some(fresh_dir("state-empty").to_string_lossy().into_owned());
    let restarted = TestApp::spawn_on(&database_url, |s| *s = settings).await;
    assert_eq!(house_signer(&restarted).await, legacy_signer);
    restarted.audit().await;
}

mod generated_into_files_and_checked_by_fingerprint {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::generated_into_files_and_checked_by_fingerprint(crate::helpers::Backend::Sqlite)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::generated_into_files_and_checked_by_fingerprint(crate::helpers::Backend::Postgres)
            .await;
    }
}

mod an_older_deployment_keeps_its_secrets_and_exports_them {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::an_older_deployment_keeps_its_secrets_and_exports_them(
            crate::helpers::Backend::Sqlite,
        )
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::an_older_deployment_keeps_its_secrets_and_exports_them(
            crate::helpers::Backend::Postgres,
        )
        .await;
    }
}

async fn stored_seeds_of_open_rounds_are_erased_only_when_derivable(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let player = alloy::signers::local::PrivateKeySigner::random();
    app.claim_free(&player).await;
    let derivable = app.commit(&player).await;
    let foreign = app.commit(&player).await;
    // As an older version left them: each open round stores its seed. The second was seeded
    // under another seeds secret (an operator changed it, as older versions allowed).
    let seed = crate::helpers::secret_seed(&app, &derivable).await;
    let other = "ab".repeat(32);
    let commitment = arcade_core::Commitment::of(&other).as_str().to_owned();
    for sql in [
        format!("UPDATE rounds SET server_seed = '{seed}' WHERE id = '{derivable}'"),
        format!(
            "UPDATE rounds SET server_seed = '{other}', commitment = '{commitment}' WHERE id = '{foreign}'"
        ),
    ] {
        app.arcade.db.execute_unprepared(&sql).await.unwrap();
    }
    let restarted = TestApp::spawn_on(&app.database_url, |_| {}).await;
    let stored =
        |id: &str| format!("SELECT COUNT(*) FROM rounds WHERE id = '{id}' AND server_seed <> ''");
    assert_eq!(
        count(&restarted, &stored(&derivable)).await,
        0,
        "erased: it derives"
    );
    assert_eq!(
        count(&restarted, &stored(&foreign)).await,
        1,
        "kept: it does not"
    );
    // Both settle on the seed each committed to.
    for (round, seed) in [(&derivable, seed.as_str()), (&foreign, other.as_str())] {
        let played = restarted
            .post(
                "/api/arcade/flip",
                &serde_json::json!({ "round_id": round, "client_seed": "0123456789abcdef0123", "wager": 1, "call": "heads" }),
            )
            .await
            .ok();
        assert_eq!(played["server_seed"], seed, "{played}");
    }
    restarted.audit().await;
}

mod stored_seeds_of_open_rounds_are_erased_only_when_derivable {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::stored_seeds_of_open_rounds_are_erased_only_when_derivable(
            crate::helpers::Backend::Sqlite,
        )
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::stored_seeds_of_open_rounds_are_erased_only_when_derivable(
            crate::helpers::Backend::Postgres,
        )
        .await;
    }
}

/// A secret file someone else could have planted or read is refused, never used.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_planted_or_readable_secret_file_is_refused() {
    let state = fresh_dir("state-planted");
    let secrets = state.join("secrets");
    std::fs::create_dir_all(&secrets).unwrap();
    std::fs::set_permissions(&secrets, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::write(
        secrets.join("seeds.secret"),
        "chosen-by-someone-else-0123456789abcdef\n",
    )
    .unwrap();
    std::fs::set_permissions(
        secrets.join("seeds.secret"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let database_url = fresh_database(Backend::Sqlite).await;
    let refused = Application::build(settings_on(&database_url, &state))
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(refused.contains("refused"), "{refused}");
    std::fs::remove_file(secrets.join("seeds.secret")).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", secrets.join("seeds.secret")).unwrap();
    let refused = Application::build(settings_on(&database_url, &state))
        .await
        .err()
        .expect("a link is refused")
        .to_string();
    assert!(refused.contains("not a regular file"), "{refused}");
    std::fs::remove_file(secrets.join("seeds.secret")).unwrap();
    std::fs::write(secrets.join("seeds.secret"), "short\n").unwrap();
    std::fs::set_permissions(
        secrets.join("seeds.secret"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    let refused = Application::build(settings_on(&database_url, &state))
        .await
        .err()
        .expect("a weak secret is refused from a file too")
        .to_string();
    assert!(
        refused.contains("seeds.secret") && refused.contains("cannot be used"),
        "{refused}"
    );
}
