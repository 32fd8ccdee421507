//! Cashouts on a real chain: tokens arrive and the house pays the gas; refusals debit nothing,
//! a cashout the house cannot pay now included (refused before its debit); concurrent cashouts
//! never overdraw. After each: the chain and the ledger agree. Failures after a cashout was
//! sent are in `cashout_failures.rs`.

use alloy::primitives::U256;
use alloy::providers::{Provider, ProviderBuilder};
use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::{cashout, ledger};
use futures::future::join_all;
use sea_orm::{ActiveEnum, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::sign;
use crate::paid_on_both_backends;
use crate::paying::PaidApp;

/// A player holding 1000 purchased chips (and no ETH).
pub async fn player_with_chips(app: &PaidApp) -> PrivateKeySigner {
    let player = app.payer(100_000).await;
    app.buy_chips(&player, "small").await;
    player
}

pub async fn ledger_kinds(app: &PaidApp, reference: &str) -> Vec<String> {
    ledger::Entity::find()
        .filter(ledger::Column::Reference.eq(reference))
        .all(&app.arcade.db)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.kind.to_value())
        .collect()
}

async fn a_cashout_pays_the_player_and_the_house_pays_gas(app: &PaidApp) {
    let player = player_with_chips(app).await;
    let house_tokens = app.token_balance(app.house()).await;
    let house_eth = app.eth_balance(app.house()).await;

    let receipt = app.cash_out(&player, 400).await.ok();
    assert_eq!(receipt["status"], "confirmed", "{receipt}");
    assert_eq!(receipt["chips"], 400);
    assert_eq!(receipt["amount"], "40000");
    assert_eq!(receipt["balance"], 600);
    assert_eq!(receipt["address"], player.address().to_checksum(None));
    assert_eq!(receipt["network"], "eip155:31337");

    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(40_000u64)
    );
    assert_eq!(
        app.token_balance(app.house()).await,
        house_tokens - U256::from(40_000u64)
    );
    assert_eq!(
        app.eth_balance(player.address()).await,
        U256::ZERO,
        "the player paid no gas"
    );
    assert!(
        app.eth_balance(app.house()).await < house_eth,
        "the house did"
    );
    let chain = ProviderBuilder::new().connect_http(app.devnet.rpc_url().parse().unwrap());
    let tx = chain
        .get_transaction_receipt(receipt["tx_hash"].as_str().unwrap().parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(tx.from, app.house());

    let id = receipt["cashout_id"].as_i64().unwrap();
    let status = app.get(&format!("/api/arcade/cashout/{id}")).await.ok();
    assert_eq!(status["status"], "confirmed");
    assert_eq!(
        ledger_kinds(app, &format!("cashout:{id}")).await,
        ["cashout"]
    );
    let house = app.get("/api/arcade/house").await.ok();
    assert_eq!(house["cashouts"]["confirmed"]["chips"], 400, "{house}");
    assert_eq!(house["cashouts"]["confirmed"]["count"], 1, "{house}");
}
paid_on_both_backends!(a_cashout_pays_the_player_and_the_house_pays_gas);

async fn refused_cashouts_debit_nothing(app: &PaidApp) {
    let player = player_with_chips(app).await;
    // The range is part of the body's schema (the interface's CashoutBody): a 422.
    app.cash_out(&player, 99)
        .await
        .invalid(&[json!("body"), json!("chips")], "greater_than_equal");
    app.cash_out(&player, 250_001)
        .await
        .invalid(&[json!("body"), json!("chips")], "less_than_equal");
    app.cash_out(&player, 1_001)
        .await
        .error(400, "insufficient_chips");

    let statement_of =
        |who: &PrivateKeySigner| format!("/api/arcade/auth-statement/{}", who.address());
    app.post(
        "/api/arcade/cashout",
        &json!({ "address": player.address(), "chips": 100 }),
    )
    .await
    .error(401, "signature_required");
    let stranger = PrivateKeySigner::random();
    let statement = app.get(&statement_of(&player)).await.ok();
    let foreign = sign(&stranger, statement["statement"].as_str().unwrap());
    app.post(
        "/api/arcade/cashout",
        &json!({ "address": player.address(), "chips": 100, "signature": foreign }),
    )
    .await
    .error(403, "signature_mismatch");
    app.post(
        "/api/arcade/cashout",
        &json!({ "address": player.address(), "chips": "100" }),
    )
    .await
    .invalid(&[json!("body"), json!("chips")], "int_type");

    // Free chips alone cannot be cashed out.
    let freeloader = PrivateKeySigner::random();
    app.claim_free(&freeloader).await;
    app.cash_out(&freeloader, 100)
        .await
        .error(400, "buy_in_required");

    assert_eq!(app.chips(player.address()).await, 1000);
    assert_eq!(app.chips(freeloader.address()).await, 100);
    assert_eq!(app.token_balance(player.address()).await, U256::ZERO);
    assert!(
        cashout::Entity::find()
            .all(&app.arcade.db)
            .await
            .unwrap()
            .is_empty()
    );
}
paid_on_both_backends!(refused_cashouts_debit_nothing);

