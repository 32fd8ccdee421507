//! The two pockets of a balance (`arcade_core::pockets`), seen through the API: free chips are
//! staked first, a win pays each pocket back in proportion to its stake (the free share rounded
//! up), and a cashout takes paid chips only; a refused cashout changes nothing. Purchases and
//! cashouts are real ones on a dev chain. The ledger audit (free pockets included) ends each.

use alloy::primitives::U256;
use alloy::signers::local::PrivateKeySigner;
use arcade_core::{Call, ClientSeed, Round, ServerSeed, Side, Stake};
use arcade_migrations::{Migrator, MigratorTrait};
use arcade_server::entities::{bet, cashout};
use futures::future::join_all;
use sea_orm::{ColumnTrait, ConnectionTrait, Database, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, fresh_database};
use crate::paying::PaidApp;
use crate::{on_both_backends, paid_on_both_backends};

/// A client seed with which `wager` on heads wins (or loses) this open round. The test reads
/// the round's secret seed to pick it; a player cannot.
async fn seed_that(app: &TestApp, round_id: &str, wager: u64, wins: bool) -> String {
    let server_seed = crate::helpers::secret_seed(app, round_id).await;
    let server_seed = ServerSeed::parse(&server_seed).unwrap();
    let call = Call::Coinflip(Side::Heads);
    (0..)
        .map(|i| format!("pockets-{i}"))
        .find(|seed| {
            let client_seed = ClientSeed::parse(seed).unwrap();
            let round = Round::new(server_seed, client_seed, 0, call, wager).unwrap();
            round.settle().won == wins
        })
        .unwrap()
}

async fn balance(app: &TestApp, player: &PrivateKeySigner) -> Value {
    app.get(&format!("/api/arcade/balance/{}", player.address()))
        .await
        .ok()
}

/// `(chips, cashable, free_chips)` of a balance answer.
fn pockets(balance: &Value) -> (i64, i64, i64) {
    let field = |name: &str| {
        balance[name]
            .as_i64()
            .unwrap_or_else(|| panic!("{balance}"))
    };
    (field("chips"), field("cashable"), field("free_chips"))
}

/// A fresh address with 100 free chips and 100 bought over x402 (micro tier).
async fn bought_and_free(app: &PaidApp) -> PrivateKeySigner {
    let player = app.payer(10_000).await;
    app.claim_free(&player).await;
    app.buy_chips(&player, "micro").await;
    let answer = balance(app, &player).await;
    assert_eq!(pockets(&answer), (200, 100, 100), "{answer}");
    assert_eq!(answer["bought_in"], true);
    player
}

/// All 200 chips on heads, the outcome picked by the test.
async fn all_in(app: &PaidApp, player: &PrivateKeySigner, wins: bool) -> Value {
    let round_id = app.commit(player).await;
    let client_seed = seed_that(app, &round_id, 200, wins).await;
    app.post(
        "/api/arcade/flip",
        &json!({ "round_id": round_id, "client_seed": client_seed, "wager": 200, "call": "heads" }),
    )
    .await
    .ok()
}

/// Refused: more than the paid chips. Nothing changes: balance, pockets, cashouts, tokens.
async fn refused_above_cashable(app: &PaidApp, player: &PrivateKeySigner, chips: i64) {
    let before = balance(app, player).await;
    let refused = app
        .cash_out(player, chips)
        .await
        .error(400, "cashout_exceeds_cashable");
    assert_eq!(
        (refused["cashable"].clone(), refused["balance"].clone()),
        (before["cashable"].clone(), before["chips"].clone()),
        "{refused}"
    );
    assert_eq!(balance(app, player).await, before, "nothing changed");
    let key = format!("{:#x}", player.address());
    let opened = cashout::Entity::find()
        .filter(cashout::Column::Address.eq(key))
        .all(&app.arcade.db)
        .await
        .unwrap();
    assert!(
        opened.iter().all(|c| c.chips != chips),
        "no cashout recorded"
    );
}

