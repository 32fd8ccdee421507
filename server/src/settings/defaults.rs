//! The built-in defaults of each section: the settings before a file or the environment changes
//! them (the treasury's and metrics' are beside their types in `operations.rs`; the signing
//! key, the house and the faults are unset by default).

use super::{
    Amount, AuthSettings, Bucket, ChainSettings, DatabaseSettings, HouseBotSettings, LogFormat,
    LogSettings, McpSettings, PaymentSettings, RateLimitSettings, RoundSettings, Secret,
    SeedSettings, ServerSettings,
};

impl Default for ServerSettings {
    fn default() -> Self {
        Self {
            host: "127.0.0.1".into(),
            port: 8402,
            public_url: None,
            max_body_bytes: 64 * 1024,
            state_dir: None,
        }
    }
}

impl Default for DatabaseSettings {
    fn default() -> Self {
        Self {
            url: Secret::new("sqlite://arcade.db?mode=rwc"),
            max_connections: None,
        }
    }
}

impl Default for ChainSettings {
    fn default() -> Self {
        Self {
            chain_id: 84532,
            rpc_urls: Vec::new(),
            token: None,
            token_name: None,
            token_version: None,
            house_key: None,
            pay_to: None,
            confirmations: 1,
            rpc_timeout_ms: 10_000,
            settle_timeout_ms: 30_000,
            max_fee_per_gas_wei: Amount::from(100_000_000_000u64),
            fee_bump_after_ms: 300_000,
        }
    }
}

impl Default for PaymentSettings {
    fn default() -> Self {
        Self {
            max_timeout_seconds: 300,
            reconcile_interval_ms: 15_000,
            facilitator_url: None,
            rail: None,
            ownership_proofs: Vec::new(),
        }
    }
}

impl Default for HouseBotSettings {
    fn default() -> Self {
        Self {
            enabled: false,
            keys: Vec::new(),
            cadence_ms: 2_000,
            wager: 5,
            top_up_below: 20,
            max_rounds: 0,
        }
    }
}

impl Default for McpSettings {
    fn default() -> Self {
        Self {
            allowed_origins: Vec::new(),
            session_idle_secs: 1800,
            max_sessions: 1000,
            max_sessions_per_client: 16,
        }
    }
}

impl Default for LogSettings {
    fn default() -> Self {
        Self {
            filter: "info".into(),
            format: LogFormat::Text,
        }
    }
}

impl Default for AuthSettings {
    fn default() -> Self {
        Self {
            secret: None,
            first_issued_at: "2026-01-01T00:00:00Z".into(),
        }
    }
}

impl Default for SeedSettings {
    fn default() -> Self {
        Self {
            secret: None,
            batch_size: 1024,
        }
    }
}

impl Default for RoundSettings {
    fn default() -> Self {
        Self {
            max_open_per_address: 32,
            ttl_secs: 24 * 60 * 60,
            expire_every_ms: 60_000,
        }
    }
}

impl Default for RateLimitSettings {
    fn default() -> Self {
        let bucket = |every_ms, burst| Bucket { every_ms, burst };
        Self {
            enabled: true,
            trusted_proxies: Vec::new(),
            max_clients: 100_000,
            general: bucket(50, 100),
            free: bucket(6_000, 10),
            commit: bucket(200, 40),
            purchase: bucket(2_000, 10),
            cashout: bucket(10_000, 5),
            rotate: bucket(10_000, 5),
            proof_read: bucket(50, 100),
            heavy_read: bucket(100, 20),
            heavy_read_total: bucket(25, 20),
        }
    }
}
