//! Building and running the application: database, migrations, listener, routes. Tests call
//! [`Application::build`] with port 0 and talk to the real server.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use salvo::conn::tcp::TcpAcceptor;
use salvo::prelude::*;
use tokio_util::sync::CancellationToken;

use crate::address;
use crate::api;
use crate::chain::{Chain, ConnectError};
use crate::housebots::HouseBots;
use crate::identity::Identity;
use crate::proofs::{HouseSigner, SeedBook};
use crate::public_url::{BadPublicUrl, PublicUrl, is_loopback_host};
use crate::rate_limits::RateLimits;
use crate::secrets::DeploymentSecrets;
use crate::service::group_commit::spawn_writers;
use crate::service::instances::spawn_heartbeat;
use crate::service::payments::Payments;
use crate::service::payments::spawn_treasury_watch;
use crate::service::purchases::rails::{self, RailEntry, RailError, Rails};
use crate::service::reconcile::spawn_reconciler;
use crate::service::rounds::expiry::spawn_upkeep;
use crate::service::seeds::Seeds;
use crate::service::signed_marks::{self, SignedMarks};
use crate::service::treasury::Treasury;
use crate::service::{Arcade, Parts};
use crate::settings::Settings;
use crate::store;
use crate::telemetry::metrics;
use crate::x402::{Terms, ownership};

mod listen;
use listen::{listeners, stop_on_signal};

