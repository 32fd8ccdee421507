//! How each house agent bets: one favours coinflip, one plays dice at varied targets, one takes
//! roulette's outside bets. Deterministic in the round number, so play is easy to follow.

use arcade_core::{BetKind, Call, DiceCall, Direction, RouletteBet, Side};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Coinflip, alternating heads and tails, with a dice round every fifth.
    Coinflip,
    /// Dice, cycling through targets from long odds to safe bets, under and over.
    Dice,
    /// Roulette outside bets: red, black, odd, even, low, high, dozens, columns.
    Roulette,
}

impl Strategy {
    /// The strategy of the agent at `index`: the three, in turn.
    pub fn for_agent(index: usize) -> Self {
        [Self::Coinflip, Self::Dice, Self::Roulette][index % 3]
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Coinflip => "coinflip (heads and tails in turn, dice every fifth round)",
            Self::Dice => "dice at varied targets, under and over",
            Self::Roulette => "roulette outside bets",
        }
    }

    /// The call for round `n`.
    pub fn call(self, n: u64) -> Call {
        let pick = |n: u64, len: usize| usize::try_from(n).unwrap_or(0) % len;
        let dice = |target, direction| {
            Call::Dice(DiceCall::new(target, direction).expect("targets 10 to 90 are dice targets"))
        };
        match self {
            Self::Coinflip if n % 5 == 4 => dice(50, Direction::Over),
            Self::Coinflip => Call::Coinflip(Side::ALL[pick(n, 2)]),
            Self::Dice => dice(
                [10, 25, 50, 75, 90][pick(n, 5)],
                Direction::ALL[pick(n / 5, 2)],
            ),
            Self::Roulette => {
                let outside: Vec<BetKind> = BetKind::ALL
                    .into_iter()
                    .filter(|kind| *kind != BetKind::Straight)
                    .collect();
                let kind = outside[pick(n, outside.len())];
                Call::Roulette(RouletteBet::new(kind, None).expect("outside bets take no number"))
            }
        }
    }
}
