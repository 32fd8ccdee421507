use alloy::signers::local::PrivateKeySigner;
use arcade_server::entities::{bet, floor_watermark};
use futures::future::join_all;
use sea_orm::EntityTrait;
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp};

async fn house_wallets_are_split_from_players(backend: Backend) {
    let house = PrivateKeySigner::random();
    let app = TestApp::spawn_with(backend, |s| s.house.wallets = vec![house.address()]).await;
    let player = PrivateKeySigner::random();
    app.claim_free(&house).await;
    app.claim_free(&player).await;
    let mut wagered = [0i64; 2];
    let mut paid = [0i64; 2];
    for (who, signer, path, call) in [
        (0, &house, "/api/arcade/flip", json!({ "call": "heads" })),
        (1, &player, "/api/arcade/dice", json!({ "target": 60 })),
        (
            1,
            &player,
            "/api/arcade/roulette",
            json!({ "bet": "dozen2" }),
        ),
    ] {
        let mut body = call;
        body["round_id"] = json!(app.commit(signer).await);
        body["client_seed"] = json!("stats");
        body["wager"] = json!(7);
        let receipt = app.post(path, &body).await.ok();
        wagered[who] += 7;
        paid[who] += receipt["payout"].as_i64().unwrap();
    }
    let stats = app.get("/api/arcade/house").await.ok();
    assert_eq!(
        stats["house_wallet_addresses"],
        json!([house.address().to_checksum(None)])
    );
    for (key, who) in [("house_wallets", 0), ("players", 1)] {
        let part = &stats[key];
        assert_eq!(part["wagered"], wagered[who], "{key}");
        assert_eq!(part["paid_out"], paid[who], "{key}");
        assert_eq!(part["house_net"], wagered[who] - paid[who], "{key}");
    }
    assert_eq!(stats["house_wallets"]["rounds"], 1);
    assert_eq!(stats["house_wallets"]["by_game"]["coinflip"]["rounds"], 1);
    assert_eq!(stats["players"]["rounds"], 2);
    assert_eq!(stats["players"]["by_game"]["dice"]["wagered"], 7);
    assert_eq!(stats["all"]["rounds"], 3);
    assert_eq!(stats["all"]["wagered"], 21);

    let games = app.get("/api/arcade/games").await.ok();
    let rounds: Vec<(String, i64)> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["name"].as_str().unwrap().to_owned(),
                g["rounds"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rounds,
        [
            ("coinflip".into(), 1),
            ("dice".into(), 1),
            ("roulette".into(), 1),
            ("limbo".into(), 0)
        ]
    );
    app.audit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn house_wallets_are_split_from_players_sqlite() {
    house_wallets_are_split_from_players(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn house_wallets_are_split_from_players_postgres() {
    house_wallets_are_split_from_players(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_listing_is_what_the_interface_describes() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let games = app.get("/api/arcade/games").await.ok();
    assert_eq!(games["chip_value_usd"], 0.0001);
    assert_eq!(
        games["buy_in_tiers"],
        json!([
            { "tier": "micro", "price": "$0.01", "chips": 100, "endpoint": "POST /api/arcade/chips/micro" },
            { "tier": "small", "price": "$0.10", "chips": 1000, "endpoint": "POST /api/arcade/chips/small" },
            { "tier": "medium", "price": "$1.00", "chips": 10000, "endpoint": "POST /api/arcade/chips/medium" },
        ])
    );
    let limits = &games["limits"];
    for (name, value) in [
        ("max_wager_chips", 1000),
        ("max_payout_chips", 500),
        ("daily_win_cap_chips", 2000),
        ("min_cashout_chips", 100),
        ("max_cashout_chips", 250000),
        ("free_chips", 100),
        ("max_client_seed_chars", 256),
    ] {
        assert_eq!(limits[name], value, "{name}");
    }
    let names: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["coinflip", "dice", "roulette", "limbo"]);
    assert_eq!(games["games"][0]["endpoint"], "POST /api/arcade/flip");
    // Each parameter's text is its input schema's description (one source for all documents).
    let call = games["games"][0]["params"]["call"].as_str().unwrap();
    assert!(call.starts_with("heads or tails"), "{call}");
    assert!(
        games["games"][2]["params"]["bet"]
            .as_str()
            .unwrap()
            .contains("column3")
    );
    assert!(games["how_to_play"].as_array().unwrap().len() >= 4);
}

/// A call at the edge of its playable range: its route, the call, the largest wager it plays,
/// and one step past it (a call and a wager the payout limit refuses), if there is one.
type Edge = (&'static str, Value, i64, Option<(Value, i64)>);

/// Each game's `playable` in the listing is where the play path draws its line: the edges it
/// names play, and one step past them is refused for the payout limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_playable_ranges_of_the_listing_are_where_plays_are_refused() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let games = app.get("/api/arcade/games").await.ok();
    let playable = |name: &str| -> Value {
        let game = games["games"].as_array().unwrap().iter();
        let mut found = game.filter(|g| g["name"] == name);
        found.next().unwrap()["playable"].clone()
    };
    let (coinflip, dice, roulette, limbo) = (
        playable("coinflip"),
        playable("dice"),
        playable("roulette"),
        playable("limbo"),
    );
    let wager = |value: &Value| value.as_i64().unwrap();
    let limbo_max = limbo["max_playable_target"].as_str().unwrap();
    let hundredths: u64 = limbo_max.replace('.', "").parse().unwrap();
    let past_limbo = format!("{}.{:02}", (hundredths + 1) / 100, (hundredths + 1) % 100);
    // (route, call, the largest wager it plays, a call or wager one step past it, if any).
    let edges: Vec<Edge> = vec![
        (
            "flip",
            json!({ "call": "heads" }),
            wager(&coinflip["max_wager"]["heads"]),
            Some((
                json!({ "call": "heads" }),
                wager(&coinflip["max_wager"]["heads"]) + 1,
            )),
        ),
        (
            "roulette",
            json!({ "bet": "straight", "number": 17 }),
            wager(&roulette["max_wager"]["straight"]),
            Some((
                json!({ "bet": "straight", "number": 17 }),
                wager(&roulette["max_wager"]["straight"]) + 1,
            )),
        ),
        (
            "roulette",
            json!({ "bet": "dozen2" }),
            wager(&roulette["max_wager"]["dozen2"]),
            Some((
                json!({ "bet": "dozen2" }),
                wager(&roulette["max_wager"]["dozen2"]) + 1,
            )),
        ),
        (
            "dice",
            json!({ "target": dice["targets"]["under"]["min_target"], "direction": "under" }),
            1,
            None,
        ),
        (
            "dice",
            json!({ "target": dice["targets"]["over"]["max_target"], "direction": "over" }),
            1,
            None,
        ),
        (
            "limbo",
            json!({ "target": limbo_max }),
            1,
            Some((json!({ "target": past_limbo }), 1)),
        ),
    ];
    for (route, call, max, past) in edges {
        let player = PrivateKeySigner::random();
        app.fund(player.address(), 1_000).await;
        let round_id = app.commit(&player).await;
        let body = |call: &Value, wager: i64| {
            let mut body = call.clone();
            body["round_id"] = json!(round_id);
            body["client_seed"] = json!("playable edges");
            body["wager"] = json!(wager);
            body
        };
        let path = format!("/api/arcade/{route}");
        if let Some((past_call, past_wager)) = &past {
            let refused = app.post(&path, &body(past_call, *past_wager)).await;
            let error = refused.error(400, "payout_above_limit");
            assert!(
                error["max_wager"].as_i64().unwrap() < *past_wager,
                "{error}"
            );
        }
        let receipt = app.post(&path, &body(&call, max)).await.ok();
        assert_eq!(receipt["wager"], max, "{route} {call}: {receipt}");
    }
}

/// The floor as a scan of the bets says it: `(house, players)` of `(rounds, wagered, paid_out)`.
async fn scanned(app: &TestApp, house: &[String]) -> [(i64, i64, i64); 2] {
    let mut sides = [(0, 0, 0); 2];
    for bet in bet::Entity::find().all(&app.arcade.db).await.unwrap() {
        let side = &mut sides[usize::from(!house.contains(&bet.address))];
        side.0 += 1;
        side.1 += bet.wager;
        side.2 += bet.payout;
    }
    sides
}

fn reported(stats: &Value) -> [(i64, i64, i64); 2] {
    ["house_wallets", "players"].map(|side| {
        let part = &stats[side];
        (
            part["rounds"].as_i64().unwrap(),
            part["wagered"].as_i64().unwrap(),
            part["paid_out"].as_i64().unwrap(),
        )
    })
}

/// Bets folded into the stored totals (from a watermark, while plays and readers race), plus
/// those since, add up to a scan of the bets; when the house wallets change, the totals are
/// folded again under the new split.
async fn folded_totals_match_a_scan_of_the_bets(backend: Backend) {
    let house = PrivateKeySigner::random();
    let house_key = format!("{:#x}", house.address());
    let app = TestApp::spawn_with(backend, |s| s.house.wallets = vec![house.address()]).await;
    let players: Vec<_> = (0..3).map(|_| PrivateKeySigner::random()).collect();
    for signer in players.iter().chain([&house]) {
        app.fund(signer.address(), 1_000).await;
    }
    for wave in 0..3 {
        let mut plays = Vec::new();
        for (i, signer) in players.iter().chain([&house]).enumerate() {
            for _ in 0..4 {
                let body = json!({ "round_id": app.commit(signer).await, "client_seed": format!("{wave}{i}"),
                                   "wager": 3 + i, "target": 55 });
                plays.push(body);
            }
        }
        let playing = join_all(plays.iter().map(|b| app.post("/api/arcade/dice", b)));
        let reading = join_all((0..8).map(|_| app.get("/api/arcade/house")));
        let (played, _) = tokio::join!(playing, reading);
        assert!(played.iter().all(|p| p.status == 200));
        // Past the fold interval, so the next read folds these in.
        tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    }
    let stats = app.get("/api/arcade/house").await.ok();
    assert_eq!(
        reported(&stats),
        scanned(&app, std::slice::from_ref(&house_key)).await
    );
    assert_eq!(stats["all"]["rounds"], 48);
    let watermark = floor_watermark::Entity::find_by_id(1)
        .one(&app.arcade.db)
        .await
        .unwrap()
        .unwrap();
    assert!(
        watermark.last_bet_id > 0,
        "the totals were folded, not only scanned"
    );

    // Another instance names another house wallet: it folds the totals again under its split.
    let moved = TestApp::spawn_on(&app.database_url, |s| {
        s.house.wallets = vec![players[0].address()]
    })
    .await;
    let stats = moved.get("/api/arcade/house").await.ok();
    let moved_key = format!("{:#x}", players[0].address());
    assert_eq!(reported(&stats), scanned(&moved, &[moved_key]).await);
    app.audit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn folded_totals_match_a_scan_of_the_bets_sqlite() {
    folded_totals_match_a_scan_of_the_bets(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn folded_totals_match_a_scan_of_the_bets_postgres() {
    folded_totals_match_a_scan_of_the_bets(Backend::Postgres).await;
}

/// On PostgreSQL a play batch takes its bets' ids when it spends its rounds and writes the bets
/// later (after signing their receipts), while another batch may commit higher ids meanwhile.
/// The floor's fold must wait for such a batch: past its ids, its bets would never be counted.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_fold_waits_for_bet_ids_taken_but_not_yet_written() {
    use std::collections::HashSet;
    use std::time::Duration;

    use arcade_server::service::now_ms;
    use arcade_server::store;

    let app = TestApp::spawn(Backend::Postgres).await;
    let player = PrivateKeySigner::random();
    app.fund(player.address(), 100).await;
    let round_id = app.commit(&player).await;
    let db = app.arcade.db.clone();
    let batch = store::begin(&db).await.unwrap();
    let now = now_ms();
    let spent = store::plays::spend_batch(&batch, &[round_id.as_str()], now, 0)
        .await
        .unwrap();
    assert_eq!(spent.bet_ids(1).unwrap().len(), 1, "the batch took an id");
    let folding =
        tokio::spawn(async move { store::stats::fold(&db, &HashSet::new(), now).await.unwrap() });
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !folding.is_finished(),
        "the fold went on while a batch held bet ids it had not written"
    );
    batch.rollback().await.unwrap();
    let folded = tokio::time::timeout(Duration::from_secs(10), folding)
        .await
        .expect("the fold goes on once the batch is done")
        .unwrap();
    assert!(folded);
    app.audit().await;
}
