//! The house's treasury: its gas (native) and token balances, read every
//! `treasury.check_every_ms` and held against their floors. Under a floor the service warns
//! once per crossing and `/readyz` says so; a cashout the house cannot pay now is refused
//! before anything is debited (`house_underfunded`).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use alloy::primitives::{Address, U256};

use crate::chain::{Chain, ChainError};
use crate::settings::TreasurySettings;
use crate::telemetry::metrics;

/// The house's balances at one reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Balances {
    pub gas_wei: U256,
    pub token: U256,
}

/// What the last reading says, for `/readyz`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TreasuryHealth {
    Funded,
    /// Under a floor: `gas`, `token` or both.
    BelowFloor(Vec<&'static str>),
    /// No reading yet, the last one failed, or it is too old.
    Unknown(String),
}

pub struct Treasury {
    settings: TreasurySettings,
    last: Mutex<Last>,
    /// Held from a cashout's funding check until its debit is recorded, so two cashouts in
    /// this process cannot both count the same tokens.
    pub(crate) cashout_gate: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct Last {
    balances: Option<Balances>,
    read_at: Option<Instant>,
    failure: Option<String>,
    gas_low: bool,
    token_low: bool,
}

impl Treasury {
    pub fn new(settings: TreasurySettings) -> Self {
        Self {
            settings,
            last: Mutex::new(Last::default()),
            cashout_gate: tokio::sync::Mutex::new(()),
        }
    }

    fn last(&self) -> std::sync::MutexGuard<'_, Last> {
        self.last.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn interval(&self) -> Duration {
        Duration::from_millis(self.settings.check_every_ms.max(100))
    }

    /// Reads the house's balances now and records them: gauges, and a warning the first time
    /// a balance is seen under its floor (an info line when it is back above).
    pub async fn check(&self, chain: &Chain) -> Result<Balances, ChainError> {
        let house = chain.house_address();
        let read = async {
            Ok::<_, ChainError>(Balances {
                gas_wei: chain.gas_balance(house).await?,
                token: chain.token_balance(house).await?,
            })
        };
        match read.await {
            Ok(balances) => {
                self.record(house, balances);
                Ok(balances)
            }
            Err(error) => {
                let mut last = self.last();
                last.failure = Some(error.to_string());
                last.read_at = Some(Instant::now());
                Err(error)
            }
        }
    }

    fn record(&self, house: Address, balances: Balances) {
        let gas_low = balances.gas_wei < self.settings.min_gas_wei.0;
        let token_low = balances.token < self.settings.min_token.0;
        metrics::house_balances(balances.gas_wei, balances.token, gas_low, token_low);
        let mut last = self.last();
        let crossings = [
            (
                "gas",
                "wei",
                last.gas_low,
                gas_low,
                balances.gas_wei,
                self.settings.min_gas_wei.0,
            ),
            (
                "token",
                "base units",
                last.token_low,
                token_low,
                balances.token,
                self.settings.min_token.0,
            ),
        ];
        for (balance, unit, was_low, low, held, floor) in crossings {
            if low && !was_low {
                tracing::warn!(%house, balance, %held, %floor, unit, "the house's balance fell under its floor: fund it before cashouts fail");
            } else if was_low && !low {
                tracing::info!(%house, balance, %held, %floor, unit, "the house's balance is back above its floor");
            }
        }
        *last = Last {
            balances: Some(balances),
            read_at: Some(Instant::now()),
            failure: None,
            gas_low,
            token_low,
        };
    }

    /// The last reading against the floors. A reading older than three intervals counts as
    /// none: the watch has stopped hearing from the chain.
    pub fn health(&self) -> TreasuryHealth {
        let last = self.last();
        let Some(read_at) = last.read_at else {
            return TreasuryHealth::Unknown("the house's balances have not been read yet".into());
        };
        if let Some(failure) = &last.failure {
            return TreasuryHealth::Unknown(format!("reading the house's balances: {failure}"));
        }
        if read_at.elapsed() > self.interval() * 3 {
            return TreasuryHealth::Unknown(format!(
                "the house's balances were last read {}s ago",
                read_at.elapsed().as_secs()
            ));
        }
        let low: Vec<_> = [("gas", last.gas_low), ("token", last.token_low)]
            .into_iter()
            .filter_map(|(name, low)| low.then_some(name))
            .collect();
        if low.is_empty() {
            TreasuryHealth::Funded
        } else {
            TreasuryHealth::BelowFloor(low)
        }
    }

    /// The last balances read, if any.
    pub fn balances(&self) -> Option<Balances> {
        self.last().balances
    }
}
