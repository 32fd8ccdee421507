//! The real server on port 0 over a fresh migrated database (a SQLite file, or a new
//! PostgreSQL database), an HTTP client, independent signers and the ledger audit.

use std::collections::HashMap;
use std::sync::Arc;

use alloy::dyn_abi::TypedData;
use alloy::primitives::{Address, Signature};
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::{bet, ledger, round, wallet};
use arcade_server::service::Arcade;
use arcade_server::settings::{Secret, Settings};
use arcade_server::startup::Application;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, Database, EntityTrait, QueryFilter, QueryOrder,
};
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Runs one test body against a backend; the ledger audit runs after it.
#[macro_export]
macro_rules! on_both_backends {
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn sqlite() {
                let app = $crate::helpers::TestApp::spawn($crate::helpers::Backend::Sqlite).await;
                super::$name(&app).await;
                app.audit().await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn postgres() {
                let app = $crate::helpers::TestApp::spawn($crate::helpers::Backend::Postgres).await;
                super::$name(&app).await;
                app.audit().await;
            }
        }
    };
}

pub struct TestApp {
    pub base_url: String,
    pub database_url: String,
    pub client: reqwest::Client,
    pub arcade: Arc<Arcade>,
}

pub struct Response {
    pub status: u16,
    pub body: Value,
}

impl TestApp {
    pub async fn spawn(backend: Backend) -> Self {
        Self::spawn_with(backend, |_| {}).await
    }

    pub async fn spawn_with(backend: Backend, configure: impl FnOnce(&mut Settings)) -> Self {
        let database_url = fresh_database(backend).await;
        Self::spawn_on(&database_url, configure).await
    }

    /// Another server instance on an existing database.
    pub async fn spawn_on(database_url: &str, configure: impl FnOnce(&mut Settings)) -> Self {
        let mut settings = Settings::default();
        settings.server.port = 0;
        settings.database.url = Secret::new(database_url);
        // One deployment, one state directory: every instance on this database finds the
        // secrets the first one generated.
        settings.server.state_dir = Some(state_dir(database_url));
        settings.log.filter = std::env::var("ARCADE_TEST_LOG").unwrap_or_else(|_| "warn".into());
        // Every test client is 127.0.0.1: the rate limits' own tests turn them back on.
        settings.rate_limits.enabled = false;
        configure(&mut settings);
        arcade_server::telemetry::init(&settings.log);
        let app = Application::build(settings)
            .await
            .expect("the server starts");
        let base_url = format!("http://127.0.0.1:{}", app.port());
        let arcade = app.arcade();
        tokio::spawn(app.run_until_stopped());
        Self {
            base_url,
            database_url: database_url.to_owned(),
            client: reqwest::Client::new(),
            arcade,
        }
    }

