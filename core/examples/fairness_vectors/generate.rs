//! Builds the golden vectors of fairness v1 (`tests/vectors/fairness-v1.json`), deterministically.
//! Shared by the `fairness_vectors` example (which writes the file) and the drift test.

use arcade_core::wire::ReceiptView;
use arcade_core::{
    BetKind, Call, ClientSeed, DiceCall, Direction, Limits, Outcome, RouletteBet, Round,
    ServerSeed, Settlement, Side, hex,
};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The server seed of case family `label`, number `i`: SHA-256 of a fixed text, so anyone can
/// see the seeds were not chosen to flatter any outcome.
fn server_seed(label: &str, i: usize) -> String {
    hex::encode(&Sha256::digest(
        format!("arcade fairness v1 vector {label} {i}").as_bytes(),
    ))
}

const CLIENT_SEEDS: [&str; 6] = [
    "a",
    "client-seed",
    "lucky:7:colons",
    "dé ünïcödé 🎲",
    "spaces are fine",
    "0123456789abcdef0123456789abcdef",
];

struct Case {
    name: String,
    server_seed: String,
    client_seed: String,
    nonce: u64,
    call: Call,
    wager: u64,
}

fn case_json(case: &Case, limits: &Limits) -> Value {
    let round = Round::new(
        ServerSeed::parse(&case.server_seed).expect("generated seeds are valid"),
        ClientSeed::parse(&case.client_seed).expect("listed client seeds are valid"),
        case.nonce,
        case.call,
        case.wager,
    )
    .expect("generated wagers are settleable");
    let settlement = round.settle();
    let commitment = ServerSeed::parse(&case.server_seed).unwrap().commitment();
    let receipt = ReceiptView {
        commitment: commitment.as_str(),
        server_seed: &case.server_seed,
        client_seed: &case.client_seed,
        nonce: case.nonce,
        settlement: &settlement,
    };
    let ret = case.call.win_return(case.wager);
    json!({
        "name": case.name,
        "receipt": receipt,
        "expect": {
            "hmac_message": round.stream().message(0),
            "block0": hex::encode(&settlement.draws.block0),
            "u0": settlement.draws.u0,
            "u1": settlement.draws.u1,
            "exact_return": [ret.numerator().to_string(), ret.denominator().to_string()],
            "max_wager": limits.max_wager(&case.call),
        }
    })
}

fn calls() -> Vec<(String, Call)> {
    let mut calls = Vec::new();
    for side in [Side::Heads, Side::Tails] {
        calls.push((format!("coinflip {}", side.as_str()), Call::Coinflip(side)));
    }
    for target in [1, 2, 10, 25, 49, 50, 51, 75, 90, 98, 99] {
        for direction in [Direction::Under, Direction::Over] {
            let call = Call::Dice(DiceCall::new(target, direction).unwrap());
            calls.push((format!("dice {} {target}", direction.as_str()), call));
        }
    }
    for kind in BetKind::ALL {
        if kind == BetKind::Straight {
            for number in [0, 1, 17, 36] {
                let call = Call::Roulette(RouletteBet::new(kind, Some(number)).unwrap());
                calls.push((format!("roulette straight {number}"), call));
            }
        } else {
            let call = Call::Roulette(RouletteBet::new(kind, None).unwrap());
            calls.push((format!("roulette {}", kind.as_str()), call));
        }
    }
    calls
}

/// Searches client seeds `"{prefix}-{k}"` until `found` holds for the settled round.
fn search(label: &str, call: Call, wager: u64, found: impl Fn(&Settlement) -> bool) -> Case {
    let server_seed = server_seed(label, 0);
    for k in 0.. {
        let client_seed = format!("{label}-{k}");
        let round = Round::new(
            ServerSeed::parse(&server_seed).unwrap(),
            ClientSeed::parse(&client_seed).unwrap(),
            0,
            call,
            wager,
        )
        .unwrap();
        if found(&round.settle()) {
            return Case {
                name: label.to_string(),
                server_seed,
                client_seed,
                nonce: 0,
                call,
                wager,
            };
        }
    }
    unreachable!("the search is unbounded")
}

