//! Typed settings, loaded once: built-in defaults, then an optional TOML file, then environment
//! variables `ARCADE__SECTION__KEY` (for example `ARCADE__DATABASE__URL`).

use std::fmt;
use std::path::Path;

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Settings {
    pub server: ServerSettings,
    pub database: DatabaseSettings,
    pub chain: ChainSettings,
    pub house: HouseSettings,
    pub log: LogSettings,
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
    /// The EVM chain the arcade's token lives on; named in the auth statement.
    pub chain_id: u64,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct HouseSettings {
    /// The service's own wallets; public stats split their play from everyone else's.
    pub wallets: Vec<String>,
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
            chain: ChainSettings { chain_id: 84532 },
            house: HouseSettings::default(),
            log: LogSettings {
                filter: "info".into(),
            },
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
        assert!(!format!("{settings:?}").contains("hunter2"));
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