/// 100 paid + 100 free, all 200 on one coin flip. A win pays 396: 198 to each pocket, so 198
/// are cashable (the old rule let 296 out); a loss leaves nothing.
async fn an_all_in_flip_pays_each_pocket_its_share(app: &PaidApp) {
    let winner = bought_and_free(app).await;
    let won = all_in(app, &winner, true).await;
    assert_eq!(
        (
            &won["won"],
            &won["payout"],
            &won["free_wagered"],
            &won["free_paid"]
        ),
        (&json!(true), &json!(396), &json!(100), &json!(198)),
        "{won}"
    );
    assert_eq!(
        (&won["balance"], &won["free_chips"]),
        (&json!(396), &json!(198))
    );
    assert_eq!(pockets(&balance(app, &winner).await), (396, 198, 198));
    let bet_id = won["bet_id"].as_i64().unwrap();
    let verified = app.get(&format!("/api/arcade/verify/{bet_id}")).await.ok();
    assert_eq!(verified["verdict"], "consistent, not proven", "{verified}");
    assert_eq!(
        (&verified["free_wagered"], &verified["free_paid"]),
        (&json!(100), &json!(198))
    );

    refused_above_cashable(app, &winner, 199).await;
    let paid = app.cash_out(&winner, 198).await.ok();
    assert_eq!(
        (&paid["status"], &paid["balance"]),
        (&json!("confirmed"), &json!(198))
    );
    assert_eq!(
        app.token_balance(winner.address()).await,
        U256::from(19_800u64)
    );
    assert_eq!(pockets(&balance(app, &winner).await), (198, 0, 198));
    refused_above_cashable(app, &winner, 100).await;

    let loser = bought_and_free(app).await;
    let lost = all_in(app, &loser, false).await;
    assert_eq!(
        (
            &lost["won"],
            &lost["payout"],
            &lost["free_wagered"],
            &lost["free_paid"]
        ),
        (&json!(false), &json!(0), &json!(100), &json!(0)),
        "{lost}"
    );
    assert_eq!(
        (&lost["balance"], &lost["free_chips"]),
        (&json!(0), &json!(0))
    );
    assert_eq!(pockets(&balance(app, &loser).await), (0, 0, 0));
    app.cash_out(&loser, 100)
        .await
        .error(400, "insufficient_chips");
    assert_eq!(app.token_balance(loser.address()).await, U256::ZERO);
}
paid_on_both_backends!(an_all_in_flip_pays_each_pocket_its_share);

/// A cashout that fails after its debit gives its chips back to the paid pocket they left,
/// whatever plays moved the pockets meanwhile: the free pocket is the plays' alone.
async fn a_refunded_cashout_goes_back_to_the_paid_pocket(backend: Backend) {
    let app = PaidApp::spawn_with(backend, |s| s.chain.settle_timeout_ms = 500).await;
    let player = app.payer(100_000).await;
    app.buy_chips(&player, "small").await;
    app.claim_free(&player).await;
    assert_eq!(pockets(&balance(&app, &player).await), (1100, 1000, 100));
    app.anvil("evm_setAutomine", json!([false])).await;
    let sent = app.cash_out(&player, 500).await.ok();
    assert_eq!(sent["status"], "sent", "{sent}");
    assert_eq!(pockets(&balance(&app, &player).await), (600, 500, 100));

    // 200 on a winning flip while the cashout is in flight: 100 free + 100 paid staked, 396
    // back, 198 to each pocket.
    let round_id = app.commit(&player).await;
    let client_seed = seed_that(&app, &round_id, 200, true).await;
    let won = app
        .post(
            "/api/arcade/flip",
            &json!({ "round_id": round_id, "client_seed": client_seed, "wager": 200, "call": "heads" }),
        )
        .await
        .ok();
    assert_eq!(
        (&won["free_wagered"], &won["free_paid"]),
        (&json!(100), &json!(198))
    );
    assert_eq!(pockets(&balance(&app, &player).await), (796, 598, 198));

    // The house's tokens vanish before the transfer is mined: it reverts and is refunded.
    let slot = alloy::primitives::keccak256(alloy::sol_types::SolValue::abi_encode(&(
        app.house(),
        U256::from(1),
    )));
    app.anvil(
        "anvil_setStorageAt",
        json!([app.devnet.token, slot, format!("{:#066x}", 0)]),
    )
    .await;
    app.anvil("evm_mine", json!([])).await;
    let pass = app
        .arcade
        .reconcile
        .cashouts(std::time::Duration::ZERO)
        .await
        .unwrap();
    assert_eq!(pass.refunded, 1, "{pass:?}");
    assert_eq!(pockets(&balance(&app, &player).await), (1296, 1098, 198));
    assert_eq!(app.token_balance(player.address()).await, U256::ZERO);
    app.audit().await;
}

mod a_refunded_cashout_goes_back_to_the_paid_pocket {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::a_refunded_cashout_goes_back_to_the_paid_pocket(crate::helpers::Backend::Sqlite)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::a_refunded_cashout_goes_back_to_the_paid_pocket(crate::helpers::Backend::Postgres)
            .await;
    }
}

