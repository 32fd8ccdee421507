//! Free chips have no cash value: for every game, call, wager and split of the wager between
//! the pockets, the exact expected cashable value after the wager (over all 2^64 pairs of
//! draws) is at most the cashable value before it. The rule the pockets replaced fails the
//! same check. `cargo run -p arcade-core --example pockets_ev` prints the table.

mod expectation;

use arcade_core::{Call, Game, Limits, Side};
use expectation::{ALL_IN, OutcomeCounts, Pockets, Row, label, ratio, table};

#[test]
fn no_wager_raises_the_expected_cashable_value() {
    let rows = table(&Limits::SPEC);
    for game in Game::ALL {
        assert!(
            rows.iter().any(|r| r.call.game() == game),
            "{game:?} is in the table"
        );
    }
    let broken: Vec<String> = rows
        .iter()
        .filter(|row| !row.holds())
        .map(|row| {
            format!(
                "{} {} wager {} from {:?}: {}",
                row.call.game().as_str(),
                label(&row.call),
                row.wager,
                row.before,
                ratio(row.expected, row.before.paid)
            )
        })
        .collect();
    assert!(
        broken.is_empty(),
        "E[cashable after] > cashable before in {broken:#?}"
    );
    // Staking free chips alone never makes anything cashable.
    for row in rows.iter().filter(|r| r.before.paid == 0) {
        assert_eq!(row.expected, 0, "{} wager {}", label(&row.call), row.wager);
    }
    assert!(rows.len() > 5_000, "{} rows", rows.len());
}

/// The threat model's strategy: 100 bought and 100 free, all 200 on one coin flip. A win pays
/// 396 (1.98x, no fractional chip). The pockets split it 198/198: E[cashable] = 99 of the 100
/// paid. The old rule (the balance less the free grant) left 296 cashable on a win:
/// E[cashable] = 148, 1.48x what was paid.
#[test]
fn the_all_in_coin_flip_keeps_free_chips_play_money_where_the_old_rule_paid_148_percent() {
    let counts = OutcomeCounts::of(Game::Coinflip);
    let (wager, before) = ALL_IN;
    assert_eq!(
        before,
        Pockets {
            paid: 100,
            free: 100
        }
    );
    for side in Side::ALL {
        let row = Row::new(Call::Coinflip(side), wager, before, &counts);
        assert_eq!(row.expected, 99 << 64);
        assert!(row.holds());
        assert_eq!(ratio(row.expected, 100), "0.990000");
        // The comparison row: the old rule fails the very check the pockets pass.
        assert_eq!(row.expected_old, 148 << 64);
        assert!(!row.holds_under_old_rule());
        assert_eq!(ratio(row.expected_old, 100), "1.480000");
    }
}

/// Wins that draw the fractional chip: the free pocket's share is rounded up, so a bonus chip
/// won on mixed pockets never tips the paid pocket above its stake's proportion. Dice under 1
/// returns 99.0099 chips per chip: with 3 of 5 chips free, the rows still hold.
#[test]
fn fractional_chips_on_mixed_pockets_stay_in_bounds() {
    let counts = OutcomeCounts::of(Game::Dice);
    let call = Call::Dice(arcade_core::DiceCall::new(1, arcade_core::Direction::Under).unwrap());
    for (wager, paid, free) in [(1, 1, 1), (2, 1, 1), (3, 1, 2), (5, 2, 3), (5, 4, 1)] {
        let row = Row::new(call, wager, Pockets { paid, free }, &counts);
        assert!(
            row.holds(),
            "{wager} {paid} {free}: {}",
            ratio(row.expected, paid)
        );
    }
}
