//! No secret is public, whatever the operator forgets. `arcade serve` with nothing set runs with
//! secrets nobody else knows (generated once into the state directory, the same for every
//! instance sharing it and every restart), and refuses to start, on loopback too, with a configured secret or
//! key that anyone knows: a well-known test key, or a secret an earlier version built in.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use alloy::primitives::Address;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::doctor::WELL_KNOWN_TEST_ADDRESSES;
use arcade_server::settings::{Secret, Settings};
use hmac::{Hmac, KeyInit, Mac};
use sea_orm::EntityTrait;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::helpers::{Backend, TestApp, fresh_database, signer};

/// anvil's account 9: the signing key earlier versions used when none was set.
const FORMER_SIGNING_KEY: &str =
    "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6";
/// anvil's account 0 (the dev chain's house).
const ANVIL_KEY_0: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/// hardhat's account 19.
const HARDHAT_KEY_19: &str = "0xdf57089febbacf7ba0bc227dafbffa9fc08a93fdc68e1e42411a14efcf23656e";

/// `arcade serve` on loopback over a fresh SQLite file with `env`: its exit status (`None` if
/// it was still serving after a few seconds) and what it printed.
fn serve(env: &[(&str, &str)]) -> (Option<bool>, String) {
    // A deployment of its own: the database and the state directory beside it.
    let dir = std::env::temp_dir().join("arcade-tests").join(format!(
        "serve-{}",
        alloy::hex::encode(alloy::primitives::B64::random())
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let database = dir.join("arcade.db");
    let mut command = Command::new(env!("CARGO_BIN_EXE_arcade"));
    command
        .arg("serve")
        .env_remove("RUST_LOG")
        .env("ARCADE__SERVER__PORT", "0")
        .env("ARCADE__LOG__FILTER", "info")
        .env(
            "ARCADE__DATABASE__URL",
            format!("sqlite://{}?mode=rwc", database.display()),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.spawn().expect("the arcade binary starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status.success());
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut output = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut output)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut output)
        .unwrap();
    (status, output)
}

#[test]
fn serve_refuses_every_secret_anyone_knows_even_on_loopback() {
    let cases: [(&str, &str, &str); 7] = [
        ("ARCADE__SIGNING__KEY", FORMER_SIGNING_KEY, "signing.key"),
        ("ARCADE__SIGNING__KEY", HARDHAT_KEY_19, "signing.key"),
        (
            "ARCADE__SEEDS__SECRET",
            "arcade-seed-batches",
            "seeds.secret",
        ),
        (
            "ARCADE__AUTH__SECRET",
            "arcade-first-generation-nonces",
            "auth.secret",
        ),
        ("ARCADE__SEEDS__SECRET", "hunter2", "seeds.secret"),
        ("ARCADE__CHAIN__HOUSE_KEY", ANVIL_KEY_0, "chain.house_key"),
        (
            "ARCADE__CHAIN__PAY_TO",
            "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
            "chain.pay_to",
        ),
    ];
    for (variable, value, setting) in cases {
        let (status, output) = serve(&[(variable, value)]);
        assert_eq!(
            status,
            Some(false),
            "serve with {setting} = {value:?} did not refuse to start:\n{output}"
        );
        assert!(
            output.contains(setting) && output.contains("refusing to start"),
            "the refusal does not name {setting}:\n{output}"
        );
        assert!(!output.contains("arcade listening"), "{output}");
    }
}

/// `arcade dev` skips the doctor and mints chips on a chain whose keys are public: it refuses
/// a database that may hold anything else.
#[test]
fn dev_refuses_a_database_that_is_not_new() {
    let dir = std::env::temp_dir().join("arcade-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let existing = dir.join(format!(
        "existing-{}.db",
        alloy::hex::encode(alloy::primitives::B64::random())
    ));
    std::fs::write(&existing, b"SQLite format 3\0 a database in use").unwrap();
    for url in [
        format!("sqlite://{}?mode=rwc", existing.display()),
        "postgres://arcade@127.0.0.1:1/production".to_owned(),
    ] {
        let done = Command::new(env!("CARGO_BIN_EXE_arcade"))
            .args(["dev", "--chain-port", "0"])
            .env_remove("RUST_LOG")
            .env("ARCADE__DATABASE__URL", &url)
            .output()
            .unwrap();
        let output = String::from_utf8_lossy(&done.stdout).to_string()
            + &String::from_utf8_lossy(&done.stderr);
        assert!(!done.status.success(), "dev ran on {url}:\n{output}");
        assert!(output.contains("database of its own"), "{output}");
    }
}

#[test]
fn serve_with_nothing_set_starts_on_secrets_of_its_own() {
    let (status, output) = serve(&[]);
    assert_eq!(status, None, "serve stopped:\n{output}");
    assert!(output.contains("arcade listening"), "{output}");
    for name in ["signing.key", "seeds.secret", "auth.secret"] {
        assert!(
            output.contains(&format!("{name} is unset: generated a random one")),
            "no word of generating {name}:\n{output}"
        );
    }
}

/// The house agents' keys are keys the service holds: a well-known one is refused too.
#[tokio::test]
async fn the_doctor_fails_on_a_public_house_agent_key_on_any_host() {
    for host in ["127.0.0.1", "0.0.0.0"] {
        let mut settings = Settings::default();
        settings.server.host = host.into();
        settings.server.public_url = Some("https://arcade.example".into());
        settings.database.url = Secret::new(fresh_database(Backend::Sqlite).await);
        settings.housebots.keys = vec![Secret::new(HARDHAT_KEY_19)];
        let checks = arcade_server::doctor::run(&settings).await;
        let secrets = checks.iter().find(|c| c.name == "secrets").unwrap();
        assert!(secrets.is_fatal(), "{secrets}");
        assert!(
            secrets.to_string().contains("housebots.keys[0]"),
            "{secrets}"
        );

        settings.housebots.keys = vec![Secret::new(alloy::hex::encode_prefixed(
            PrivateKeySigner::random().to_bytes(),
        ))];
        let checks = arcade_server::doctor::run(&settings).await;
        let secrets = checks.iter().find(|c| c.name == "secrets").unwrap();
        assert!(secrets.passed(), "{secrets}");
    }
}

/// The seed `index` of batch `batch_id` under a seeds secret, as earlier versions derived it.
fn former_seed(secret: &str, batch_id: i64, index: i64) -> String {
    let mac = |key: &[u8], message: &[u8]| {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key).unwrap();
        mac.update(message);
        mac.finalize().into_bytes()
    };
    let batch = mac(
        secret.as_bytes(),
        format!("arcade seed batch {batch_id}").as_bytes(),
    );
    alloy::hex::encode(mac(&batch, index.to_string().as_bytes()))
}

