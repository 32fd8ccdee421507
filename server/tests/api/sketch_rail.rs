//! A third payment rail, compiled here and registered through the same seam the server's own
//! rails use (`rails::RailEntry`, chosen by `payments.rail`): one that refuses every payment.
//! A purchase through it answers its refusal (402 with its reason) and moves nothing: no chip
//! credited, no token moved, the authorization unused and the payment row failed.

use alloy::primitives::U256;
use arcade_server::chain::devnet::Devnet;
use arcade_server::entities::payment::{self, PaymentState, Rail};
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

#[async_trait]
impl Settler for Refusing {
    fn rail(&self) -> Rail {
        Rail::House
    }

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

/// The server on a fresh chain and database, its rail chosen among the server's own and the
/// sketch.
async fn spawn(backend: Backend) -> PaidApp {
    let devnet = Devnet::start(&anvil_bin(), 0)
        .await
        .expect("anvil starts and the test dollar deploys");
    let Rpc { proxy, shim } = Rpc::start(&devnet.rpc_url()).await;
    let database_url = fresh_database(backend).await;
    let mut settings = Settings::default();
    settings.server.port = 0;
    settings.database.url = Secret::new(database_url.clone());
    settings.rate_limits.enabled = false;
    chain_settings(&devnet, &proxy.url())(&mut settings);
    settings.payments.rail = Some("sketch".into());
    let registry: Vec<RailEntry> = REGISTERED.iter().copied().chain([SKETCH]).collect();
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
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite() {
    let app = spawn(Backend::Sqlite).await;
    a_purchase_through_a_refusing_rail_moves_nothing(&app).await;
    app.audit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres() {
    let app = spawn(Backend::Postgres).await;
    a_purchase_through_a_refusing_rail_moves_nothing(&app).await;
    app.audit().await;
}
