//! Exact expectations of the cashable value after one wager, over the whole distribution of a
//! round's draws: `u_0` decides the outcome and `u_1` the fractional chip, each uniform over its
//! 2^32 values. Every number comes from the core's own functions (the outcome a `u_0` draws,
//! whether a call wins it, the payout a `u_1` adds, the pockets' split); expectations are exact
//! rationals over 2^64. Read by the test `pockets_expectation.rs` and the example `pockets_ev`.

#![allow(dead_code)] // each reader uses its part

use arcade_core::{
    BetKind, Call, DiceCall, Direction, Game, GameResult, LimboCall, Limits, Outcome, RouletteBet,
    Side, Stake, WinReturn,
};

/// Values of one draw (`u_0` or `u_1`).
pub const DRAWS: u64 = 1 << 32;

/// How many of the 2^32 values of `u_0` draw each outcome of one game, in outcome order.
pub struct OutcomeCounts {
    game: Game,
    counts: Vec<(Outcome, u64)>,
}

impl OutcomeCounts {
    /// The game's outcomes and their shares of `u_0`, read from the core's map
    /// (`GameResult::draw`), which orders outcomes as `u_0` grows: each outcome's first `u_0` is
    /// found by bisection and checked to draw it while the value before draws the one before.
    pub fn of(game: Game) -> Self {
        if game == Game::Limbo {
            // One outcome per `u_0` (N = 2^32): counted per call by `winning`.
            return Self {
                game,
                counts: Vec::new(),
            };
        }
        let call = any_call(game);
        let index = |u0: u64| outcome_index(GameResult::draw(&call, draw(u0)).outcome());
        let first = |k: u32| first_where(|u0| index(u0) >= k);
        let n = u32::try_from(game.outcomes()).expect("a game with few outcomes");
        let mut counts = Vec::with_capacity(n as usize);
        let mut start = 0;
        for k in 0..n {
            let next = first(k + 1);
            assert_eq!(
                index(start),
                k,
                "{game:?}: outcome {k} starts at u_0 = {start}"
            );
            assert!(next > start, "{game:?}: outcome {k} is never drawn");
            let outcome = GameResult::draw(&call, draw(start)).outcome();
            counts.push((outcome, next - start));
            start = next;
        }
        assert_eq!(start, DRAWS, "{game:?}: the outcomes cover every u_0");
        Self { game, counts }
    }

    /// Values of `u_0` whose outcome wins `call`; checks that `W` of the `N` outcomes win.
    pub fn winning(&self, call: &Call) -> u64 {
        assert_eq!(call.game(), self.game);
        if let Call::Limbo(_) = call {
            // Limbo's winning draws are the `u_0` up to its boundary (the core's map, bisected).
            let wins = first_where(|u0| !call.wins(GameResult::draw(call, draw(u0)).outcome()));
            assert_eq!(wins, call.winning_count(), "{call:?}");
            return wins;
        }
        let wins: Vec<u64> = self
            .counts
            .iter()
            .filter(|(outcome, _)| call.wins(*outcome))
            .map(|(_, count)| *count)
            .collect();
        assert_eq!(
            u64::try_from(wins.len()).unwrap(),
            call.winning_count(),
            "{call:?}"
        );
        wins.iter().sum()
    }
}

/// Values of `u_1` that pay the fractional chip of `exact` (the core's `bonus`, bisected),
/// checked against `ceil((a mod b) * 2^32 / b)`.
pub fn bonus_draws(exact: &WinReturn) -> u64 {
    let count = first_where(|u1| !exact.bonus(draw(u1)));
    let formula = (exact.remainder() << 32).div_ceil(exact.denominator());
    assert_eq!(u128::from(count), formula, "{exact:?}");
    count
}

/// The payouts a wager can get and their weights, which add up to 2^64: a loss, a win without
/// the fractional chip, a win with it (the payouts are the core's `WinReturn::payout`).
pub fn payouts(call: &Call, wager: u64, counts: &OutcomeCounts) -> [(u64, u128); 3] {
    let wins = u128::from(counts.winning(call));
    let exact = call.win_return(wager);
    let bonus = u128::from(bonus_draws(&exact));
    let pays = |u1: u32| u64::try_from(exact.payout(u1)).expect("a payout fits");
    let all = u128::from(DRAWS);
    [
        (0, (all - wins) * all),
        (pays(u32::MAX), wins * (all - bonus)),
        (pays(0), wins * bonus),
    ]
}

