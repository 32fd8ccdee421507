//! Typed settings, loaded once: built-in defaults, then an optional TOML file, then environment
//! variables `ARCADE__SECTION__KEY` (for example `ARCADE__DATABASE__URL`).

use std::path::{Path, PathBuf};

use alloy::primitives::Address;
use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

mod defaults;
mod operations;
pub mod secret_files;
mod values;
pub use operations::{MetricsSettings, TreasurySettings};
pub use values::{Amount, Secret, one_or_many};

/// Every section's defaults are its own (`defaults.rs`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
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
    pub auth: AuthSettings,
    pub rounds: RoundSettings,
    pub rate_limits: RateLimitSettings,
    pub signing: SigningSettings,
    pub seeds: SeedSettings,
    pub treasury: TreasurySettings,
    pub metrics: MetricsSettings,
    #[serde(default)]
    pub faults: FaultSettings,
}

/// The auth statement (an EIP-4361 message) every signature signs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AuthSettings {
    /// Keys the HMAC that derives each address's first `Nonce`. Every instance must share it;
    /// changing it changes every first-generation statement (their signatures stop verifying).
    /// Unset: generated once and kept in the database (`deployment_secrets`).
    pub secret: Option<Secret>,
    /// The `Issued At` of every first-generation statement (RFC 3339).
    pub first_issued_at: String,
}

/// The house's signatures on commitments, receipts and seed batches (EIP-712).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SigningSettings {
    /// The signing key (hex), the same on every instance; its address is published as
    /// `signer`. It holds no funds and needs no chain. Unset: generated once and kept in the
    /// database (`deployment_secrets`). A well-known test key is refused.
    pub key: Option<Secret>,
}

/// Pre-committed server seeds: batches whose Merkle root is signed before the first seed of
/// the batch is used.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SeedSettings {
    /// Keys every batch's secret; the same on every instance, and never shown. Unset: generated
    /// once and kept in the database (`deployment_secrets`).
    pub secret: Option<Secret>,
    /// Seeds per batch.
    pub batch_size: u64,
}

/// Rounds held open.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RoundSettings {
    /// Open rounds one address may hold; a commit beyond it answers 429 `too_many_open_rounds`.
    pub max_open_per_address: i64,
    /// An open round not played within this many seconds expires.
    pub ttl_secs: u64,
    /// How often expired rounds are looked for, in milliseconds.
    pub expire_every_ms: u64,
}

/// Token buckets per client (the peer IP; IPv6 by /64). Over a bucket: 429 `rate_limited`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RateLimitSettings {
    /// `false` turns every rate limit off (benchmarks, load tests).
    pub enabled: bool,
    /// Proxies (IPs or CIDRs) whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Vec<String>,
    /// Clients tracked at once; beyond it new clients share one bucket until idle ones are
    /// dropped.
    pub max_clients: usize,
    /// Every request, REST and MCP.
    pub general: Bucket,
    /// Free-chip claims.
    pub free: Bucket,
    /// Commits (opening rounds).
    pub commit: Bucket,
    /// Purchases that present a payment.
    pub purchase: Bucket,
    /// Cashouts.
    pub cashout: Bucket,
    /// Auth statement rotations.
    pub rotate: Bucket,
    /// Reads of one seed batch row (a round's proof).
    pub proof_read: Bucket,
    /// Anonymous reads of many rows (the audit feed, a page of a seed batch's detail, a row of
    /// a batch whose tree is not kept), per client: one token per hundred rows asked for.
    pub heavy_read: Bucket,
    /// The same reads, all clients together.
    pub heavy_read_total: Bucket,
}