    pub async fn get(&self, path: &str) -> Response {
        let response = self
            .client
            .get(format!("{}{path}", self.base_url))
            .send()
            .await
            .expect("request sent");
        Response::read(response).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> Response {
        self.post_raw(path, body.to_string()).await
    }

    pub async fn post_raw(&self, path: &str, body: impl Into<reqwest::Body>) -> Response {
        let response = self
            .client
            .post(format!("{}{path}", self.base_url))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("request sent");
        Response::read(response).await
    }

    /// Signs this deployment's statement for the signer's address, as a player would.
    pub async fn sign_statement(&self, signer: &PrivateKeySigner) -> String {
        let statement = self
            .get(&format!("/api/arcade/auth-statement/{}", signer.address()))
            .await
            .ok();
        sign(
            signer,
            statement["statement"].as_str().expect("a statement"),
        )
    }

    /// `POST /api/arcade/cashout` signed by `player`.
    pub async fn cash_out(&self, player: &PrivateKeySigner, chips: i64) -> Response {
        let signature = self.sign_statement(player).await;
        self.post(
            "/api/arcade/cashout",
            &json!({ "address": player.address(), "chips": chips, "signature": signature }),
        )
        .await
    }

    /// The address's count of open rounds, as its wallet holds it.
    pub async fn open_rounds(&self, player: &PrivateKeySigner) -> i64 {
        let key = format!("{:#x}", player.address());
        wallet::Entity::find_by_id(key)
            .one(&self.arcade.db)
            .await
            .unwrap()
            .map_or(0, |w| w.open_rounds)
    }

    pub async fn claim_free(&self, signer: &PrivateKeySigner) {
        self.post("/api/arcade/free", &json!({ "address": signer.address() }))
            .await
            .ok();
    }

    pub async fn commit(&self, signer: &PrivateKeySigner) -> String {
        let signature = self.sign_statement(signer).await;
        let committed = self
            .post(
                "/api/arcade/commit",
                &json!({ "address": signer.address(), "signature": signature }),
            )
            .await
            .ok();
        committed["round_id"]
            .as_str()
            .expect("a round id")
            .to_owned()
    }

    pub async fn chips(&self, address: Address) -> i64 {
        let balance = self
            .get(&format!("/api/arcade/balance/{address}"))
            .await
            .ok();
        balance["chips"].as_i64().expect("chips")
    }

    /// Gives an address chips as a purchase would (purchases themselves come with x402).
    pub async fn fund(&self, address: Address, chips: i64) {
        let key = format!("{address:#x}");
        let db = &self.arcade.db;
        let row = wallet::ActiveModel {
            address: Set(key.clone()),
            chips: Set(0),
            bought_in: Set(true),
            free_claimed: Set(false),
            free_granted: Set(0),
            net_day: Set(0),
            net_today: Set(0),
            created_at: Set(0),
            open_rounds: Set(0),
            free_chips: Set(0),
            free_opening: Set(0),
        };
        wallet::Entity::insert(row)
            .on_conflict(
                sea_orm::sea_query::OnConflict::column(wallet::Column::Address)
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(db)
            .await
            .unwrap();
        let updated = wallet::Entity::update_many()
            .col_expr(
                wallet::Column::Chips,
                Expr::col(wallet::Column::Chips).add(chips),
            )
            .filter(wallet::Column::Address.eq(&key))
            .exec_with_returning(db)
            .await
            .unwrap();
        let entry = ledger::ActiveModel {
            address: Set(key),
            kind: Set(arcade_server::entities::ledger::LedgerKind::Purchase),
            delta: Set(chips),
            balance_after: Set(updated[0].chips),
            reference: Set("test fixture".into()),
            created_at: Set(0),
            ..Default::default()
        };
        ledger::Entity::insert(entry)
            .exec_without_returning(db)
            .await
            .unwrap();
    }

    /// Sets today's net winnings of an address, to test the daily cap without playing to it.
    pub async fn set_net_today(&self, address: Address, net: i64) {
        let today = chrono::Utc::now().timestamp_millis().div_euclid(86_400_000);
        wallet::Entity::update_many()
            .col_expr(wallet::Column::NetDay, Expr::value(today))
            .col_expr(wallet::Column::NetToday, Expr::value(net))
            .filter(wallet::Column::Address.eq(format!("{address:#x}")))
            .exec(&self.arcade.db)
            .await
            .unwrap();
    }

    /// Every balance equals the sum of its ledger entries, and the entries chain; every free
    /// pocket equals its opening plus the free part of those entries, within the balance; every
    /// bet paid its free pocket what the pockets' rule says.
    pub async fn audit(&self) {
        let db = &self.arcade.db;
        let wallets = wallet::Entity::find().all(db).await.unwrap();
        let entries = ledger::Entity::find()
            .order_by_asc(ledger::Column::Id)
            .all(db)
            .await
            .unwrap();
        let mut sums: HashMap<&str, i64> = HashMap::new();
        let mut free_sums: HashMap<&str, i64> = HashMap::new();
        for entry in &entries {
            let sum = sums.entry(entry.address.as_str()).or_default();
            *sum += entry.delta;
            assert_eq!(
                *sum, entry.balance_after,
                "ledger entry {} of {} does not chain",
                entry.id, entry.address
            );
            *free_sums.entry(entry.address.as_str()).or_default() += entry.free_delta;
        }
        for wallet in &wallets {
            assert!(wallet.chips >= 0);
            assert_eq!(
                sums.get(wallet.address.as_str()).copied().unwrap_or(0),
                wallet.chips,
                "the balance of {} is not the sum of its ledger",
                wallet.address
            );
            assert_eq!(
                wallet.free_opening + free_sums.get(wallet.address.as_str()).copied().unwrap_or(0),
                wallet.free_chips,
                "the free pocket of {} is not its opening plus its ledger's free part",
                wallet.address
            );
            assert!(
                (0..=wallet.chips).contains(&wallet.free_chips),
                "the free pocket of {} ({}) is outside its balance ({})",
                wallet.address,
                wallet.free_chips,
                wallet.chips
            );
        }
        // Each bet keeps its round's commitment and time for the public listing: the copies
        // must be the round's.
        let bets = bet::Entity::find()
            .find_also_related(round::Entity)
            .all(db)
            .await
            .unwrap();
        for (bet, round) in &bets {
            let round = round.as_ref().expect("every bet has its round");
            assert_eq!(
                (&bet.commitment, bet.committed_at),
                (&round.commitment, round.created_at),
                "bet {} lists its round otherwise than the round",
                bet.id
            );
            let [wager, free_wagered, payout, free_paid] =
                [bet.wager, bet.free_wagered, bet.payout, bet.free_paid]
                    .map(|chips| u64::try_from(chips).expect("no negative chips on a bet"));
            let stake = arcade_core::Stake::new(wager, free_wagered)
                .unwrap_or_else(|e| panic!("bet {}: {e}", bet.id));
            assert_eq!(
                stake.split(payout).free,
                free_paid,
                "bet {} paid its free pocket otherwise than the pockets' rule",
                bet.id
            );
        }
    }
}

impl Response {
    pub async fn read(response: reqwest::Response) -> Self {
        let status = response.status().as_u16();
        let text = response.text().await.expect("a body");
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Self { status, body }
    }

    /// The body of a 200, or a panic that shows what came instead.
    pub fn ok(self) -> Value {
        assert_eq!(
            self.status, 200,
            "expected 200, got {}: {}",
            self.status, self.body
        );
        self.body
    }

    /// Asserts an error status and code; returns the body.
    pub fn error(self, status: u16, code: &str) -> Value {
        assert_eq!(
            (self.status, self.body["code"].as_str()),
            (status, Some(code)),
            "{}",
            self.body
        );
        self.body
    }

    /// Asserts a 422 whose first problem is at `loc` with `kind`.
    pub fn invalid(self, loc: &[Value], kind: &str) -> Value {
        assert_eq!(self.status, 422, "{}", self.body);
        let problems = self.body["detail"]
            .as_array()
            .expect("a detail list")
            .clone();
        assert!(
            problems
                .iter()
                .any(|p| p["loc"].as_array().map(Vec::as_slice) == Some(loc) && p["type"] == kind),
            "no {kind} at {loc:?} in {}",
            self.body
        );
        self.body
    }
}

/// The address a signed object (`{signature, typed_data}`) recovers to.
pub fn recover(signed: &Value) -> Address {
    let typed: TypedData = serde_json::from_value(signed["typed_data"].clone()).unwrap();
    let hash = typed.eip712_signing_hash().unwrap();
    let signature: Signature = signed["signature"].as_str().unwrap().parse().unwrap();
    signature.recover_address_from_prehash(&hash).unwrap()
}

/// The house's signing address, from the manifest.
pub fn signer(manifest: &Value) -> Address {
    manifest["signer"].as_str().unwrap().parse().unwrap()
}

pub fn sign(signer: &PrivateKeySigner, statement: &str) -> String {
    let signature = signer
        .sign_message_sync(statement.as_bytes())
        .expect("signed");
    format!("0x{}", alloy::hex::encode(signature.as_bytes()))
}

/// A database no other test uses, migrated by the server when it starts.
pub async fn fresh_database(backend: Backend) -> String {
    let name = format!("arcade_test_{}", alloy::hex::encode(rand_bytes()));
    match backend {
        Backend::Sqlite => {
            let dir = std::env::temp_dir().join("arcade-tests");
            std::fs::create_dir_all(&dir).expect("a temp dir");
            let path = dir.join(format!("{name}.db"));
            format!("sqlite://{}?mode=rwc", path.display())
        }
        Backend::Postgres => {
            let admin_url = std::env::var("ARCADE_TEST_POSTGRES_URL").expect(
                "ARCADE_TEST_POSTGRES_URL must name a PostgreSQL server (tests/run.sh starts one)",
            );
            // Fail fast (not hang) when the server named is not running.
            let mut options = sea_orm::ConnectOptions::new(admin_url.clone());
            options
                .connect_timeout(std::time::Duration::from_secs(5))
                .acquire_timeout(std::time::Duration::from_secs(5));
            let admin = Database::connect(options)
                .await
                .unwrap_or_else(|e| panic!("PostgreSQL at ARCADE_TEST_POSTGRES_URL: {e}"));
            admin
                .execute_unprepared(&format!("CREATE DATABASE {name}"))
                .await
                .expect("a fresh database");
            let (server, _) = admin_url.rsplit_once('/').expect("a database in the URL");
            format!("{server}/{name}")
        }
    }
}

/// The server seed of a round, as only the house can derive it: the database keeps none, so it
/// comes from the state directory's seeds secret, the round's batch (its salt) and index.
pub async fn secret_seed(app: &TestApp, round_id: &str) -> String {
    use arcade_server::entities::seed_batch;
    let db = &app.arcade.db;
    let round = round::Entity::find_by_id(round_id.to_owned())
        .one(db)
        .await
        .unwrap()
        .expect("the round");
    let batch_id = round.batch_id.expect("a round of a seed batch");
    let batch = seed_batch::Entity::find_by_id(batch_id)
        .one(db)
        .await
        .unwrap()
        .expect("its batch");
    let secret_file =
        std::path::Path::new(&state_dir(&app.database_url)).join("secrets/seeds.secret");
    let secret = std::fs::read_to_string(secret_file).expect("the generated seeds secret");
    let key = arcade_server::proofs::BatchKey {
        id: batch_id,
        salt: batch.salt.as_deref(),
    };
    arcade_server::proofs::SeedBook::new(secret.trim())
        .seed(key, round.seed_index.expect("its index"))
}

/// The state directory of the deployment on `database_url` (named by its database).
pub fn state_dir(database_url: &str) -> String {
    let name = database_url
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .split(['.', '?'])
        .next()
        .unwrap_or_default();
    let dir = std::env::temp_dir()
        .join("arcade-tests")
        .join(format!("state-{name}"));
    dir.to_string_lossy().into_owned()
}

fn rand_bytes() -> [u8; 8] {
    alloy::primitives::FixedBytes::<8>::random().0
}