/// A balance before the wager: its paid and free pockets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pockets {
    pub paid: u64,
    pub free: u64,
}

/// `E[cashable after] * 2^64` under the rule of the pockets: the paid pocket less its stake,
/// plus its share of the payout (`Stake::split`).
pub fn expected_cashable(call: &Call, wager: u64, before: Pockets, counts: &OutcomeCounts) -> u128 {
    assert!(
        wager <= before.paid + before.free,
        "the balance covers the wager"
    );
    let stake = Stake::take(before.free, wager).expect("a wager of at least 1");
    let kept = before.paid - stake.from_paid();
    payouts(call, wager, counts)
        .iter()
        .map(|(payout, weight)| weight * u128::from(kept + stake.split(*payout).paid))
        .sum()
}

/// `E[cashable after] * 2^64` under the rule the pockets replaced: the balance less the chips
/// ever granted for free (here the free pocket: a fresh address's free chips are its grant).
pub fn expected_cashable_old_rule(
    call: &Call,
    wager: u64,
    before: Pockets,
    counts: &OutcomeCounts,
) -> u128 {
    let left = before.paid + before.free - wager;
    payouts(call, wager, counts)
        .iter()
        .map(|(payout, weight)| weight * u128::from((left + payout).saturating_sub(before.free)))
        .sum()
}

/// One line of the table.
pub struct Row {
    pub call: Call,
    pub wager: u64,
    pub before: Pockets,
    /// `E[cashable after] * 2^64`, pockets.
    pub expected: u128,
    /// The same under the old rule.
    pub expected_old: u128,
}

impl Row {
    pub fn new(call: Call, wager: u64, before: Pockets, counts: &OutcomeCounts) -> Self {
        Self {
            call,
            wager,
            before,
            expected: expected_cashable(&call, wager, before, counts),
            expected_old: expected_cashable_old_rule(&call, wager, before, counts),
        }
    }

    /// Whether the expected cashable value after the wager is at most the one before.
    pub fn holds(&self) -> bool {
        self.expected <= u128::from(self.before.paid) << 64
    }

    pub fn holds_under_old_rule(&self) -> bool {
        self.expected_old <= u128::from(self.before.paid) << 64
    }
}

/// The calls of the table: both coin sides; every dice target both ways; roulette straight
/// (on 0, 17 and 36) and every outside bet; limbo targets from 1.01 to 501.00.
pub fn calls() -> Vec<Call> {
    let mut calls: Vec<Call> = Side::ALL.into_iter().map(Call::Coinflip).collect();
    for target in 1..=99 {
        for direction in Direction::ALL {
            calls.push(Call::Dice(DiceCall::new(target, direction).unwrap()));
        }
    }
    for kind in BetKind::ALL {
        let numbers: &[Option<u32>] = match kind {
            BetKind::Straight => &[Some(0), Some(17), Some(36)],
            _ => &[None],
        };
        for number in numbers {
            calls.push(Call::Roulette(RouletteBet::new(kind, *number).unwrap()));
        }
    }
    for target in [
        101, 110, 150, 198, 200, 250, 500, 1_000, 5_000, 10_000, 50_100,
    ] {
        calls.push(Call::Limbo(LimboCall::new(target).unwrap()));
    }
    calls
}

/// The wagers of a call: 1, 7, 10, 100 and the largest the limits allow, those allowed.
pub fn wagers(call: &Call, limits: &Limits) -> Vec<u64> {
    let max = limits.max_wager(call);
    let mut wagers: Vec<u64> = [1, 7, 10, 100, max]
        .into_iter()
        .filter(|w| (1..=max).contains(w))
        .collect();
    wagers.dedup();
    wagers
}

