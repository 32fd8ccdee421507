//! Third payment rails, compiled here and registered through the same seam the server's own
//! rails use (`rails::RailEntry`, chosen by `payments.rail`):
//! - `sketch` refuses every payment. A purchase through it answers its refusal (402 with its
//!   reason) and moves nothing: no chip credited, no token moved, the authorization unused and
//!   the payment row failed.
//! - `courier` hands the authorization to a service of its own that lands it later. Its payments
//!   record its name; an instance without it (the house's default) leaves them to the chain
//!   instead of releasing them, so the payment lands once and is credited once.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use alloy::primitives::U256;
use arcade_server::chain::devnet::Devnet;
use arcade_server::entities::payment::{self, PaymentState};
use arcade_server::service::purchases::Claim;
use arcade_server::service::purchases::rails::{
    Presented, REGISTERED, RailContext, RailEntry, ResumeError, Resumed, Settler, Submission,
};
use arcade_server::settings::{Secret, Settings};
use arcade_server::startup::Application;
use async_trait::async_trait;

use crate::helpers::{Backend, TestApp, fresh_database};
use crate::paying::{PaidApp, anvil_bin, chain_settings, sign_payment};
use crate::purchases::{SMALL_PRICE, payments};
use crate::rpc::Rpc;

const REASON: &str = "invalid_payment";

/// The sketch rail: nothing of its own to configure, refuses before anything is sent.
const SKETCH: RailEntry = RailEntry {
    name: "sketch",
    needs: None,
    build: |_| Ok(Some(Box::new(Refusing))),
};

struct Refusing;

/// The courier: takes every payment to its own service, which answers later.
const COURIER: RailEntry = RailEntry {
    name: "courier",
    needs: None,
    build: |_| Ok(Some(Box::new(Courier))),
};

/// How many times a courier resumed one of its payments.
static COURIER_RESUMED: AtomicUsize = AtomicUsize::new(0);

struct Courier;

#[async_trait]
impl Settler for Courier {
    async fn submit(&self, _: &RailContext<'_>, _: &Claim, _: &Presented<'_>) -> Submission {
        Submission::Submitted(None)
    }

    async fn resume(
        &self,
        _: &RailContext<'_>,
        _: &Claim,
        _: &payment::Model,
    ) -> Result<Resumed, ResumeError> {
        COURIER_RESUMED.fetch_add(1, Ordering::SeqCst);
        Ok(Resumed::Waiting)
    }
}

#[async_trait]
impl Settler for Refusing {
    async fn submit(&self, _: &RailContext<'_>, _: &Claim, _: &Presented<'_>) -> Submission {
        Submission::Refused {
            reason: REASON.into(),
            detail: "the sketch rail settles nothing".into(),
        }
    }

    async fn resume(
        &self,
        _: &RailContext<'_>,
        _: &Claim,
        _: &payment::Model,
    ) -> Result<Resumed, ResumeError> {
        Ok(Resumed::Waiting)
    }
}

/// The server on a fresh chain and database, its rail (`rail`) chosen among the server's own
/// and the sketches.
async fn spawn(backend: Backend, rail: &str) -> PaidApp {
    let devnet = Devnet::start(&anvil_bin(), 0)
        .await
        .expect("anvil starts and the test dollar deploys");
    let Rpc { proxy, shim } = Rpc::start(&devnet.rpc_url()).await;
    let database_url = fresh_database(backend).await;
    let mut settings = Settings::default();
    settings.server.port = 0;
    settings.database.url = Secret::new(database_url.clone());
    settings.server.state_dir = Some(crate::helpers::state_dir(&database_url));
    settings.rate_limits.enabled = false;
    chain_settings(&devnet, &proxy.url())(&mut settings);
    settings.payments.rail = Some(rail.into());
    let registry: Vec<RailEntry> = REGISTERED
        .iter()
        .copied()
        .chain([SKETCH, COURIER])
        .collect();
    let app = Application::build_with_rails(settings, &registry)
        .await
        .expect("the server starts with the sketch rail");
    let app_url = format!("http://127.0.0.1:{}", app.port());
    let arcade = app.arcade();
    tokio::spawn(app.run_until_stopped());
    let app = TestApp {
        base_url: app_url,
        database_url,
        client: reqwest::Client::new(),
        arcade,
    };
    PaidApp {
        app,
        devnet,
        proxy,
        shim,
    }
}

