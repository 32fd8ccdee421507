//! The exact expected cashable value after one wager, for every game and call, a spread of
//! wagers and splits of the wager between the paid and the free pocket: a table of
//! `E[cashable after] / cashable before`, beside the same under the rule the pockets replaced
//! (the balance less the chips ever granted for free), then the worst row of each game.
//!
//! ```sh
//! cargo run -p arcade-core --example pockets_ev > pockets-ev-table.txt
//! ```

#[path = "../tests/expectation/mod.rs"]
mod expectation;

use std::io::Write;

use arcade_core::{Game, Limits};
use expectation::{ALL_IN, Row, decimal, label, ratio, table};

const HEADER: &str = "\
Exact E[cashable after one wager] / cashable before (rounded up to 6 decimals).
paid, free: the pockets before the wager; free chips are staked first.
A win splits: free_share = ceil(payout * from_free / wager), the rest is paid.
`-`: nothing was cashable before (then E[cashable after] is the column before).
";

fn main() -> std::io::Result<()> {
    let rows = table(&Limits::SPEC);
    let mut out = std::io::stdout().lock();
    writeln!(out, "{HEADER}")?;
    writeln!(
        out,
        "{:<9} {:<12} {:>6} {:>6} {:>6} {:>14} {:>9} {:>9}",
        "game", "call", "wager", "paid", "free", "E[cashable]", "ratio", "old rule"
    )?;
    for row in &rows {
        print_row(&mut out, row)?;
    }
    writeln!(
        out,
        "\nWorst row of each game among wagers that stake paid chips (largest ratio; pockets, \
         then the old rule):"
    )?;
    for game in Game::ALL {
        let staking_paid = || {
            rows.iter()
                .filter(|r| r.call.game() == game && r.wager > r.before.free)
        };
        let worst = staking_paid().max_by_key(|r| by_ratio(r.expected, r));
        let worst_old = staking_paid().max_by_key(|r| by_ratio(r.expected_old, r));
        for row in [worst, worst_old].into_iter().flatten() {
            print_row(&mut out, row)?;
        }
    }
    writeln!(
        out,
        "\nThe threat model's all-in row (100 paid + 100 free, 200 on one coin flip):"
    )?;
    let (wager, before) = ALL_IN;
    let all_in = rows
        .iter()
        .filter(|r| r.call.game() == Game::Coinflip && r.wager == wager && r.before == before);
    for row in all_in {
        print_row(&mut out, row)?;
    }
    let holding = rows.iter().filter(|r| r.holds()).count();
    let old_failing = rows.iter().filter(|r| !r.holds_under_old_rule()).count();
    writeln!(
        out,
        "\n{} rows; E[cashable after] <= cashable before in {holding}; the old rule breaks it \
         in {old_failing}.",
        rows.len()
    )
}

fn print_row(out: &mut impl Write, row: &Row) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<9} {:<12} {:>6} {:>6} {:>6} {:>14} {:>9} {:>9}",
        row.call.game().as_str(),
        label(&row.call),
        row.wager,
        row.before.paid,
        row.before.free,
        decimal(row.expected, 4),
        ratio(row.expected, row.before.paid),
        ratio(row.expected_old, row.before.paid)
    )
}

/// A row's ratio `expected / paid` scaled by 2^20, for ordering (`expected` < 2^75: it fits).
fn by_ratio(expected: u128, row: &Row) -> u128 {
    (expected << 20) / u128::from(row.before.paid)
}
