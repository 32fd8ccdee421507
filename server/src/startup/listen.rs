//! Where the service listens and how it stops: the main listener and the metrics' own, the URL
//! clients reach this instance at, and SIGINT/SIGTERM ending it gracefully.

use salvo::conn::tcp::TcpAcceptor;
use salvo::prelude::*;
use salvo::server::ServerHandle;
use tokio_util::sync::CancellationToken;

use super::{SHUTDOWN_GRACE, StartupError};
use crate::settings::Settings;
use crate::telemetry::metrics;

/// Listens where the settings say; the port is the one bound (the settings may say 0).
async fn bind(settings: &Settings) -> Result<(TcpAcceptor, u16), StartupError> {
    let listen = format!("{}:{}", settings.server.host, settings.server.port);
    let acceptor = listen_on(&listen).await?;
    let port = acceptor
        .local_addr()
        .map_err(|e| StartupError::Bind {
            address: listen,
            source: e.into(),
        })?
        .port();
    Ok((acceptor, port))
}

async fn listen_on(listen: &str) -> Result<TcpAcceptor, StartupError> {
    TcpListener::new(listen.to_owned())
        .try_bind()
        .await
        .map_err(|source| StartupError::Bind {
            address: listen.to_owned(),
            source,
        })
}

pub(super) async fn stop_on_signal(handle: ServerHandle, shutdown: CancellationToken) {
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

/// The main listener, the metrics' own if set, and the URL clients reach this instance at.
pub(super) async fn listeners(
    settings: &Settings,
) -> Result<(TcpAcceptor, Option<TcpAcceptor>, String), StartupError> {
    let (acceptor, port) = bind(settings).await?;
    if settings.metrics.enabled {
        metrics::install();
    }
    let metrics_acceptor = match (&settings.metrics.listen, settings.metrics.enabled) {
        (Some(listen), true) => Some(listen_on(listen).await?),
        _ => None,
    };
    let base_url = settings
        .server
        .public_url
        .clone()
        .map(|url| url.trim_end_matches('/').to_owned())
        .unwrap_or_else(|| format!("http://{}:{port}", settings.server.host));
    Ok((acceptor, metrics_acceptor, base_url))
}