/// The farming attempt: claim 100 free chips, buy the micro tier (0.01 for 100 chips), cash out
/// 200 chips (0.02). The free grant is play money: only the bought 100 can leave, so a fresh
/// address takes out at most what it paid in. What free chips win is play money too.
async fn free_chips_never_leave_as_money(app: &PaidApp) {
    let farmer = app.payer(10_000).await;
    app.claim_free(&farmer).await;
    app.buy_chips(&farmer, "micro").await;
    let balance = app
        .get(&format!("/api/arcade/balance/{}", farmer.address()))
        .await
        .ok();
    assert_eq!(
        (balance["chips"].as_i64(), balance["cashable"].as_i64()),
        (Some(200), Some(100)),
        "{balance}"
    );
    let refused = app
        .cash_out(&farmer, 200)
        .await
        .error(400, "cashout_exceeds_cashable");
    assert_eq!(
        (refused["cashable"].as_i64(), refused["balance"].as_i64()),
        (Some(100), Some(200)),
        "{refused}"
    );
    assert_eq!(app.chips(farmer.address()).await, 200, "nothing debited");
    let paid = app.cash_out(&farmer, 100).await.ok();
    assert_eq!(paid["status"], "confirmed", "{paid}");
    app.cash_out(&farmer, 100)
        .await
        .error(400, "cashout_exceeds_cashable");
    assert_eq!(
        app.token_balance(farmer.address()).await,
        U256::from(10_000u64),
        "out: exactly what was paid in"
    );

    // Free chips that win: the winnings go back to the free pocket, and stay play money after
    // a buy-in. (The test reads the round's secret seed to pick a winning client seed; a player
    // cannot.)
    let player = app.payer(10_000).await;
    app.claim_free(&player).await;
    let round = app.commit(&player).await;
    let played = app
        .post(
            "/api/arcade/flip",
            &json!({ "round_id": round, "client_seed": winning_seed(app, &round).await, "wager": 50, "call": "heads" }),
        )
        .await
        .ok();
    assert_eq!(played["won"], true, "{played}");
    let chips = played["balance"].as_i64().unwrap();
    app.buy_chips(&player, "micro").await;
    let balance = app
        .get(&format!("/api/arcade/balance/{}", player.address()))
        .await
        .ok();
    assert_eq!(balance["chips"].as_i64(), Some(chips + 100));
    assert_eq!(
        (balance["cashable"].as_i64(), balance["free_chips"].as_i64()),
        (Some(100), Some(chips)),
        "{balance}"
    );
}
paid_on_both_backends!(free_chips_never_leave_as_money);

/// A client seed that wins 50 on heads in this open round.
async fn winning_seed(app: &PaidApp, round_id: &str) -> String {
    use arcade_core::{Call, ClientSeed, Round, ServerSeed, Side};
    let server_seed = crate::helpers::secret_seed(app, round_id).await;
    let server_seed = ServerSeed::parse(&server_seed).unwrap();
    (0..)
        .map(|i| format!("winning-{i}"))
        .find(|seed| {
            let client_seed = ClientSeed::parse(seed).unwrap();
            Round::new(server_seed, client_seed, 0, Call::Coinflip(Side::Heads), 50)
                .unwrap()
                .settle()
                .won
        })
        .unwrap()
}