async fn a_purchase_through_a_refusing_rail_moves_nothing(app: &PaidApp) {
    let payer = app.payer(SMALL_PRICE).await;
    let challenge = app.challenge("/api/arcade/chips").await;
    let (payment, authorization) = sign_payment(&challenge, &payer, |_| {});

    app.buy("/api/arcade/chips", Some(&payment))
        .await
        .refused(REASON);

    assert_eq!(app.chips(payer.address()).await, 0);
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(SMALL_PRICE)
    );
    assert!(
        !app.authorization_used(payer.address(), authorization.nonce)
            .await
    );
    let rows = payments(app).await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].state, PaymentState::Failed);
    // Its payments record its own name, so only it resumes them.
    assert_eq!(rows[0].settled_by, "sketch");
}

/// The courier's payment, reconciled by the courier (it waits) and by an instance without it
/// (the default house rail, which would release an unsigned payment of its own): the payment
/// stays open until the courier's service lands it, then is credited once.
async fn another_rails_payment_is_left_to_the_chain(app: &PaidApp) {
    let payer = app.payer(SMALL_PRICE).await;
    let challenge = app.challenge("/api/arcade/chips").await;
    let (payment, authorization) = sign_payment(&challenge, &payer, |_| {});
    let reply = app.buy("/api/arcade/chips", Some(&payment)).await;
    assert_eq!(
        (reply.status, reply.body["error"].as_str()),
        (402, Some("settlement_pending")),
        "{}",
        reply.body
    );
    let before = COURIER_RESUMED.load(Ordering::SeqCst);
    let pass = app.arcade.reconcile.payments(Duration::ZERO).await.unwrap();
    assert_eq!((pass.failed, pass.waiting), (0, 1), "{pass:?}");
    assert!(
        COURIER_RESUMED.load(Ordering::SeqCst) > before,
        "the courier resumes its own"
    );

    let house_only = app.another_instance().await;
    for _ in 0..2 {
        let pass = house_only
            .arcade
            .reconcile
            .payments(Duration::ZERO)
            .await
            .unwrap();
        assert_eq!(
            (pass.credited, pass.failed, pass.waiting),
            (0, 0, 1),
            "{pass:?}"
        );
    }
    let rows = payments(app).await;
    assert_eq!(
        (rows[0].state, rows[0].settled_by.as_str()),
        (PaymentState::Settling, "courier")
    );

    // The courier's service lands it, within its validity.
    app.land_authorization(&payer, &authorization).await;
    app.mine().await;
    let pass = house_only
        .arcade
        .reconcile
        .payments(Duration::ZERO)
        .await
        .unwrap();
    assert_eq!((pass.credited, pass.failed), (1, 0), "{pass:?}");
    let pass = app.arcade.reconcile.payments(Duration::ZERO).await.unwrap();
    assert_eq!(pass.credited, 0, "credited once: {pass:?}");
    assert_eq!(app.chips(payer.address()).await, 1000);
    assert_eq!(payments(app).await[0].state, PaymentState::Settled);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite() {
    let app = spawn(Backend::Sqlite, "sketch").await;
    a_purchase_through_a_refusing_rail_moves_nothing(&app).await;
    app.audit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres() {
    let app = spawn(Backend::Postgres, "sketch").await;
    a_purchase_through_a_refusing_rail_moves_nothing(&app).await;
    app.audit().await;
}

mod another_rails_payment_is_left_to_the_chain {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        let app = spawn(Backend::Sqlite, "courier").await;
        another_rails_payment_is_left_to_the_chain(&app).await;
        app.audit().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        let app = spawn(Backend::Postgres, "courier").await;
        another_rails_payment_is_left_to_the_chain(&app).await;
        app.audit().await;
    }
}
