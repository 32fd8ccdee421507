//! Free-chip farming, all in (threats.md: "free chips and paid chips staked together, all in,
//! on many fresh addresses"): each of many fresh addresses buys the micro tier over x402 (100
//! chips for 10,000 base units), claims the 100 free chips, stakes all 200 on one coin flip, and
//! cashes out all that is cashable once it reaches the minimum cashout. The money that left,
//! read from the chain, must stay within what was paid in plus four standard deviations of the
//! pockets' rule.
//!
//! Per address: a win (probability exactly 1/2) pays 200 * 1.98 = 396 chips, no fractional
//! chip. The pockets split it 198 free, 198 paid: 198 chips out on a win, 0 on a loss, mean 99
//! and standard deviation 99 per address (E[out] = 0.99 of what was paid in). The rule the
//! pockets replaced (the balance less the free grant) let 296 out on a win: mean 148.
//!
//! With N = 300 addresses the bound is 100 N + 4 * 99 * sqrt(N) = 36,858.9 chips; with K of
//! N ~ Binomial(300, 1/2) wins the money out is 198 K under the pockets and was 296 K:
//! - the pockets break the bound iff K >= 187: P = 1.1e-5 (a false alarm);
//! - the old rule kept within it iff K <= 124: P = 1.6e-3, so it fails 99.8% of runs.

use alloy::primitives::{FixedBytes, U256};
use alloy::signers::local::PrivateKeySigner;
use arcade_core::{Call, Limits, Side, Stake};
use futures::StreamExt;
use serde_json::json;

use crate::helpers::Backend;
use crate::paying::{PaidApp, mint_to};

/// Fresh addresses that farm.
const ADDRESSES: u64 = 300;
/// Addresses farming at once.
const AT_ONCE: usize = 8;
/// The micro tier: chips bought and their price in base units.
const MICRO_CHIPS: u64 = 100;
const MICRO_PRICE: u64 = 10_000;
const BASE_UNITS_PER_CHIP: u64 = 100;
/// The whole balance, 100 paid and 100 free, on one flip.
const ALL_IN: u64 = 200;

/// What one address can take out, with its weight of the coin's `N = 2` outcomes, under the
/// pockets' rule (`arcade_core::Stake`) and from the core's coin flip.
fn out_per_address() -> Vec<(u64, u64)> {
    let call = Call::Coinflip(Side::Heads);
    let exact = call.win_return(ALL_IN);
    assert_eq!(exact.remainder(), 0, "200 on a coin flip pays whole chips");
    let win = u64::try_from(exact.floor()).unwrap();
    let stake = Stake::take(100, ALL_IN).unwrap();
    let out = |payout: u64| {
        let cashable = (MICRO_CHIPS - stake.from_paid()) + stake.split(payout).paid;
        if cashable >= Limits::SPEC.min_cashout_chips {
            cashable
        } else {
            0
        }
    };
    let wins = call.winning_count();
    let losses = call.game().outcomes() - wins;
    vec![(out(win), wins), (out(0), losses)]
}

/// Exact moments of one address's money out, over the outcomes' total weight `D`:
/// `(D, D * E[X], D^2 * Var[X])`.
fn moments(outcomes: &[(u64, u64)]) -> (u128, u128, u128) {
    let d: u128 = outcomes.iter().map(|(_, w)| u128::from(*w)).sum();
    let sum: u128 = outcomes
        .iter()
        .map(|(x, w)| u128::from(*x) * u128::from(*w))
        .sum();
    let squares: u128 = outcomes
        .iter()
        .map(|(x, w)| u128::from(*x) * u128::from(*x) * u128::from(*w))
        .sum();
    (d, sum, d * squares - sum * sum)
}

