//! Builds limbo's golden vectors (`tests/vectors/fairness-v1-limbo.json`), deterministically:
//! settled rounds in the shape of `fairness-v1.json`, and draws that pin the mapping at the
//! values no seed search reaches (`u = 0`, `u = 1`, each target's win boundary and the draw
//! above it). Shared by the `limbo_vectors` example and the drift test.

use arcade_core::limbo::{LimboCall, LimboResult};
use arcade_core::wire::ReceiptView;
use arcade_core::{
    Call, ClientSeed, GameRules, Limits, Outcome, Round, ServerSeed, Settlement, hex,
};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The server seed of case family `label`, number `i`: SHA-256 of a fixed text.
fn server_seed(label: &str, i: usize) -> String {
    hex::encode(&Sha256::digest(
        format!("arcade fairness v1 limbo vector {label} {i}").as_bytes(),
    ))
}

const CLIENT_SEEDS: [&str; 4] = ["a", "client-seed", "dé ünïcödé 🚀", "spaces are fine"];

/// Targets in hundredths: the least, the even-money, the greatest and some between.
const TARGETS: [u64; 9] = [
    101,
    150,
    200,
    333,
    1_000,
    10_000,
    50_100,
    1_000_000,
    100_000_000,
];

fn limbo(target: u64) -> Call {
    Call::Limbo(LimboCall::new(target).expect("listed targets are limbo targets"))
}

fn round<'a>(server_seed: &'a str, client_seed: &'a str, call: Call, wager: u64) -> Round<'a> {
    Round::new(
        ServerSeed::parse(server_seed).expect("generated seeds are valid"),
        ClientSeed::parse(client_seed).expect("listed client seeds are valid"),
        0,
        call,
        wager,
    )
    .expect("generated wagers are settleable")
}

fn case_json(name: &str, server_seed: &str, client_seed: &str, call: Call, wager: u64) -> Value {
    let round = round(server_seed, client_seed, call, wager);
    let settlement = round.settle();
    let commitment = ServerSeed::parse(server_seed).unwrap().commitment();
    let receipt = ReceiptView {
        commitment: commitment.as_str(),
        server_seed,
        client_seed,
        nonce: 0,
        settlement: &settlement,
    };
    let ret = call.win_return(wager);
    json!({
        "name": name,
        "receipt": receipt,
        "expect": {
            "hmac_message": round.stream().message(0),
            "block0": hex::encode(&settlement.draws.block0),
            "u0": settlement.draws.u0,
            "u1": settlement.draws.u1,
            "exact_return": [ret.numerator().to_string(), ret.denominator().to_string()],
            "max_wager": Limits::SPEC.max_wager(&call),
        }
    })
}

/// Rounds at each target: a 1-chip wager, and the largest and half the largest the limits
/// allow (targets above 501.00 allow none: their 1-chip rounds re-derive all the same).
fn rounds() -> Vec<Value> {
    let mut cases = Vec::new();
    for (i, target) in TARGETS.into_iter().enumerate() {
        let call = limbo(target);
        let max = Limits::SPEC.max_wager(&call);
        let mut wagers = vec![1, (max / 2).max(1), max.max(1)];
        wagers.dedup();
        for (j, wager) in wagers.into_iter().enumerate() {
            let name = format!("limbo target {}, wager {wager}", two(target));
            let client_seed = CLIENT_SEEDS[(i + j) % CLIENT_SEEDS.len()];
            cases.push(case_json(
                &name,
                &server_seed(&name, j),
                client_seed,
                call,
                wager,
            ));
        }
    }
    cases
}

/// Searches client seeds `"{label}-{k}"` until `found` holds for the settled round.
fn search(label: &str, call: Call, wager: u64, found: impl Fn(&Settlement) -> bool) -> Value {
    let seed = server_seed(label, 0);
    let client_seed = (0..)
        .map(|k| format!("{label}-{k}"))
        .find(|c| found(&round(&seed, c, call, wager).settle()))
        .expect("the search is unbounded");
    case_json(label, &seed, &client_seed, call, wager)
}

