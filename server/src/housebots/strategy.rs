//! How each house agent bets: one favours coinflip, one plays dice at varied targets, one takes
//! roulette's outside bets. Deterministic in the round number, so play is easy to follow.

use serde_json::{Value, json};

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

    /// The game endpoint and its call for round `n`.
    pub fn call(self, n: u64) -> (&'static str, Value) {
        let pick = |n: u64, len: usize| usize::try_from(n).unwrap_or(0) % len;
        match self {
            Self::Coinflip if n % 5 == 4 => ("dice", json!({ "target": 50, "direction": "over" })),
            Self::Coinflip => {
                let side = ["heads", "tails"][pick(n, 2)];
                ("flip", json!({ "call": side }))
            }
            Self::Dice => {
                let target = [10, 25, 50, 75, 90][pick(n, 5)];
                let direction = ["under", "over"][pick(n / 5, 2)];
                ("dice", json!({ "target": target, "direction": direction }))
            }
            Self::Roulette => {
                let bets = [
                    "red", "black", "odd", "even", "low", "high", "dozen1", "dozen2", "dozen3",
                    "column1", "column2", "column3",
                ];
                ("roulette", json!({ "bet": bets[pick(n, bets.len())] }))
            }
        }
    }
}
