//! What the books cost, measured (not a test: `cargo test -p arcade-server --test api --
//! --ignored the_cost_of_the_books --nocapture`).

use serde_json::json;

use crate::helpers::Backend;
use crate::paying::PaidApp;
use crate::restore_money::{backup, buy, restore};

/// RPC calls and time of a start after a restore
/// whose copy forgot 1,000 house transactions (500 purchases and 500 cashouts), of a pass in
/// step, and of a pass over empty blocks.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "a measurement"]
#[allow(clippy::print_stdout)] // the figures are the output
async fn the_cost_of_the_books() {
    use std::sync::atomic::Ordering;
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = PaidApp::spawn(backend).await;
        let payer = app.payer(10_000 * 500).await;
        backup(&app, "before_thousand").await;
        for _ in 0..500 {
            buy(&app, &payer, "micro").await;
            let cashed = app.cash_out(&payer, 100).await.ok();
            assert_eq!(cashed["status"], "confirmed", "{cashed}");
        }
        restore(&app, "before_thousand").await;
        let calls = || app.shim.calls.load(Ordering::SeqCst);
        let (before, started) = (calls(), std::time::Instant::now());
        let next = app.another_instance().await;
        let (start_calls, start_time) = (calls() - before, started.elapsed());
        assert_eq!(next.chips(payer.address()).await, 0);
        let before = calls();
        next.arcade.books.catch_up().await.unwrap();
        let in_step = calls() - before;
        // 10,000 blocks, then one house transaction (a mint) the pass must read the logs up to.
        app.anvil("anvil_mine", json!(["0x2710"])).await;
        app.payer(1).await;
        let before = calls();
        next.arcade.books.catch_up().await.unwrap();
        let empty_blocks = calls() - before;
        println!(
            "{backend:?}: start after a restore with 1000 house transactions to match: {start_time:?}, {start_calls} RPC calls (the whole start); a pass in step: {in_step} calls; over 10,000 blocks to a house transaction that moved no chips: {empty_blocks} calls"
        );
        next.audit().await;
    }
}