/// The balances a wager of `wager` is tried from: all free, all paid, half and half, one chip
/// free or one chip paid, and free chips that cover it beside as many paid.
pub fn balances(wager: u64) -> Vec<Pockets> {
    let mut all = vec![
        Pockets {
            paid: 0,
            free: wager,
        },
        Pockets {
            paid: wager,
            free: 0,
        },
        Pockets {
            paid: wager - wager / 2,
            free: wager / 2,
        },
        Pockets {
            paid: wager - 1,
            free: 1,
        },
        Pockets {
            paid: 1,
            free: wager - 1,
        },
        Pockets {
            paid: wager,
            free: wager,
        },
    ];
    all.retain(|p| p.paid + p.free >= wager);
    let mut unique = Vec::with_capacity(all.len());
    for pockets in all {
        if !unique.contains(&pockets) {
            unique.push(pockets);
        }
    }
    unique
}

/// The all-in row of the threat model: 100 bought, 100 free, all 200 on one wager.
pub const ALL_IN: (u64, Pockets) = (
    200,
    Pockets {
        paid: 100,
        free: 100,
    },
);

/// Every row of the table, game by game.
pub fn table(limits: &Limits) -> Vec<Row> {
    let counts: Vec<OutcomeCounts> = Game::ALL.into_iter().map(OutcomeCounts::of).collect();
    let mut rows = Vec::new();
    for call in calls() {
        let counts = counts
            .iter()
            .find(|c| c.game == call.game())
            .expect("every game counted");
        for wager in wagers(&call, limits) {
            for before in balances(wager) {
                rows.push(Row::new(call, wager, before, counts));
            }
        }
        if limits.max_wager(&call) >= ALL_IN.0 {
            rows.push(Row::new(call, ALL_IN.0, ALL_IN.1, counts));
        }
    }
    rows
}

/// `call` as a short label: `heads`, `under 49`, `straight 17`, `red`.
pub fn label(call: &Call) -> String {
    match call {
        Call::Coinflip(side) => side.as_str().to_owned(),
        Call::Dice(dice) => format!("{} {}", dice.direction().as_str(), dice.target()),
        Call::Roulette(bet) => match bet.number() {
            Some(number) => format!("{} {number}", bet.kind().as_str()),
            None => bet.kind().as_str().to_owned(),
        },
        Call::Limbo(limbo) => format!(
            "limbo {}",
            arcade_core::limbo::two_decimals(limbo.target_hundredths())
        ),
    }
}

/// `value / 2^64` to `places` decimals, rounded up (so nothing above a bound hides).
pub fn decimal(value: u128, places: u32) -> String {
    let scale = 10u128.pow(places);
    let scaled = (value * scale).div_ceil(1 << 64);
    format!(
        "{}.{:0width$}",
        scaled / scale,
        scaled % scale,
        width = places as usize
    )
}

/// `expected / (paid * 2^64)` to 6 decimals, rounded up; `-` when nothing was cashable.
pub fn ratio(expected: u128, paid: u64) -> String {
    if paid == 0 {
        return "-".to_owned();
    }
    decimal(expected / u128::from(paid), 6)
}

/// A call of `game` (the outcomes do not depend on which).
fn any_call(game: Game) -> Call {
    match game {
        Game::Coinflip => Call::Coinflip(Side::Heads),
        Game::Dice => Call::Dice(DiceCall::new(50, Direction::Under).unwrap()),
        Game::Roulette => Call::Roulette(RouletteBet::new(BetKind::Red, None).unwrap()),
        Game::Limbo => Call::Limbo(LimboCall::new(200).unwrap()),
    }
}

/// An outcome's place in its game's order: tails then heads, rolls, pockets.
fn outcome_index(outcome: Outcome) -> u32 {
    match outcome {
        Outcome::Coinflip(Side::Tails) => 0,
        Outcome::Coinflip(Side::Heads) => 1,
        Outcome::Dice(roll) => u32::from(roll.hundredths()),
        Outcome::Roulette(pocket) => u32::from(pocket),
        Outcome::Limbo(result) => result.hundredths(),
    }
}

/// The smallest draw in 0 ..= 2^32 for which `holds` (2^32 if none does); `holds` must be
/// false, then true, as the draw grows.
fn first_where(holds: impl Fn(u64) -> bool) -> u64 {
    let (mut low, mut high) = (0u64, DRAWS);
    while low < high {
        let middle = low + (high - low) / 2;
        if holds(middle) {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    low
}

/// A draw value below 2^32 as the `u32` the core takes.
fn draw(value: u64) -> u32 {
    u32::try_from(value).expect("a draw below 2^32")
}