/// A token bucket: one token every `every_ms`, holding at most `burst`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Bucket {
    pub every_ms: u64,
    pub burst: u32,
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

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct WebSettings {
    /// The directory holding every file `/wasm/` serves (both `web`-target packages: the
    /// verifier's and the signature checker's). Unset: `share/arcade/wasm` beside the binary (a
    /// release, the image), else the source tree the binary was built from (`api::wasm_dirs`).
    pub dir: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct McpSettings {
    /// Browser origins (`scheme://host[:port]`) allowed to call `/api/mcp`, besides the public
    /// URL's own. Requests without an `Origin` header (agents, CLIs) are always allowed.
    pub allowed_origins: Vec<String>,
    /// An MCP session idle this long ends; its id then gets 404 and the client initializes again.
    pub session_idle_secs: u64,
    /// Live MCP sessions at most; a new one beyond it ends the idlest of the client holding
    /// the most.
    pub max_sessions: usize,
    /// Live MCP sessions one client (as the rate limits tell clients apart) holds at most; a new
    /// one beyond it ends that client's own idlest.
    pub max_sessions_per_client: usize,
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
    /// The URL clients reach the service at. Names the service in the auth statement (its
    /// `domain` and `URI`). Unset: `http://<host>:<bound port>`, allowed only on a loopback host.
    pub public_url: Option<String>,
    /// Largest request body accepted, in bytes.
    pub max_body_bytes: usize,
    /// Where the service keeps what it generates for itself: the secrets left unset, as files
    /// of mode 0600 under `secrets/` (`crate::secrets`). Unset: `$STATE_DIRECTORY` (systemd's
    /// `StateDirectory=`), else the SQLite database's directory, else the working directory.
    pub state_dir: Option<String>,
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
    /// JSON-RPC endpoints of the chain, tried in turn (the best-answering first; a failed call
    /// goes to the next, then retries with backoff): one URL or a list. Empty: no chain;
    /// purchases answer 503 `payments_unavailable`.
    #[serde(deserialize_with = "one_or_many")]
    pub rpc_urls: Vec<Secret>,
    /// The dollar token (6 decimals, EIP-3009).
    pub token: Option<Address>,
    /// The token's EIP-712 `name` the payers sign under (Base: `USD Coin`, Base Sepolia:
    /// `USDC`). Set, the token must answer the same or the service refuses to start; unset,
    /// the token's own is used.
    pub token_name: Option<String>,
    /// The token's EIP-712 `version` (USDC: `2`); checked like `token_name`.
    pub token_version: Option<String>,
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
    /// The most the house bids per gas (wei; a decimal string or a number), for any transaction
    /// and any replacement of one: a fee spike cannot spend more. A transaction whose
    /// replacement would need more waits.
    pub max_fee_per_gas_wei: Amount,
    /// A cashout's transfer still in no block this long after it was signed, and next in the
    /// house's queue, is replaced at a higher fee even if its fee still clears the base fee
    /// (milliseconds).
    pub fee_bump_after_ms: u64,
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
    /// The rail that settles purchases (`house`, `facilitator`). Unset: `facilitator` when
    /// `facilitator_url` is set, else `house`.
    pub rail: Option<String>,
    /// Ownership proofs to publish for indexers (OpenAPI `x-discovery.ownershipProofs`,
    /// `/.well-known/x402`): `chain.pay_to`'s EIP-191 signature over the public URL's origin
    /// (`scheme://host[:port]`), `0x` + 130 hex, e.g. `cast wallet sign --private-key <pay_to's
    /// key> https://arcade.example`. Each must recover to `pay_to`, or the service refuses to
    /// start. Unset: the house key signs when it is `pay_to`'s; otherwise none is published.
    pub ownership_proofs: Vec<String>,
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
    /// `text` (for people) or `json` (one JSON object per line, for log pipelines).
    pub format: LogFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

/// Settings renamed since a release, with what replaced them: given, they are refused rather
/// than ignored.
const RENAMED: [(&str, &str); 3] = [
    ("chain.rpc_url", "chain.rpc_urls (one URL or a list)"),
    (
        "web.wasm_dir",
        "web.dir (one directory holding every file /wasm/ serves)",
    ),
    (
        "web.proofs_wasm_dir",
        "web.dir (one directory holding every file /wasm/ serves)",
    ),
];

impl Settings {
    /// Defaults, then `file` if given, then the `ARCADE__*` environment; each secret setting
    /// may come from a file instead (`secret_files`).
    pub fn load(file: Option<&Path>) -> Result<Self, figment::Error> {
        let credentials = std::env::var_os(secret_files::CREDENTIALS_DIRECTORY).map(PathBuf::from);
        Self::load_from(file, credentials.as_deref())
    }

    /// [`Settings::load`] with systemd's credentials in `credentials`.
    pub fn load_from(
        file: Option<&Path>,
        credentials: Option<&Path>,
    ) -> Result<Self, figment::Error> {
        let toml = match file {
            Some(file) => Figment::from(Toml::file_exact(file)),
            None => Figment::new(),
        };
        let env = Figment::from(Env::prefixed("ARCADE__").split("__"));
        for layer in [&toml, &env] {
            if let Some((old, new)) = RENAMED.iter().find(|(old, _)| layer.contains(old)) {
                return Err(figment::Error::from(format!("{old} is now {new}")));
            }
        }
        let from_files = secret_files::read(&toml, &env, credentials)?;
        let mut figment = Figment::from(Serialized::defaults(Settings::default()))
            .merge(toml)
            .merge(env);
        for (name, value) in from_files {
            figment = figment.merge(Serialized::default(name, value));
        }
        figment.extract()
    }
}

#[cfg(test)]
mod tests;