/// The house sends its tokens away but `left` base units.
async fn house_keeps_only(app: &PaidApp, left: u64) {
    let held = app.token_balance(app.house()).await;
    let house = ProviderBuilder::new()
        .wallet(app.devnet.house.clone())
        .connect_http(app.devnet.rpc_url().parse().unwrap());
    arcade_server::chain::token::DollarToken::new(app.devnet.token, &house)
        .transfer(
            PrivateKeySigner::random().address(),
            held - U256::from(left),
        )
        .send()
        .await
        .unwrap()
        .get_receipt()
        .await
        .unwrap();
}

/// What a refused cashout must leave: the chips where they were, no cashout row, no ledger row.
async fn nothing_debited(app: &PaidApp, player: &PrivateKeySigner, body: &Value) {
    assert!(
        body.get("cashout_id").is_none(),
        "no cashout opened: {body}"
    );
    assert_eq!(app.chips(player.address()).await, 1000);
    assert_eq!(app.token_balance(player.address()).await, U256::ZERO);
    let cashouts = cashout::Entity::find().count(&app.arcade.db).await.unwrap();
    assert_eq!(cashouts, 0);
}

async fn a_house_without_tokens_refuses_up_front(app: &PaidApp) {
    let player = player_with_chips(app).await;
    // The house sends almost all its tokens away: less than the 0.10 being cashed out remain.
    house_keeps_only(app, 99_999).await;

    let refused = app.cash_out(&player, 1000).await;
    let body = refused.error(503, "house_underfunded");
    assert!(
        body["detail"].as_str().unwrap().contains("99999"),
        "says what the house holds: {body}"
    );
    nothing_debited(app, &player, &body).await;
}
paid_on_both_backends!(a_house_without_tokens_refuses_up_front);

async fn a_house_without_gas_refuses_up_front(app: &PaidApp) {
    let player = player_with_chips(app).await;
    app.anvil("anvil_setBalance", json!([app.house(), "0x0"]))
        .await;
    let body = app
        .cash_out(&player, 1000)
        .await
        .error(503, "house_underfunded");
    assert!(body["detail"].as_str().unwrap().contains("gas"), "{body}");
    nothing_debited(app, &player, &body).await;
    // Funded again, the same cashout is paid.
    app.anvil(
        "anvil_setBalance",
        json!([app.house(), "0x56BC75E2D63100000"]),
    )
    .await;
    assert_eq!(
        app.cash_out(&player, 1000).await.ok()["status"],
        "confirmed"
    );
}
paid_on_both_backends!(a_house_without_gas_refuses_up_front);

/// Two cashouts that the house's tokens cover only one of: the second is refused before its
/// debit, because the first, in flight, is counted against the balance.
async fn cashouts_in_flight_count_against_the_house(app: &PaidApp) {
    let player = app.payer(200_000).await;
    app.buy_chips(&player, "small").await;
    app.buy_chips(&player, "small").await;
    // 0.15 dollars left: one cashout of 1000 chips (0.10) fits, two do not.
    house_keeps_only(app, 150_000).await;
    let signature = app.sign_statement(&player).await;
    let body = json!({ "address": player.address(), "chips": 1000, "signature": signature });
    let replies = join_all((0..2).map(|_| app.post("/api/arcade/cashout", &body))).await;
    let mut statuses: Vec<_> = replies
        .iter()
        .map(|r| (r.status, r.body["code"].as_str().unwrap_or("").to_owned()))
        .collect();
    statuses.sort();
    assert_eq!(
        statuses,
        [(200, String::new()), (503, "house_underfunded".to_owned())]
    );
    assert_eq!(app.chips(player.address()).await, 1000);
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(100_000u64)
    );
}
paid_on_both_backends!(cashouts_in_flight_count_against_the_house);

async fn a_cashout_while_the_rpc_is_down_debits_nothing(app: &PaidApp) {
    let player = player_with_chips(app).await;
    app.proxy.set_up(false);
    let body = app
        .cash_out(&player, 300)
        .await
        .error(503, "chain_unavailable");
    app.proxy.set_up(true);
    nothing_debited(app, &player, &body).await;
    // Back up, a cashout goes through.
    assert_eq!(app.cash_out(&player, 300).await.ok()["status"], "confirmed");
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(30_000u64)
    );
}
paid_on_both_backends!(a_cashout_while_the_rpc_is_down_debits_nothing);