const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("database: {0}")]
    Database(#[from] crate::store::DbErr),
    #[error("listening on {address}: {source}")]
    Bind {
        address: String,
        source: salvo::Error,
    },
    #[error(transparent)]
    PublicUrl(#[from] BadPublicUrl),
    #[error("chain: {0}")]
    Chain(#[from] ConnectError),
    #[error(transparent)]
    HouseBot(#[from] crate::housebots::HouseBotsError),
    #[error(
        "server.public_url is required when listening on {0}, a non-loopback host: the auth statement names the URL clients reach the service at"
    )]
    PublicUrlRequired(String),
    #[error("auth.first_issued_at {0:?} is not an RFC 3339 time")]
    BadIssuedAt(String),
    #[error(transparent)]
    Proxy(#[from] crate::rate_limits::BadProxy),
    #[error("the operating system's random generator failed: {0}")]
    NoRandomness(String),
    #[error(transparent)]
    Signing(#[from] crate::proofs::SigningError),
    #[error("publishing the first seed batch: {0}")]
    SeedBatch(String),
    #[error("joining the instances on the database: {0}")]
    Instances(String),
    #[error(transparent)]
    Secrets(#[from] crate::secrets::SecretsError),
    #[error("the signed marks: {0}")]
    SignedMarks(#[from] crate::service::signed_marks::MarksError),
    #[error(transparent)]
    Rail(#[from] RailError),
    #[error(transparent)]
    Pattern(#[from] crate::inputs::BadPattern),
    #[error(transparent)]
    Ownership(#[from] ownership::OwnershipError),
}

pub struct Application {
    acceptor: TcpAcceptor,
    /// `metrics.listen`'s own listener, when set.
    metrics_acceptor: Option<TcpAcceptor>,
    service: Service,
    base_url: String,
    arcade: Arc<Arcade>,
    /// The house's own agents (none unless enabled), started once the service listens.
    house_bots: Arc<HouseBots>,
    reconcile_interval: Duration,
    upkeep_interval: Duration,
    /// Cancelled on SIGINT/SIGTERM: ends MCP sessions and their open streams.
    shutdown: CancellationToken,
}

impl Application {
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        Self::build_with_rails(settings, rails::REGISTERED).await
    }

    /// [`Application::build`] choosing the payment rail among `registry`.
    pub async fn build_with_rails(
        settings: Settings,
        registry: &[RailEntry],
    ) -> Result<Self, StartupError> {
        crate::inputs::compile_patterns()?;
        let rails = Rails::from_settings(&settings, registry)?;
        if settings.server.public_url.is_none() && !is_loopback_host(&settings.server.host) {
            return Err(StartupError::PublicUrlRequired(
                settings.server.host.clone(),
            ));
        }
        let db = store::connect(&settings.database).await?;
        store::migrate(&db).await?;
        let secrets = crate::secrets::resolve(&settings, &db).await?;
        let payments = Chain::connect(&settings.chain)
            .await?
            .map(|chain| payments(chain, &settings, rails));
        let (acceptor, metrics_acceptor, base_url) = listeners(&settings).await?;
        let public_url = PublicUrl::parse(&base_url)?;
        let signer = HouseSigner::new(secrets.signing_key.expose(), settings.chain.chain_id)?;
        // Before the play writer exists: no receipt is signed before the marks are known.
        let marks = signed_marks::establish(&db, &signer).await?;
        let (arcade, house_bots) = arcade(
            &settings,
            &secrets,
            (db, payments),
            &public_url,
            (signer, marks),
        )?;
        let (arcade, house_bots) = (Arc::new(arcade), Arc::new(house_bots));
        ready(&arcade, &settings).await?;
        let pay_to = arcade.purchases.payments().ok().map(|p| p.terms.pay_to);
        let ownership_proofs = ownership::establish(&settings, pay_to, &public_url.origin())?;
        let shutdown = CancellationToken::new();
        let service = api::service(
            arcade.clone(),
            house_bots.clone(),
            &public_url,
            base_url.clone(),
            &settings,
            ownership_proofs,
            shutdown.clone(),
        );
        Ok(Self {
            acceptor,
            metrics_acceptor,
            service,
            base_url,
            arcade,
            house_bots,
            reconcile_interval: Duration::from_millis(settings.payments.reconcile_interval_ms),
            upkeep_interval: Duration::from_millis(settings.rounds.expire_every_ms.max(100)),
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
        let arcade = &self.arcade;
        let payments = arcade.purchases.configured();
        let reconciler = payments
            .is_some()
            .then(|| spawn_reconciler(arcade.reconcile.clone(), self.reconcile_interval));
        let upkeep = spawn_upkeep(
            arcade.expiry.clone(),
            arcade.rate_limits.clone(),
            self.upkeep_interval,
        );
        let heartbeat = spawn_heartbeat(arcade.instances.clone());
        let treasury = spawn_treasury_watch(payments);
        let metrics_upkeep = metrics::spawn_upkeep();
        let metrics_server = self.metrics_acceptor.map(|acceptor| {
            let address = acceptor
                .local_addr()
                .map(|a| a.to_string())
                .unwrap_or_default();
            tracing::info!(%address, "metrics listening at /metrics");
            let server = Server::new(acceptor);
            tokio::spawn(server.serve(api::metrics_service(self.arcade.clone())))
        });
        tracing::info!(url = %self.base_url, "arcade listening");
        self.house_bots.spawn(&local_url, &self.shutdown);
        server.serve(self.service).await;
        if let Some(reconciler) = reconciler {
            reconciler.abort();
        }
        upkeep.abort();
        heartbeat.abort();
        metrics_upkeep.abort();
        for task in [treasury, metrics_server].into_iter().flatten() {
            task.abort();
        }
        tracing::info!("arcade stopped");
    }
}

/// Before serving: the play and commit writers run, this instance joins the others, and a seed batch has
/// room.
async fn ready(arcade: &Arcade, settings: &Settings) -> Result<(), StartupError> {
    let checkpointer =
        store::wal_checkpoints::WalCheckpointer::open(settings.database.url.expose()).await?;
    // On PostgreSQL two play writers, so one batch's round trips overlap the next batch's work
    // (their wallets locked in address order, as between instances); SQLite has one
    // connection. One commit writer: its batches take their seeds' indices one after another.
    let play_writers = match arcade.db.get_database_backend() {
        sea_orm::DbBackend::Postgres => 2,
        _ => 1,
    };
    spawn_writers(&arcade.plays.writer, play_writers, checkpointer);
    spawn_writers(&arcade.rounds.writer, 1, None);
    arcade
        .instances
        .join_instances()
        .await
        .map_err(|e| StartupError::Instances(format!("{e:?}")))?;
    arcade
        .seed_batches
        .ensure_seed_room()
        .await
        .map_err(|e| StartupError::SeedBatch(format!("{e:?}")))?;
    arcade
        .seed_batches
        .seal_open()
        .await
        .map_err(|e| StartupError::SeedBatch(format!("{e:?}")))?;
    // The books match the chain before anyone is served: what a restored copy forgot is
    // recorded again first.
    arcade.books.at_start().await;
    Ok(())
}

/// The service, from the settings and what was connected: the database and the payments, and
/// the signer with the signed marks; and the house's own agents, whose addresses are among its
/// house wallets.
fn arcade(
    settings: &Settings,
    secrets: &DeploymentSecrets,
    (db, payments): (store::Db, Option<Payments>),
    public_url: &PublicUrl,
    (signer, marks): (HouseSigner, SignedMarks),
) -> Result<(Arcade, HouseBots), StartupError> {
    let rate_limits = RateLimits::new(&settings.rate_limits, random_token()?)?;
    let house_bots = HouseBots::new(&settings.housebots, rate_limits.house_token())?;
    let house_wallets: HashSet<String> = settings
        .house
        .wallets
        .iter()
        .chain(&house_bots.addresses())
        .map(address::key)
        .collect();
    let arcade = Arcade::new(Parts {
        db,
        identity: identity(settings, secrets, public_url)?,
        limits: arcade_core::Limits::SPEC,
        house_wallets,
        payments,
        crash_after: settings.faults.crash_after,
        game_wire: crate::inputs::game_wire::WIRE,
        rate_limits,
        rounds: settings.rounds.clone(),
        seeds: Seeds::new(
            signer,
            SeedBook::new(secrets.seeds.expose()),
            settings.seeds.batch_size,
            random_token()?,
        ),
        marks,
    });
    Ok((arcade, house_bots))
}

fn identity(
    settings: &Settings,
    secrets: &DeploymentSecrets,
    public_url: &PublicUrl,
) -> Result<Identity, StartupError> {
    let first_issued_at = chrono::DateTime::parse_from_rfc3339(&settings.auth.first_issued_at)
        .map_err(|_| StartupError::BadIssuedAt(settings.auth.first_issued_at.clone()))?
        .timestamp_millis();
    Ok(Identity::new(
        public_url.authority(),
        public_url.uri(),
        settings.chain.chain_id,
        secrets.auth.expose().as_bytes(),
        first_issued_at,
    ))
}

/// A fresh random token for this process: its house agents' pass (they reach it over
/// loopback), and the id that marks the seed batches it publishes.
fn random_token() -> Result<String, StartupError> {
    let mut bytes = [0u8; 24];
    getrandom::fill(&mut bytes).map_err(|e| StartupError::NoRandomness(e.to_string()))?;
    Ok(alloy::hex::encode(bytes))
}

fn payments(chain: Chain, settings: &Settings, rails: Rails) -> Payments {
    let domain = chain.token_domain();
    let terms = Terms {
        network: chain.network(),
        asset: chain.token(),
        pay_to: chain.pay_to(),
        token_name: domain.name.clone(),
        token_version: domain.version.clone(),
        max_timeout_seconds: settings.payments.max_timeout_seconds,
    };
    tracing::info!(
        network = %terms.network,
        token = %terms.asset,
        name = %terms.token_name,
        version = %terms.token_version,
        pay_to = %terms.pay_to,
        rail = rails.chosen_name(),
        "chip purchases enabled"
    );
    Payments {
        chain,
        terms,
        rails,
        treasury: Treasury::new(settings.treasury.clone()),
    }
}