/// Plays of one wallet settled together (one batch, or batches back to back, in any order)
/// move its pockets exactly as the core's rule replayed over its bets in id order: a running
/// free pocket staked first and paid its rounded-up share.
async fn concurrent_plays_move_the_pockets_as_the_rule_replayed_in_order(app: &TestApp) {
    let player = PrivateKeySigner::random();
    app.fund(player.address(), 37).await;
    app.claim_free(&player).await;
    let mut rounds = Vec::new();
    for _ in 0..12 {
        rounds.push(app.commit(&player).await);
    }
    let wagers = [1u64, 7, 3, 10, 2, 13, 5, 1, 9, 4, 6, 11];
    let bodies: Vec<Value> = rounds
        .iter()
        .zip(wagers)
        .enumerate()
        .map(|(i, (round_id, wager))| {
            json!({ "round_id": round_id, "client_seed": format!("batch {i}"), "wager": wager, "target": 34, "direction": "over" })
        })
        .collect();
    let answers = join_all(bodies.iter().map(|body| app.post("/api/arcade/dice", body))).await;
    let key = format!("{:#x}", player.address());
    let bets = bet::Entity::find()
        .filter(bet::Column::Address.eq(&key))
        .order_by_asc(bet::Column::Id)
        .all(&app.arcade.db)
        .await
        .unwrap();
    assert_eq!(
        bets.len(),
        answers.iter().filter(|a| a.status == 200).count()
    );
    let (mut chips, mut free) = (137u64, 100u64);
    for bet in &bets {
        let wager = u64::try_from(bet.wager).unwrap();
        let stake = Stake::take(free, wager).unwrap();
        let payout = u64::try_from(bet.payout).unwrap();
        let shares = stake.split(payout);
        assert_eq!(
            (bet.free_wagered, bet.free_paid),
            (stake.from_free() as i64, shares.free as i64),
            "bet {}",
            bet.id
        );
        chips = chips - wager + payout;
        free = free - stake.from_free() + shares.free;
    }
    let answer = balance(app, &player).await;
    assert_eq!(
        pockets(&answer),
        (chips as i64, (chips - free) as i64, free as i64),
        "{answer}"
    );
}
on_both_backends!(concurrent_plays_move_the_pockets_as_the_rule_replayed_in_order);

/// Wallets written before the pockets open with the free pocket `min(chips, free_granted)`:
/// what a cashout may take is what it was (`chips - free_granted`, never below 0), and the
/// audit's `free_opening + SUM(free_delta)` holds for them.
async fn wallets_before_the_pockets_keep_what_was_cashable(backend: Backend) {
    const BEFORE_THE_POCKETS: u32 = 8;
    let database_url = fresh_database(backend).await;
    let db = Database::connect(database_url.as_str()).await.unwrap();
    Migrator::up(&db, Some(BEFORE_THE_POCKETS)).await.unwrap();
    // (address, bought, free granted, chips now): won with free chips, lost some, never free.
    let wallets = [
        ("0x00000000000000000000000000000000000000a1", 100, 100, 296),
        ("0x00000000000000000000000000000000000000a2", 100, 100, 60),
        ("0x00000000000000000000000000000000000000a3", 500, 0, 450),
        ("0x00000000000000000000000000000000000000a4", 0, 100, 130),
    ];
    for (address, bought, granted, chips) in wallets {
        db.execute_unprepared(&format!(
            "INSERT INTO wallets (address, chips, bought_in, free_claimed, free_granted, net_day, \
             net_today, created_at) VALUES ('{address}', {chips}, {}, {}, {granted}, 0, 0, 0)",
            bought > 0,
            granted > 0
        ))
        .await
        .unwrap();
        let mut balance = 0;
        for (kind, delta) in [
            ("purchase", bought),
            ("free", granted),
            ("win", chips - bought - granted),
        ] {
            if delta == 0 {
                continue;
            }
            let kind = if delta < 0 { "wager" } else { kind };
            balance += delta;
            db.execute_unprepared(&format!(
                "INSERT INTO ledger (address, kind, delta, balance_after, reference, created_at) \
                 VALUES ('{address}', '{kind}', {delta}, {balance}, 'before the pockets', 0)"
            ))
            .await
            .unwrap();
        }
    }
    db.close().await.unwrap();

    let app = TestApp::spawn_on(&database_url, |_| {}).await;
    for (address, _, granted, chips) in wallets {
        let answer = app
            .get(&format!("/api/arcade/balance/{address}"))
            .await
            .ok();
        let free = chips.min(granted);
        assert_eq!(
            pockets(&answer),
            (chips, (chips - granted).max(0), free),
            "{answer}"
        );
    }
    app.audit().await;
}

mod wallets_before_the_pockets_keep_what_was_cashable {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::wallets_before_the_pockets_keep_what_was_cashable(crate::helpers::Backend::Sqlite)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::wallets_before_the_pockets_keep_what_was_cashable(crate::helpers::Backend::Postgres)
            .await;
    }
}
