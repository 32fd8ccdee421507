//! Each game's call and result as an answer writes them: numbers in their slots, texts in
//! order (what `js/arcade.js` reads back, game by game).

use arcade_core::coinflip::CoinflipResult;
use arcade_core::dice::DiceResult;
use arcade_core::roulette::RouletteResult;
use arcade_core::{Call, GameResult};

use crate::out::Out;
use crate::slot;

impl Out {
    /// Coinflip: the `outcome` text; dice: `roll_hundredths` in the result's slot, the
    /// `win_chance` and `multiplier` texts; roulette: `pocket` in the slot, the `color` text.
    pub(crate) fn result(&mut self, result: &GameResult) {
        match *result {
            GameResult::Coinflip(CoinflipResult { outcome }) => self.text(outcome.as_str()),
            GameResult::Dice(DiceResult { roll, schedule }) => {
                Out::count(slot::RESULT, u32::from(roll.hundredths()));
                self.text(&schedule.win_chance());
                self.text(&schedule.multiplier());
            }
            GameResult::Roulette(RouletteResult { pocket, color }) => {
                Out::count(slot::RESULT, u32::from(pocket));
                self.text(color.as_str());
            }
        }
    }

    /// Coinflip: the `call` text; dice: `target` in the count's slot, the `direction` text;
    /// roulette: `number` in the count's slot (-1: null), the `bet` text.
    pub(crate) fn params(&mut self, call: &Call) {
        match call {
            Call::Coinflip(side) => self.text(side.as_str()),
            Call::Dice(dice) => {
                Out::count(slot::COUNT, u32::from(dice.target()));
                self.text(dice.direction().as_str());
            }
            Call::Roulette(bet) => {
                Out::number(slot::COUNT, bet.number().map_or(-1.0, f64::from));
                self.text(bet.kind().as_str());
            }
        }
    }
}