async fn sixteen_cashouts_on_a_balance_for_five(app: &PaidApp) {
    let player = player_with_chips(app).await;
    // 1000 chips, 200 each: five fit.
    let signature = app.sign_statement(&player).await;
    let body = json!({ "address": player.address(), "chips": 200, "signature": signature });
    let replies = join_all((0..16).map(|_| app.post("/api/arcade/cashout", &body))).await;
    let paid: Vec<_> = replies.iter().filter(|r| r.status == 200).collect();
    assert_eq!(paid.len(), 5);
    assert!(paid.iter().all(|r| r.body["status"] == "confirmed"));
    for refused in replies.iter().filter(|r| r.status != 200) {
        assert_eq!(
            (refused.status, refused.body["code"].as_str()),
            (400, Some("insufficient_chips")),
            "{}",
            refused.body
        );
    }
    assert_eq!(app.chips(player.address()).await, 0);
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(100_000u64)
    );
}
paid_on_both_backends!(sixteen_cashouts_on_a_balance_for_five);

/// Cashouts that cannot debit (from addresses that never bought chips, or for more than the
/// paid pocket) are refused before the house's cashout gate and before any chain call: a flood
/// of them costs no RPC call, and an honest cashout sent in the middle of it is paid.
async fn cashouts_that_cannot_debit_cost_no_chain_call(app: &PaidApp) {
    let player = player_with_chips(app).await;
    let mut flood = Vec::new();
    for _ in 0..48 {
        let stranger = PrivateKeySigner::random();
        let signature = app.sign_statement(&stranger).await;
        let body = json!({ "address": stranger.address(), "chips": 1_000, "signature": signature });
        flood.push(("buy_in_required", body));
    }
    let signature = app.sign_statement(&player).await;
    let too_much = json!({ "address": player.address(), "chips": 1_001, "signature": signature });
    flood.extend((0..16).map(|_| ("insufficient_chips", too_much.clone())));

    // The books account for the player's mint (a house transaction) before anything is counted.
    app.arcade.books.catch_up().await.unwrap();
    let calls = || app.shim.calls.load(std::sync::atomic::Ordering::SeqCst);
    let before = calls();
    let refused = join_all(
        flood
            .iter()
            .map(|(_, body)| app.post("/api/arcade/cashout", body)),
    );
    let honest_body = json!({ "address": player.address(), "chips": 400, "signature": signature });
    let honest = app.post("/api/arcade/cashout", &honest_body);
    let (refused, honest) = futures::join!(refused, honest);
    for ((code, _), answer) in flood.iter().zip(&refused) {
        assert_eq!(
            (answer.status, answer.body["code"].as_str()),
            (400, Some(*code)),
            "{}",
            answer.body
        );
    }
    assert_eq!(honest.status, 200, "{}", honest.body);
    assert_eq!(honest.body["status"], "confirmed", "{}", honest.body);
    let honest_calls = calls() - before;

    // The honest cashout alone costs the same calls: the refusals cost none. (The books first
    // account for the first cashout's transfer, as they did for the mint before the flood.)
    app.arcade.books.catch_up().await.unwrap();
    let alone = calls();
    app.cash_out(&player, 400).await.ok();
    // Waiting for the receipt polls the chain once or twice more or less with timing; a refusal
    // that called the chain would add at least 64 calls.
    let alone = calls() - alone;
    assert!(
        honest_calls <= alone + 2,
        "the refusals made RPC calls: {honest_calls} with the flood, {alone} alone"
    );
    assert_eq!(app.chips(player.address()).await, 200);
    assert_eq!(
        app.token_balance(player.address()).await,
        U256::from(80_000u64)
    );
    assert_eq!(
        cashout::Entity::find().count(&app.arcade.db).await.unwrap(),
        2,
        "a refusal records no cashout"
    );
}
paid_on_both_backends!(cashouts_that_cannot_debit_cost_no_chain_call);
