//! An RPC that may fail costs the player nothing: with `chain.rpc_urls` naming a failing URL
//! first and a healthy one after it, purchases and cashouts go through. The first URL is dead
//! (it drops every connection), rate limited (every call answered 429), or lagging (every
//! receipt null, as a node behind answers). Each run prints the calls that reached each URL;
//! each ends with the ledger audit and the chain audit (the tokens the house received are the
//! chips credited, 100 base units each, less the confirmed cashouts).

use std::sync::atomic::Ordering;
use std::time::Duration;

use alloy::primitives::U256;
use arcade_server::chain::devnet::Devnet;
use arcade_server::settings::Secret;

use crate::helpers::Backend;
use crate::paying::{PaidApp, anvil_bin};
use crate::rpc::Rpc;

#[derive(Debug, Clone, Copy)]
enum Failure {
    Dead,
    RateLimited,
    Lagging,
}

/// The server with a failing URL first; the failing URL's path, for its counts.
async fn with_a_failing_first_url(backend: Backend, failure: Failure) -> (PaidApp, Rpc) {
    let devnet = Devnet::start(&anvil_bin(), 0).await.unwrap();
    let first = Rpc::start(&devnet.rpc_url()).await;
    let first_url = first.proxy.url();
    let app = PaidApp::spawn_on_devnet(backend, devnet, move |settings| {
        let healthy = settings.chain.rpc_urls.remove(0);
        settings.chain.rpc_urls = vec![Secret::new(first_url), healthy];
    })
    .await;
    match failure {
        Failure::Dead => first.proxy.set_up(false),
        Failure::RateLimited => first.shim.rate_limit(true),
        Failure::Lagging => first.shim.hide_receipts(true),
    }
    (app, first)
}

#[allow(clippy::print_stdout)] // the calls each failure cost, shown with --nocapture
async fn purchases_and_cashouts_go_through(backend: Backend, failure: Failure) {
    let (app, first) = with_a_failing_first_url(backend, failure).await;
    let house_before = app.token_balance(app.house()).await;
    let (first_calls, healthy_calls) = (
        first.shim.calls.load(Ordering::SeqCst),
        app.shim.calls.load(Ordering::SeqCst),
    );
    let player = app.payer(200_000).await;
    let challenge = app.challenge("/api/arcade/chips/small").await;
    let (payment, _) = crate::paying::sign_payment(&challenge, &player, |_| {});
    let bought = app.buy("/api/arcade/chips/small", Some(&payment)).await;
    match failure {
        Failure::Lagging => {
            // The lagging URL answers first and says the settlement is not mined yet: the
            // buyer hears it is in flight, never a failure; once the URL catches up the
            // reconciler credits it, once.
            assert!(
                bought.status == 200 || bought.body["error"] == "settlement_pending",
                "{}",
                bought.body
            );
            first.shim.hide_receipts(false);
            app.arcade.reconcile.payments(Duration::ZERO).await.unwrap();
            first.shim.hide_receipts(true);
        }
        _ => assert_eq!(bought.status, 200, "{}", bought.body),
    }
    assert_eq!(app.chips(player.address()).await, 1000, "credited once");

    let cashout = app.cash_out(&player, 500).await.ok();
    if cashout["status"] != "confirmed" {
        assert_eq!(cashout["status"], "sent", "{cashout}");
        let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
        assert_eq!(
            pass.refunded, 0,
            "no refund of a transfer that was mined: {pass:?}"
        );
        first.shim.hide_receipts(false);
        let pass = app.arcade.reconcile.cashouts(Duration::ZERO).await.unwrap();
        assert_eq!(pass.confirmed, 1, "{pass:?}");
    }
    assert_eq!(app.chips(player.address()).await, 500);
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(150_000u64)
    );
    assert_eq!(
        app.token_balance(app.house()).await,
        house_before + U256::from(100_000u64) - U256::from(50_000u64),
        "the chain agrees with the books: 1000 chips paid in, 500 cashed out"
    );
    println!(
        "{failure:?} first URL ({backend:?}): a purchase and a cashout cost {} connections / {} calls to it and {} calls to the healthy URL",
        first.proxy.connections.load(Ordering::SeqCst),
        first.shim.calls.load(Ordering::SeqCst) - first_calls,
        app.shim.calls.load(Ordering::SeqCst) - healthy_calls,
    );
    app.audit().await;
}

macro_rules! each_failure {
    ($($name:ident: $failure:expr),* $(,)?) => {
        $(mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn sqlite() {
                super::purchases_and_cashouts_go_through(crate::helpers::Backend::Sqlite, $failure).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn postgres() {
                super::purchases_and_cashouts_go_through(crate::helpers::Backend::Postgres, $failure).await;
            }
        })*
    };
}

each_failure! {
    a_dead_first_url: super::Failure::Dead,
    a_rate_limited_first_url: super::Failure::RateLimited,
    a_lagging_first_url: super::Failure::Lagging,
}

/// A URL of another chain among `chain.rpc_urls` stops the start (payers would sign for the
/// wrong chain); a URL down at start does not (it is left out, its chain unchecked; the others
/// serve).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_url_is_checked_at_start() {
    let devnet = Devnet::start(&anvil_bin(), 0).await.unwrap();
    let other_chain = alloy::node_bindings::Anvil::at(anvil_bin())
        .chain_id(1)
        .try_spawn()
        .unwrap();
    let mut settings = arcade_server::settings::Settings::default();
    settings.server.port = 0;
    crate::paying::chain_settings(&devnet, &devnet.rpc_url())(&mut settings);
    settings.database.url = Secret::new(crate::helpers::fresh_database(Backend::Sqlite).await);
    settings.server.state_dir = Some(crate::helpers::state_dir(settings.database.url.expose()));
    let healthy = settings.chain.rpc_urls[0].clone();
    settings.chain.rpc_urls = vec![healthy.clone(), Secret::new(other_chain.endpoint())];
    let refused = arcade_server::startup::Application::build(settings.clone())
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(
        refused.contains("chain.rpc_urls[1] serves chain 1"),
        "{refused}"
    );

    settings.chain.rpc_urls = vec![Secret::new("http://127.0.0.1:9"), healthy];
    let started = arcade_server::startup::Application::build(settings).await;
    assert!(started.is_ok(), "a URL down at start is left out");
}