/// The whole vectors document, as pretty JSON with a trailing newline.
pub fn generate() -> String {
    let limits = Limits::SPEC;
    let mut cases = Vec::new();
    for (i, (label, call)) in calls().into_iter().enumerate() {
        let max = limits.max_wager(&call);
        let wagers = [1, 3.min(max), 100.min(max), (max / 2).max(1), max];
        for (j, wager) in wagers.into_iter().enumerate() {
            let which = [
                "1 chip",
                "small",
                "100 chips or the max",
                "half the max",
                "largest allowed",
            ][j];
            cases.push(Case {
                name: format!("{label}, {which} wager ({wager})"),
                server_seed: server_seed(&label, j),
                client_seed: CLIENT_SEEDS[(i + j) % CLIENT_SEEDS.len()].to_string(),
                nonce: 0,
                call,
                wager,
            });
        }
    }

    // Edges found by search: the extreme rolls, the zero pocket, both sides of the bonus chip.
    let under = |t| Call::Dice(DiceCall::new(t, Direction::Under).unwrap());
    let over = |t| Call::Dice(DiceCall::new(t, Direction::Over).unwrap());
    let roll_is =
        |h: u16| move |s: &Settlement| matches!(s.outcome, Outcome::Dice(r) if r.hundredths() == h);
    cases.push(search("edge roll 0.00 under 1", under(1), 5, roll_is(0)));
    cases.push(search(
        "edge roll 100.00 over 99",
        over(99),
        5,
        roll_is(10_000),
    ));
    cases.push(search(
        "edge roll 100.00 under 99",
        under(99),
        1_000,
        roll_is(10_000),
    ));
    cases.push(search(
        "edge roll exactly on target 50 under",
        under(50),
        10,
        roll_is(5_000),
    ));
    cases.push(search(
        "edge roll exactly on target 50 over",
        over(50),
        10,
        roll_is(5_000),
    ));
    let pocket0 = |s: &Settlement| s.outcome == Outcome::Roulette(0);
    let straight0 = Call::Roulette(RouletteBet::new(BetKind::Straight, Some(0)).unwrap());
    cases.push(search(
        "edge pocket 0 on straight 0",
        straight0,
        14,
        pocket0,
    ));
    for kind in BetKind::ALL.into_iter().filter(|k| *k != BetKind::Straight) {
        let call = Call::Roulette(RouletteBet::new(kind, None).unwrap());
        cases.push(search(
            &format!("edge pocket 0 loses {}", kind.as_str()),
            call,
            7,
            pocket0,
        ));
    }
    let heads = Call::Coinflip(Side::Heads);
    cases.push(search(
        "edge 1-chip coinflip win with bonus chip",
        heads,
        1,
        |s| s.won && s.payout == 2,
    ));
    cases.push(search(
        "edge 1-chip coinflip win without bonus chip",
        heads,
        1,
        |s| s.won && s.payout == 1,
    ));
    cases.push(search(
        "edge dice over 1 win without bonus",
        over(1),
        1_000,
        |s| s.won && s.payout == 1_000,
    ));
    cases.push(search(
        "edge dice over 1 win with bonus",
        over(1),
        1_000,
        |s| s.won && s.payout == 1_001,
    ));

    // The stream is general in its nonce; arcade rounds use 0, these show others re-derive too.
    for (k, nonce) in [1u64, 42, 1_000_000].into_iter().enumerate() {
        cases.push(Case {
            name: format!("nonce {nonce}"),
            server_seed: server_seed("nonce", k),
            client_seed: "nonce".to_string(),
            nonce,
            call: under(50),
            wager: 10,
        });
    }
    // Client seeds at their limits.
    cases.push(Case {
        name: "client seed of 256 characters".to_string(),
        server_seed: server_seed("long client seed", 0),
        client_seed: "x".repeat(256),
        nonce: 0,
        call: heads,
        wager: 10,
    });
    cases.push(Case {
        name: "client seed of 256 four-byte characters".to_string(),
        server_seed: server_seed("wide client seed", 0),
        client_seed: "🎰".repeat(256),
        nonce: 0,
        call: over(50),
        wager: 10,
    });

    let doc = json!({
        "fairness_version": 1,
        "about": "Golden vectors of the arcade's fairness algorithm v1. See README.md beside this file.",
        "limits": limits,
        "cases": cases.iter().map(|c| case_json(c, &limits)).collect::<Vec<_>>(),
    });
    let mut text = serde_json::to_string_pretty(&doc).expect("JSON values serialize");
    text.push('\n');
    text
}