fn result_is(hundredths: u32) -> impl Fn(&Settlement) -> bool {
    move |s| matches!(s.outcome, Outcome::Limbo(r) if r.hundredths() == hundredths)
}

/// Edges reached by searching client seeds.
fn edges() -> Vec<Value> {
    vec![
        search(
            "edge result 1.00 loses 1.01",
            limbo(101),
            10,
            result_is(100),
        ),
        search("edge result 1.01 wins 1.01", limbo(101), 10, result_is(101)),
        search("edge result 2.00 wins 2.00", limbo(200), 10, result_is(200)),
        search(
            "edge result 1.99 loses 2.00",
            limbo(200),
            10,
            result_is(199),
        ),
        search(
            "edge 1-chip win at 1.50 with bonus chip",
            limbo(150),
            1,
            |s| s.won && s.payout == 2,
        ),
        search(
            "edge 1-chip win at 1.50 without bonus chip",
            limbo(150),
            1,
            |s| s.won && s.payout == 1,
        ),
    ]
}

/// One draw of the mapping: `u_0`, the target, and what fairness v1 makes of them.
fn draw(name: &str, u0: u32, target: u64) -> Value {
    let call = LimboCall::new(target).expect("listed targets are limbo targets");
    let result = LimboResult::from_u32(u0);
    let ret = call.win_return(1);
    json!({
        "name": name,
        "u0": u0,
        "target_hundredths": target,
        "result_hundredths": result.hundredths(),
        "won": call.wins(result),
        "winning_count": arcade_core::limbo::Limbo::winning_count(&call),
        "outcomes": arcade_core::limbo::Limbo::OUTCOMES,
        "exact_return_per_chip": [ret.numerator().to_string(), ret.denominator().to_string()],
    })
}

/// Draws at `u = 0`, `u = 1`, the top of the range, where the cap and the floor of the result
/// begin, and at every target's win boundary `floor(99 * 2^32 / T)` and the draw above it.
fn draws() -> Vec<Value> {
    let scale: u64 = 99 << 32;
    let u = |v: u64| u32::try_from(v).expect("draws are u32");
    let cap_ends = u(scale / 100_000_000);
    let floor_starts = u(scale / 100 + 1);
    let mut draws = vec![
        draw("u = 0 draws the cap, 1000000.00", 0, 200),
        draw("u = 1 draws the cap, 1000000.00", 1, 100_000_000),
        draw("u = 2^32 - 1 draws 1.00", u32::MAX, 101),
        draw("the last draw at the cap", cap_ends, 100_000_000),
        draw("the first draw below the cap", cap_ends + 1, 100_000_000),
        draw("the first draw at 1.00", floor_starts, 101),
        draw("the last draw above 1.00", floor_starts - 1, 101),
        draw("u = 2^31 draws 1.98", 1 << 31, 198),
    ];
    for target in TARGETS.into_iter().chain([102, 198, 199, 201, 4_294_967]) {
        let boundary = u(scale / target);
        let t = two(target);
        draws.push(draw(
            &format!("target {t}: the win boundary wins"),
            boundary,
            target,
        ));
        draws.push(draw(
            &format!("target {t}: one above the boundary loses"),
            boundary + 1,
            target,
        ));
    }
    draws
}

/// `hundredths / 100` with two decimals.
fn two(hundredths: u64) -> String {
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

/// The whole vectors document, as pretty JSON with a trailing newline.
pub fn generate() -> String {
    let mut cases = rounds();
    cases.extend(edges());
    let doc = json!({
        "fairness_version": 1,
        "game": "limbo",
        "about": "Golden vectors of limbo under the arcade's fairness algorithm v1. See README.md beside this file.",
        "limits": Limits::SPEC,
        "cases": cases,
        "draws": draws(),
    });
    let mut text = serde_json::to_string_pretty(&doc).expect("JSON values serialize");
    text.push('\n');
    text
}
