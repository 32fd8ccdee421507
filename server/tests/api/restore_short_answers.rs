//! The books through an RPC that answers short, after a restore that forgot a cashout and a
//! purchase: logs that come back empty (a node behind) or refused over a provider's cap, and
//! transactions the RPC does not show yet. Every nonce the chain mined is accounted for before
//! the books move past it, so the cashout is never paid twice; while a forgotten transaction
//! cannot be read, no play and no cashout is taken, so the restored chips cannot be staked. And
//! strangers' transfers into the pay-to address cost an in-step pass nothing.

use alloy::primitives::U256;
use alloy::providers::ProviderBuilder;
use alloy::signers::local::PrivateKeySigner;
use arcade_server::chain::token::DollarToken;
use serde_json::json;

use crate::helpers::TestApp;
use crate::paid_on_both_backends;
use crate::paying::PaidApp;
use crate::restore_money::{backup, block, buy, chain_audit, restore};

/// A medium purchase, the copy, then 4,000 chips cashed out (confirmed) and a micro purchase
/// settled: the restored copy reads 10,000 chips, the chain says 6,100.
async fn a_copy_that_forgot_a_cashout_and_a_purchase(app: &PaidApp) -> PrivateKeySigner {
    a_copy_that_forgot_both(app).await.0
}

/// [`a_copy_that_forgot_a_cashout_and_a_purchase`], with the block the cashout was mined in.
async fn a_copy_that_forgot_both(app: &PaidApp) -> (PrivateKeySigner, u64) {
    let payer = app.payer(2_000_000).await;
    buy(app, &payer, "medium").await;
    backup(app, "before_both").await;
    let paid = app.cash_out(&payer, 4_000).await.ok();
    assert_eq!(paid["status"], "confirmed", "{paid}");
    let hash = paid["tx_hash"].as_str().unwrap().parse().unwrap();
    let mined_in = app.receipt(hash).await.block_number.unwrap();
    buy(app, &payer, "micro").await;
    restore(app, "before_both").await;
    assert_eq!(
        app.chips(payer.address()).await,
        10_000,
        "the copy forgot both"
    );
    (payer, mined_in)
}

/// One flip of `wager` chips by `player` on `app`: its status and body.
async fn flip(app: &TestApp, player: &PrivateKeySigner, wager: i64) -> crate::helpers::Response {
    let round = app.commit(player).await;
    app.post(
        "/api/arcade/flip",
        &json!({ "round_id": round, "client_seed": "a seed of the player's", "wager": wager, "call": "heads" }),
    )
    .await
}

/// Every `eth_getLogs` answers an empty list: the books find the forgotten cashout and purchase
/// by their nonces, and pay nothing twice.
async fn logs_that_come_back_empty_skip_no_nonce(app: &PaidApp) {
    let (house_before, from) = (app.token_balance(app.house()).await, block(app).await);
    let payer = a_copy_that_forgot_a_cashout_and_a_purchase(app).await;
    app.shim.empty_logs(true);
    let next = app.another_instance().await;
    assert_eq!(
        next.chips(payer.address()).await,
        6_100,
        "the cashout debited and the purchase credited, found without logs"
    );
    let again = next.cash_out(&payer, 10_000).await;
    assert_ne!(again.status, 200, "{}", again.body);
    app.shim.empty_logs(false);
    assert_eq!(
        app.token_balance(payer.address()).await,
        U256::from(2_000_000u64 - 1_000_000 - 10_000 + 400_000),
        "paid out once"
    );
    chain_audit(app, &next, house_before, from).await;
    next.audit().await;
}
paid_on_both_backends!(logs_that_come_back_empty_skip_no_nonce);

/// `eth_getLogs` over more than 64 blocks is refused as over the provider's cap: the books read
/// the range in halves and find both.
async fn log_ranges_refused_over_a_cap_are_read_in_halves(app: &PaidApp) {
    let (house_before, from) = (app.token_balance(app.house()).await, block(app).await);
    app.anvil("anvil_mine", json!(["0x1f4"])).await;
    let payer = a_copy_that_forgot_a_cashout_and_a_purchase(app).await;
    app.shim.cap_log_ranges(Some(64));
    let next = app.another_instance().await;
    app.shim.cap_log_ranges(None);
    assert_eq!(next.chips(payer.address()).await, 6_100);
    chain_audit(app, &next, house_before, from).await;
    next.audit().await;
}
paid_on_both_backends!(log_ranges_refused_over_a_cap_are_read_in_halves);

