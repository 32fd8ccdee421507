//! Building and running the application: database, migrations, listener, routes. Tests call
//! [`Application::build`] with port 0 and talk to the real server.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use salvo::conn::tcp::TcpAcceptor;
use salvo::prelude::*;
use salvo::server::ServerHandle;

use crate::address;
use crate::api;
use crate::db;
use crate::identity::Identity;
use crate::service::Arcade;
use crate::settings::Settings;

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
}

pub struct Application {
    acceptor: TcpAcceptor,
    service: Service,
    base_url: String,
    arcade: Arc<Arcade>,
}

impl Application {
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        let db = db::connect(&settings.database).await?;
        db::migrate(&db).await?;
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
        let arcade = Arc::new(Arcade {
            db,
            identity: Identity::new(host_of(&base_url)?, settings.chain.chain_id),
            limits: arcade_core::Limits::SPEC,
            house_wallets: house_wallets(&settings.house.wallets)?,
        });
        let service = api::service(arcade.clone(), settings.server.max_body_bytes);
        Ok(Self {
            acceptor,
            service,
            base_url,
            arcade,
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
        let server = Server::new(self.acceptor);
        tokio::spawn(stop_on_signal(server.handle()));
        tracing::info!(url = %self.base_url, "arcade listening");
        server.serve(self.service).await;
        tracing::info!("arcade stopped");
    }
}

async fn stop_on_signal(handle: ServerHandle) {
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
    handle.stop_graceful(SHUTDOWN_GRACE);
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
