//! Building and running the application: database, migrations, listener, routes. Tests call
//! [`Application::build`] with port 0 and talk to the real server.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use salvo::conn::tcp::TcpAcceptor;
use salvo::prelude::*;
use salvo::server::ServerHandle;
use tokio_util::sync::CancellationToken;

use crate::address;
use crate::api;
use crate::chain::{Chain, ConnectError};
use crate::housebots::HouseBots;
use crate::identity::Identity;
use crate::service::Arcade;
use crate::service::purchases::{FacilitatorRail, HouseRail, Payments, Settler};
use crate::service::reconcile::spawn_reconciler;
use crate::settings::Settings;
use crate::store;
use crate::x402::Terms;
use crate::x402::facilitator::Facilitator;

const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("database: {0}")]
    Database(#[from] sea_orm::DbErr),
    #[error("listening on {address}: {source}")]
    Bind {
        address: String,
        source: salvo::Error,
    },
    #[error("house wallet {0:?} is not an address (0x + 40 hex)")]
    HouseWallet(String),
    #[error("server.public_url {0:?} has no host")]
    PublicUrl(String),
    #[error("chain: {0}")]
    Chain(#[from] ConnectError),
    #[error(transparent)]
    HouseBot(#[from] crate::housebots::BadKey),
}

pub struct Application {
    acceptor: TcpAcceptor,
    service: Service,
    base_url: String,
    arcade: Arc<Arcade>,
    reconcile_interval: Duration,
    /// Cancelled on SIGINT/SIGTERM: ends MCP sessions and their open streams.
    shutdown: CancellationToken,
}

impl Application {
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        let db = store::connect(&settings.database).await?;
        store::migrate(&db).await?;
        let payments = Chain::connect(&settings.chain)
            .await?
            .map(|chain| payments(chain, &settings));
        let listen = format!("{}:{}", settings.server.host, settings.server.port);
        let acceptor = TcpListener::new(listen.clone())
            .try_bind()
            .await
            .map_err(|source| StartupError::Bind {
                address: listen.clone(),
                source,
            })?;
        let port = acceptor
            .local_addr()
            .map_err(|e| StartupError::Bind {
                address: listen,
                source: e.into(),
            })?
            .port();
        let base_url = settings
            .server
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}:{port}", settings.server.host));
        let house_bots = HouseBots::new(&settings.housebots)?;
        let mut house_wallets = house_wallets(&settings.house.wallets)?;
        house_wallets.extend(house_bots.addresses().iter().map(address::key));
        let arcade = Arc::new(Arcade {
            db,
            identity: Identity::new(host_of(&base_url)?, settings.chain.chain_id),
            limits: arcade_core::Limits::SPEC,
            house_wallets,
            payments,
            house_lock: tokio::sync::Mutex::new(()),
            crash_after: settings.faults.crash_after,
            house_bots,
        });
        let shutdown = CancellationToken::new();
        let service = api::service(
            arcade.clone(),
            base_url.clone(),
            settings.server.max_body_bytes,
            &settings.mcp,
            settings.web.wasm_dir.clone().into(),
            shutdown.clone(),
        );
        Ok(Self {
            acceptor,
            service,
            base_url,
            arcade,
            reconcile_interval: Duration::from_millis(settings.payments.reconcile_interval_ms),
            shutdown,
        })
    }

    pub fn port(&self) -> u16 {
        self.acceptor.local_addr().map(|a| a.port()).unwrap_or(0)
    }

    /// Where clients reach this instance.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    pub fn arcade(&self) -> Arc<Arcade> {
        self.arcade.clone()
    }

    /// Serves until SIGINT or SIGTERM, then lets requests in flight finish.
    pub async fn run_until_stopped(self) {
        // House agents reach this instance over loopback, whatever the public URL says.
        let local_url = format!("http://127.0.0.1:{}", self.port());
        let server = Server::new(self.acceptor);
        tokio::spawn(stop_on_signal(server.handle(), self.shutdown.clone()));
        let reconciler = self
            .arcade
            .payments
            .is_some()
            .then(|| spawn_reconciler(self.arcade.clone(), self.reconcile_interval));
        tracing::info!(url = %self.base_url, "arcade listening");
        self.arcade.house_bots.spawn(&local_url, &self.shutdown);
        server.serve(self.service).await;
        if let Some(reconciler) = reconciler {
            reconciler.abort();
        }
        tracing::info!("arcade stopped");
    }
}

async fn stop_on_signal(handle: ServerHandle, shutdown: CancellationToken) {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        () = terminate => {}
    }
    tracing::info!("shutting down: finishing requests in flight");
    shutdown.cancel();
    handle.stop_graceful(SHUTDOWN_GRACE);
}

fn payments(chain: Chain, settings: &Settings) -> Payments {
    let domain = chain.token_domain();
    let terms = Terms {
        network: chain.network(),
        asset: chain.token(),
        pay_to: chain.pay_to(),
        token_name: domain.name.clone(),
        token_version: domain.version.clone(),
        max_timeout_seconds: settings.payments.max_timeout_seconds,
    };
    // A settle waits for the receipt: allow the chain's confirmation time and a call on top.
    let facilitator_timeout =
        Duration::from_millis(settings.chain.settle_timeout_ms + settings.chain.rpc_timeout_ms);
    let rail: Box<dyn Settler> = match &settings.payments.facilitator_url {
        Some(url) => Box::new(FacilitatorRail(Facilitator::new(
            url.expose(),
            facilitator_timeout,
        ))),
        None => Box::new(HouseRail),
    };
    tracing::info!(
        network = %terms.network,
        token = %terms.asset,
        name = %terms.token_name,
        version = %terms.token_version,
        pay_to = %terms.pay_to,
        facilitator = if settings.payments.facilitator_url.is_some() { "configured" } else { "none (the house settles)" },
        "chip purchases enabled"
    );
    Payments { chain, terms, rail }
}

/// `host[:port]` of the public URL, as the auth statement names it.
fn host_of(url: &str) -> Result<String, StartupError> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if host.is_empty() {
        return Err(StartupError::PublicUrl(url.to_owned()));
    }
    Ok(host.to_owned())
}

fn house_wallets(configured: &[String]) -> Result<HashSet<String>, StartupError> {
    configured
        .iter()
        .map(|text| {
            address::parse(text)
                .map(|a| address::key(&a))
                .ok_or_else(|| StartupError::HouseWallet(text.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_statement_host_comes_from_the_public_url() {
        assert_eq!(
            host_of("https://arcade.example/").unwrap(),
            "arcade.example"
        );
        assert_eq!(host_of("http://127.0.0.1:8402").unwrap(), "127.0.0.1:8402");
        assert!(host_of("https://").is_err());
    }
}
