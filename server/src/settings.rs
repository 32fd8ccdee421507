//! Typed settings, loaded once: built-in defaults, then an optional TOML file, then environment
//! variables `ARCADE__SECTION__KEY` (for example `ARCADE__DATABASE__URL`).

use std::fmt;
use std::path::Path;

use alloy::primitives::Address;
use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Settings {
    pub server: ServerSettings,
    pub database: DatabaseSettings,
    pub chain: ChainSettings,
    pub payments: PaymentSettings,
    pub house: HouseSettings,
    pub mcp: McpSettings,
    pub web: WebSettings,
    pub housebots: HouseBotSettings,
    pub log: LogSettings,
    #[serde(default)]
    pub faults: FaultSettings,
}

/// The service's own agents, playing the floor through the public API.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HouseBotSettings {
    /// Off by default; `arcade dev` turns them on.
    pub enabled: bool,
    /// One agent per private key (0x + 64 hex); their addresses become house wallets.
    pub keys: Vec<Secret>,
    /// Pause between an agent's rounds, in milliseconds.
    pub cadence_ms: u64,
    /// Chips per wager (less when the balance is lower).
    pub wager: i64,
    /// Below this balance an agent gets chips: the free grant first, then an x402 purchase of
    /// the micro tier when payments are available.
    pub top_up_below: i64,
    /// Each agent stops after this many rounds (0: never). For demos and tests.
    pub max_rounds: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WebSettings {
    /// The `web`-target wasm package the verifier page loads (wasm-pack's `--out-dir`).
    pub wasm_dir: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct McpSettings {
    /// Browser origins (`scheme://host[:port]`) allowed to call `/api/mcp`, besides the public
    /// URL's own. Requests without an `Origin` header (agents, CLIs) are always allowed.
    pub allowed_origins: Vec<String>,
    /// An MCP session idle this long ends; its id then gets 404 and the client initializes again.
    pub session_idle_secs: u64,
}

/// Crash-safety tests only.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct FaultSettings {
    /// Abort the process right after this step of a cashout.
    pub crash_after: Option<crate::faults::CrashPoint>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ServerSettings {
    /// Interface to listen on.
    pub host: String,
    /// Port to listen on; 0 picks a free one (tests).
    pub port: u16,
    /// The URL clients reach the service at. Names the service in the auth statement.
    /// Unset: `http://<host>:<bound port>`.
    pub public_url: Option<String>,
    /// Largest request body accepted, in bytes.
    pub max_body_bytes: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DatabaseSettings {
    /// `sqlite://path?mode=rwc` or `postgres://user:password@host/db`.
    pub url: Secret,
    /// Pool size. Unset: 1 for SQLite (one writer at a time), 16 for PostgreSQL.
    pub max_connections: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChainSettings {
    /// The EVM chain the arcade's token lives on; named in the auth statement and checked
    /// against the RPC's `eth_chainId` at start.
    pub chain_id: u64,
    /// JSON-RPC endpoint. Unset: no chain; purchases answer 503 `payments_unavailable`.
    pub rpc_url: Option<Secret>,
    /// The dollar token (6 decimals, EIP-3009). Its EIP-712 name and version are read from it.
    pub token: Option<Address>,
    /// The house key (0x + 64 hex): submits settlements and pays their gas.
    pub house_key: Option<Secret>,
    /// Where payments go. Unset: the house address.
    pub pay_to: Option<Address>,
    /// Blocks on top of a settlement's block before its chips are credited (1 = mined).
    pub confirmations: u64,
    /// Bound on one RPC call, in milliseconds.
    pub rpc_timeout_ms: u64,
    /// Bound on waiting for a settlement's receipt, in milliseconds. Past it the purchase
    /// answers `settlement_pending` and the reconciler finishes it.
    pub settle_timeout_ms: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PaymentSettings {
    /// `maxTimeoutSeconds` of every offer: how long a signed authorization may stay valid.
    pub max_timeout_seconds: u64,
    /// How often unfinished settlements are checked against the chain, in milliseconds.
    pub reconcile_interval_ms: u64,
    /// An x402 facilitator (`POST /verify`, `POST /settle`) to verify and settle through instead
    /// of the house. Unset (default): the house verifies and settles itself. A secret: hosted
    /// facilitators' URLs may carry a key.
    pub facilitator_url: Option<Secret>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct HouseSettings {
    /// The service's own wallets; public stats split their play from everyone else's.
    pub wallets: Vec<Address>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LogSettings {
    /// A `tracing` filter, e.g. `info` or `arcade_server=debug,info`. `RUST_LOG` overrides it.
    pub filter: String,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            server: ServerSettings {
                host: "127.0.0.1".into(),
                port: 8402,
                public_url: None,
                max_body_bytes: 64 * 1024,
            },
            database: DatabaseSettings {
                url: Secret::new("sqlite://arcade.db?mode=rwc"),
                max_connections: None,
            },
            chain: ChainSettings {
                chain_id: 84532,
                rpc_url: None,
                token: None,
                house_key: None,
                pay_to: None,
                confirmations: 1,
                rpc_timeout_ms: 10_000,
                settle_timeout_ms: 30_000,
            },
            payments: PaymentSettings {
                max_timeout_seconds: 300,
                reconcile_interval_ms: 15_000,
                facilitator_url: None,
            },
            house: HouseSettings::default(),
            housebots: HouseBotSettings {
                enabled: false,
                keys: Vec::new(),
                cadence_ms: 2_000,
                wager: 5,
                top_up_below: 20,
                max_rounds: 0,
            },
            web: WebSettings {
                wasm_dir: "wasm/pkg-web".into(),
            },
            mcp: McpSettings {
                allowed_origins: Vec::new(),
                session_idle_secs: 1800,
            },
            log: LogSettings {
                filter: "info".into(),
            },
            faults: FaultSettings::default(),
        }
    }
}

impl Settings {
    /// Defaults, then `file` if given, then the `ARCADE__*` environment.
    pub fn load(file: Option<&Path>) -> Result<Self, figment::Error> {
        let mut figment = Figment::from(Serialized::defaults(Settings::default()));
        if let Some(file) = file {
            figment = figment.merge(Toml::file_exact(file));
        }
        figment
            .merge(Env::prefixed("ARCADE__").split("__"))
            .extract()
    }
}

/// A value that never appears in logs or debug output.
#[derive(Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_stay_out_of_debug_output() {
        let mut settings = Settings::default();
        settings.database.url = Secret::new("postgres://arcade:hunter2@db/arcade");
        settings.chain.house_key = Some(Secret::new("0xhouse-key-hunter3"));
        let shown = format!("{settings:?}");
        assert!(!shown.contains("hunter2"));
        assert!(!shown.contains("hunter3"));
    }

    #[test]
    fn addresses_are_read_once_in_any_case() {
        figment::Jail::expect_with(|jail| {
            jail.create_file(
                "arcade.toml",
                "[house]\nwallets = [\"0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED\"]\n",
            )?;
            jail.set_env(
                "ARCADE__CHAIN__TOKEN",
                "0x5fbdb2315678afecb367f032d93f642f64180aa3",
            );
            let settings = Settings::load(Some(Path::new("arcade.toml")))?;
            assert_eq!(
                settings.chain.token.map(|a| a.to_checksum(None)).as_deref(),
                Some("0x5FbDB2315678afecb367f032d93F642f64180aa3")
            );
            assert_eq!(
                settings.house.wallets[0].to_checksum(None),
                "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
            );
            jail.set_env("ARCADE__CHAIN__PAY_TO", "0x123");
            assert!(
                Settings::load(None).is_err(),
                "not an address: refused at start"
            );
            Ok(())
        });
    }

    #[test]
    fn file_then_environment_override_defaults() {
        figment::Jail::expect_with(|jail| {
            jail.create_file(
                "arcade.toml",
                "[server]\nport = 9000\n[chain]\nchain_id = 8453\n",
            )?;
            jail.set_env("ARCADE__CHAIN__CHAIN_ID", "31337");
            let settings = Settings::load(Some(Path::new("arcade.toml")))?;
            assert_eq!(settings.server.port, 9000);
            assert_eq!(settings.chain.chain_id, 31337);
            assert_eq!(settings.server.host, "127.0.0.1");
            Ok(())
        });
    }
}