/// The cashout's block is stuffed with more transfers than the provider answers: every range
/// holding it is refused, down to the block alone. The books leave that block's logs out and
/// find the cashout by its nonce.
async fn a_block_stuffed_past_the_providers_cap_hides_no_payout(app: &PaidApp) {
    let (house_before, from) = (app.token_balance(app.house()).await, block(app).await);
    let (payer, stuffed) = a_copy_that_forgot_both(app).await;
    app.shim.stuff_block(Some(stuffed));
    let next = app.another_instance().await;
    app.shim.stuff_block(None);
    assert_eq!(next.chips(payer.address()).await, 6_100);
    chain_audit(app, &next, house_before, from).await;
    next.audit().await;
}
paid_on_both_backends!(a_block_stuffed_past_the_providers_cap_hides_no_payout);

/// The database restored under a running instance (not the documented procedure): its next
/// pass sees the cursor went back, and plays close again until the books match the chain, so
/// the restored chips cannot be staked in between.
async fn a_restore_under_a_running_instance_closes_its_plays(app: &PaidApp) {
    let payer = app.payer(2_000_000).await;
    buy(app, &payer, "medium").await;
    app.arcade.books.catch_up().await.unwrap();
    backup(app, "before_running").await;
    let paid = app.cash_out(&payer, 4_000).await.ok();
    assert_eq!(paid["status"], "confirmed", "{paid}");
    restore(app, "before_running").await;
    app.shim.hide_transactions(true);
    app.arcade.books.catch_up().await.unwrap();
    flip(app, &payer, 100)
        .await
        .error(503, "books_behind_chain");
    app.shim.hide_transactions(false);
    app.arcade.books.catch_up().await.unwrap();
    assert_eq!(app.chips(payer.address()).await, 6_000);
    let played = flip(app, &payer, 100).await.ok();
    assert_eq!(played["wager"], 100, "{played}");
}
paid_on_both_backends!(a_restore_under_a_running_instance_closes_its_plays);

/// The forgotten transactions cannot be read (the RPC shows them to nobody yet): the books
/// wait before them, and until they match the chain no play and no cashout is taken, so the
/// 10,000 restored chips cannot be staked. Shown again, they are recorded and play resumes.
async fn plays_and_cashouts_wait_while_a_forgotten_transaction_is_unseen(app: &PaidApp) {
    let (house_before, from) = (app.token_balance(app.house()).await, block(app).await);
    let payer = a_copy_that_forgot_a_cashout_and_a_purchase(app).await;
    app.shim.hide_transactions(true);
    let next = app.another_instance().await;
    let ready = next.get("/readyz").await;
    assert_eq!(ready.status, 503, "{}", ready.body);
    let books = ready.body["checks"]["books"].as_str().unwrap_or_default();
    assert!(books.contains("not in the books yet"), "{}", ready.body);
    flip(&next, &payer, 100)
        .await
        .error(503, "books_behind_chain");
    next.cash_out(&payer, 10_000)
        .await
        .error(503, "books_behind_chain");
    assert_eq!(next.chips(payer.address()).await, 10_000, "nothing taken");

    app.shim.hide_transactions(false);
    next.arcade.books.catch_up().await.unwrap();
    assert_eq!(next.chips(payer.address()).await, 6_100);
    let played = flip(&next, &payer, 100).await.ok();
    assert_eq!(played["wager"], 100, "{played}");
    chain_audit(app, &next, house_before, from).await;
    next.audit().await;
}
paid_on_both_backends!(plays_and_cashouts_wait_while_a_forgotten_transaction_is_unseen);

/// Twenty strangers' transfers of one base unit into the pay-to address, and twenty of nothing,
/// then a cashout: the pass that follows it reads the logs and none of the strangers'
/// transactions.
async fn strangers_transfers_into_pay_to_cost_an_in_step_pass_nothing(app: &PaidApp) {
    let stranger = app.payer(20).await;
    app.anvil(
        "anvil_setBalance",
        json!([stranger.address(), "0x56BC75E2D63100000"]),
    )
    .await;
    let chain = ProviderBuilder::new()
        .wallet(stranger.clone())
        .connect_http(app.devnet.rpc_url().parse().unwrap());
    let token = DollarToken::new(app.devnet.token, &chain);
    for value in [U256::ZERO, U256::from(1u64)].repeat(20) {
        token
            .transfer(app.house(), value)
            .send()
            .await
            .unwrap()
            .get_receipt()
            .await
            .unwrap();
    }
    let payer = app.payer(1_000_000).await;
    buy(app, &payer, "medium").await;
    let paid = app.cash_out(&payer, 10_000).await.ok();
    assert_eq!(paid["status"], "confirmed", "{paid}");
    let by_hash = app.shim.method_calls("eth_getTransactionByHash");
    app.arcade.books.catch_up().await.unwrap();
    assert_eq!(
        app.shim.method_calls("eth_getTransactionByHash"),
        by_hash,
        "no stranger's transaction read"
    );
}
paid_on_both_backends!(strangers_transfers_into_pay_to_cost_an_in_step_pass_nothing);
