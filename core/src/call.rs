//! A player's call on one of the three games, and the outcome drawn for it.

use crate::coinflip::{self, Side};
use crate::dice::{self, DiceCall, Roll};
use crate::payout::WinReturn;
use crate::roulette::{self, RouletteBet};

/// The three games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Game {
    /// Heads or tails.
    Coinflip,
    /// Under or over a target on 0.00 ..= 100.00.
    Dice,
    /// European single-zero roulette.
    Roulette,
}

impl Game {
    /// Every game.
    pub const ALL: [Game; 3] = [Self::Coinflip, Self::Dice, Self::Roulette];

    /// `"coinflip"`, `"dice"` or `"roulette"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Coinflip => "coinflip",
            Self::Dice => "dice",
            Self::Roulette => "roulette",
        }
    }

    /// Parses a game name exactly.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.as_str() == text)
    }

    /// `N`: how many equally likely outcomes the game has.
    pub fn outcomes(self) -> u32 {
        match self {
            Self::Coinflip => coinflip::OUTCOMES,
            Self::Dice => dice::OUTCOMES,
            Self::Roulette => roulette::POCKETS,
        }
    }
}

/// What the player bets on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Call {
    /// Heads or tails.
    Coinflip(Side),
    /// A target and a direction.
    Dice(DiceCall),
    /// One of the 13 roulette bets.
    Roulette(RouletteBet),
}

impl Call {
    /// The game this call is for.
    pub fn game(&self) -> Game {
        match self {
            Self::Coinflip(_) => Game::Coinflip,
            Self::Dice(_) => Game::Dice,
            Self::Roulette(_) => Game::Roulette,
        }
    }

    /// Whether `outcome` wins this call (an outcome of another game never does).
    pub fn wins(&self, outcome: Outcome) -> bool {
        match (self, outcome) {
            (Self::Coinflip(side), Outcome::Coinflip(drawn)) => *side == drawn,
            (Self::Dice(call), Outcome::Dice(roll)) => call.wins(roll),
            (Self::Roulette(bet), Outcome::Roulette(pocket)) => bet.covers(pocket),
            _ => false,
        }
    }

    /// `W`: winning outcomes of the game's `N`.
    pub fn winning_count(&self) -> u32 {
        match self {
            Self::Coinflip(_) => coinflip::WINNING,
            Self::Dice(call) => call.winning_count(),
            Self::Roulette(bet) => bet.winning_count(),
        }
    }

    /// The exact return of a win on `wager`.
    pub fn win_return(&self, wager: u64) -> WinReturn {
        match self {
            Self::Coinflip(_) => coinflip::win_return(wager),
            Self::Dice(call) => call.win_return(wager),
            Self::Roulette(bet) => bet.win_return(wager),
        }
    }

    /// The largest profit a win on `wager` can pay: `ceil(R) - wager`.
    pub fn potential_profit(&self, wager: u64) -> u128 {
        self.win_return(wager).ceil() - u128::from(wager)
    }
}

/// What was drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side the coin landed on.
    Coinflip(Side),
    /// The dice roll.
    Dice(Roll),
    /// The roulette pocket, 0 ..= 36.
    Roulette(u8),
}
