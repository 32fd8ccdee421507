//! What operators watch the service by: the treasury's floors and the metrics endpoint.

use serde::{Deserialize, Serialize};

use super::Amount;

/// The house's balances on the chain, watched against floors: under one, the service warns
/// once, `/readyz` answers 503 and `arcade doctor` fails.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TreasurySettings {
    /// The house's native balance (wei) below which it may soon not pay gas.
    pub min_gas_wei: Amount,
    /// The house's token balance (base units) below which cashouts may soon not be paid.
    pub min_token: Amount,
    /// How often the balances are read, in milliseconds.
    pub check_every_ms: u64,
}

/// Prometheus metrics at `/metrics`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MetricsSettings {
    /// `false`: no metrics are served.
    pub enabled: bool,
    /// A separate `host:port` serving only `/metrics` (to anyone who reaches it). Unset: the
    /// main listener serves `/metrics` to loopback clients only.
    pub listen: Option<String>,
}

impl Default for TreasurySettings {
    fn default() -> Self {
        Self {
            // 0.001 ETH: some hundreds of token transfers on an L2 such as Base.
            min_gas_wei: Amount::from(1_000_000_000_000_000u64),
            // 10 dollars.
            min_token: Amount::from(10_000_000u64),
            check_every_ms: 15_000,
        }
    }
}

impl Default for MetricsSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            listen: None,
        }
    }
}