/// One fresh address's play: buy, claim, all in, cash out what is cashable. The chips out.
async fn farm(app: &PaidApp, payer: PrivateKeySigner) -> u64 {
    app.buy_chips(&payer, "micro").await;
    app.claim_free(&payer).await;
    let round = app.commit(&payer).await;
    let client_seed = format!("all-in {}", FixedBytes::<16>::random());
    let played = app
        .post(
            "/api/arcade/flip",
            &json!({ "round_id": round, "client_seed": client_seed, "wager": ALL_IN, "call": "heads" }),
        )
        .await
        .ok();
    assert_eq!(played["wager"], ALL_IN, "{played}");
    let balance = app
        .get(&format!("/api/arcade/balance/{}", payer.address()))
        .await
        .ok();
    let cashable = balance["cashable"].as_u64().expect("cashable");
    if cashable < Limits::SPEC.min_cashout_chips {
        return 0;
    }
    let paid = app
        .cash_out(&payer, i64::try_from(cashable).unwrap())
        .await
        .ok();
    assert_eq!(paid["status"], "confirmed", "{paid}");
    cashable
}

#[allow(clippy::print_stdout)] // the run's figures, shown with --nocapture
async fn all_in_farming_takes_out_no_more_than_was_paid_in(backend: Backend) {
    let app = PaidApp::spawn(backend).await;
    let mut payers = Vec::new();
    for _ in 0..ADDRESSES {
        let payer = PrivateKeySigner::random();
        mint_to(&app, payer.address(), MICRO_PRICE).await;
        payers.push(payer);
    }
    let house_before = app.token_balance(app.house()).await;
    let addresses: Vec<_> = payers.iter().map(PrivateKeySigner::address).collect();
    let cashed: Vec<u64> = futures::stream::iter(payers)
        .map(|payer| farm(&app, payer))
        .buffer_unordered(AT_ONCE)
        .collect()
        .await;

    // The money out, from the chain: what each address holds now (it spent all it was minted).
    let mut out_units = U256::ZERO;
    for address in &addresses {
        out_units += app.token_balance(*address).await;
    }
    let out_chips = u64::try_from(out_units / U256::from(BASE_UNITS_PER_CHIP)).unwrap();
    assert_eq!(
        out_chips,
        cashed.iter().sum::<u64>(),
        "the chain paid what was cashed out"
    );
    let paid_in = ADDRESSES * MICRO_CHIPS;
    assert_eq!(
        app.token_balance(app.house()).await + out_units,
        house_before + U256::from(ADDRESSES * MICRO_PRICE),
        "the house received every purchase and paid every cashout"
    );

    // E[out] and Var[out] of N independent addresses, exactly.
    let (d, d_mean, d2_variance) = moments(&out_per_address());
    let n = u128::from(ADDRESSES);
    assert!(
        n * d_mean < u128::from(paid_in) * d,
        "in expectation, less comes out than went in"
    );
    // out <= paid_in + 4 sigma  <=>  out <= paid_in, or (out - paid_in)^2 <= 16 N Var.
    let wins = cashed.iter().filter(|c| **c > 0).count();
    let excess = u128::from(out_chips.saturating_sub(paid_in));
    let sigma = ((n * d2_variance) as f64).sqrt() / d as f64;
    println!(
        "{backend:?}: {out_chips} chips cashed out of {paid_in} paid in by {ADDRESSES} addresses \
         ({wins} won their flip); E[out] = {}, bound paid in + 4 sigma = {:.1}",
        n * d_mean / d,
        paid_in as f64 + 4.0 * sigma
    );
    assert!(
        excess * excess * d * d <= 16 * n * d2_variance,
        "{out_chips} chips cashed out of {paid_in} paid in by {ADDRESSES} addresses ({wins} won \
         their flip): more than 4 standard deviations ({:.0} chips) above what was paid in",
        4.0 * sigma
    );
    app.audit().await;
}

mod all_in_farming_takes_out_no_more_than_was_paid_in {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::all_in_farming_takes_out_no_more_than_was_paid_in(crate::helpers::Backend::Sqlite)
            .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::all_in_farming_takes_out_no_more_than_was_paid_in(crate::helpers::Backend::Postgres)
            .await;
    }
}

#[test]
fn the_pockets_let_out_99_per_address_with_a_standard_deviation_of_99() {
    let outcomes = out_per_address();
    assert_eq!(outcomes, vec![(198, 1), (0, 1)]);
    let (d, d_mean, d2_variance) = moments(&outcomes);
    assert_eq!((d, d_mean, d2_variance), (2, 198, 4 * 99 * 99));
}
