//! The `arcade` binary serving over a test's database and chain, with a house key of its own
//! (`arcade serve` refuses the dev chain's well-known keys): started, stopped (killed, as
//! `kill -9` would), or left to abort at a fault point.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use alloy::primitives::U256;
use alloy::providers::{Provider, ProviderBuilder};
use alloy::signers::local::PrivateKeySigner;
use arcade_server::chain::devnet::{self, Devnet};
use arcade_server::settings::Secret;
use serde_json::{Value, json};

use crate::helpers::{Backend, sign};
use crate::paying::PaidApp;

/// The public URL both processes name in the auth statement, so one signature serves both.
pub const PUBLIC_URL: &str = "http://arcade.test";

/// The `arcade` binary serving on a free port over the test's database and chain.
pub struct Arcade {
    child: Child,
    pub base_url: String,
}

/// The test server with a house key of its own, funded with gas and test dollars: `arcade
/// serve` refuses the dev chain's well-known keys.
pub async fn with_own_house(backend: Backend) -> (PaidApp, PrivateKeySigner) {
    let devnet = Devnet::start(&crate::paying::anvil_bin(), 0).await.unwrap();
    let house = PrivateKeySigner::random();
    let chain = ProviderBuilder::new().connect_http(devnet.rpc_url().parse().unwrap());
    chain
        .raw_request::<_, Value>(
            "anvil_setBalance".into(),
            json!([house.address(), "0x56BC75E2D63100000"]),
        )
        .await
        .unwrap();
    devnet::mint(
        &devnet.rpc_url(),
        &devnet.house,
        devnet.token,
        house.address(),
        U256::from(devnet::STARTING_DOLLARS),
    )
    .await
    .unwrap();
    let key = alloy::hex::encode_prefixed(house.to_bytes());
    let app = PaidApp::spawn_on_devnet(backend, devnet, |s| {
        s.chain.house_key = Some(Secret::new(key));
    })
    .await;
    (app, house)
}

impl Arcade {
    pub fn start(app: &PaidApp, house: &PrivateKeySigner, crash_after: Option<&str>) -> Self {
        let mut child = Self::command(app, house, crash_after)
            .stdout(Stdio::piped())
            .spawn()
            .expect("the arcade binary starts");
        let stdout = child.stdout.take().unwrap();
        let (found, listening) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                // salvo's own line has the bound port (the public URL does not).
                if let Some(address) = line.split("] on http://").nth(1) {
                    let address = address.split_whitespace().next().unwrap_or("");
                    let _ = found.send(format!("http://{address}"));
                }
            }
        });
        let base_url = listening
            .recv_timeout(Duration::from_secs(30))
            .expect("the arcade binary listens");
        Self { child, base_url }
    }

    /// The binary started with `crash_after` at a point it reaches before it serves (it is not
    /// waited for).
    pub fn start_to_crash(app: &PaidApp, house: &PrivateKeySigner, crash_after: &str) -> Self {
        let child = Self::command(app, house, Some(crash_after))
            .stdout(Stdio::null())
            .spawn()
            .expect("the arcade binary starts");
        Self {
            child,
            base_url: String::new(),
        }
    }

    fn command(app: &PaidApp, house: &PrivateKeySigner, crash_after: Option<&str>) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_arcade"));
        command
            .arg("serve")
            .env_remove("RUST_LOG")
            .env("ARCADE__SERVER__PORT", "0")
            .env("ARCADE__SERVER__PUBLIC_URL", PUBLIC_URL)
            .env("ARCADE__DATABASE__URL", &app.database_url)
            // The deployment's state directory: its generated secrets.
            .env(
                "ARCADE__SERVER__STATE_DIR",
                crate::helpers::state_dir(&app.database_url),
            )
            .env("ARCADE__CHAIN__CHAIN_ID", "31337")
            .env("ARCADE__CHAIN__RPC_URLS", app.devnet.rpc_url())
            .env("ARCADE__CHAIN__TOKEN", app.devnet.token.to_checksum(None))
            .env(
                "ARCADE__CHAIN__HOUSE_KEY",
                alloy::hex::encode_prefixed(house.to_bytes()),
            )
            .env("ARCADE__CHAIN__SETTLE_TIMEOUT_MS", "500")
            .env("ARCADE__PAYMENTS__RECONCILE_INTERVAL_MS", "200")
            .env("ARCADE__LOG__FILTER", "info")
            .stderr(Stdio::null());
        if let Some(point) = crash_after {
            command.env("ARCADE__FAULTS__CRASH_AFTER", point);
        }
        command
    }

    /// Waits for the process to end by itself; true if it was aborted.
    pub fn aborted(&mut self) -> bool {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return !status.success();
            }
            assert!(Instant::now() < deadline, "the process did not stop");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Arcade {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The JSON `url` answers.
pub async fn get_json(url: &str) -> Value {
    reqwest::Client::new()
        .get(url)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Cashout `id` of the binary at `base`, read until it is confirmed or failed (30 s at most).
pub async fn final_cashout(base: &str, id: &Value) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let cashout = get_json(&format!("{base}/api/arcade/cashout/{id}")).await;
        if cashout["status"] == "confirmed" || cashout["status"] == "failed" {
            return cashout;
        }
        assert!(Instant::now() < deadline, "not final: {cashout}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The auth statement the binary at `base` gives `player` to sign.
pub async fn auth_statement(base: &str, player: &PrivateKeySigner) -> String {
    let url = format!("{base}/api/arcade/auth-statement/{}", player.address());
    get_json(&url).await["statement"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The body of a cashout of `chips` for `player`, signed for the binary's public URL.
pub async fn cashout_body(app: &PaidApp, player: &PrivateKeySigner, chips: u64) -> Value {
    let statement = auth_statement(&app.base_url, player)
        .await
        .replace(&app.base_url.replace("http://", ""), "arcade.test");
    let signature = sign(player, &statement);
    json!({ "address": player.address(), "chips": chips, "signature": signature })
}