async fn signer_of(app: &TestApp) -> Address {
    signer(&app.get("/api/arcade/manifest").await.ok())
}

async fn unset_secrets_are_generated_once_and_shared(backend: Backend) {
    let first = TestApp::spawn(backend).await;
    let second = TestApp::spawn_on(&first.database_url, |_| {}).await;
    let elsewhere = TestApp::spawn(backend).await;

    let signer = signer_of(&first).await;
    assert!(
        !WELL_KNOWN_TEST_ADDRESSES.contains(&signer),
        "the signer {signer} is a public test key"
    );
    assert_eq!(
        signer,
        signer_of(&second).await,
        "every instance signs alike"
    );
    assert_ne!(
        signer,
        signer_of(&elsewhere).await,
        "each deployment has its own"
    );

    let player = PrivateKeySigner::random();
    let path = format!("/api/arcade/auth-statement/{}", player.address());
    let statement = async |app: &TestApp| app.get(&path).await.ok()["statement"].clone();
    let nonce = |statement: serde_json::Value| {
        let text = statement.as_str().unwrap().to_owned();
        text.lines()
            .find_map(|line| line.strip_prefix("Nonce: ").map(str::to_owned))
            .unwrap()
    };
    assert_eq!(
        nonce(statement(&first).await),
        nonce(statement(&second).await)
    );
    assert_ne!(
        nonce(statement(&first).await),
        nonce(statement(&elsewhere).await)
    );

    // The first seed is none that the former built-in secret derives.
    first.fund(player.address(), 10).await;
    let signature = first.sign_statement(&player).await;
    let committed = first
        .post(
            "/api/arcade/commit",
            &json!({ "address": player.address(), "signature": signature }),
        )
        .await
        .ok();
    for batch_id in 1..=3 {
        let seed = former_seed("arcade-seed-batches", batch_id, 0);
        let former = alloy::hex::encode(Sha256::digest(seed.as_bytes()));
        assert_ne!(committed["commitment"], former.as_str(), "a public seed");
    }

    let in_database = arcade_server::entities::deployment_secret::Entity::find()
        .all(&first.arcade.db)
        .await
        .unwrap();
    assert!(in_database.is_empty(), "no secret is kept in the database");
    let kept =
        std::path::Path::new(&crate::helpers::state_dir(&first.database_url)).join("secrets");
    let mut names: Vec<String> = std::fs::read_dir(&kept)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["auth.secret", "seeds.secret", "signing.key"]);
    let key: PrivateKeySigner = std::fs::read_to_string(kept.join("signing.key"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(key.address(), signer, "the kept key is the one that signs");
    first.audit().await;
}

mod unset_secrets_are_generated_once_and_shared {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::unset_secrets_are_generated_once_and_shared(crate::helpers::Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::unset_secrets_are_generated_once_and_shared(crate::helpers::Backend::Postgres).await;
    }
}
