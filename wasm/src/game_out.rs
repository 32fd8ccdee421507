//! Each game's call and result across the boundary, the one place in this crate that names a
//! game's fields: a receipt's params and claimed result read from the glue's arguments, and a
//! call and result as an answer writes them (numbers in their slots, texts in order: what
//! `js/arcade.js` reads back, game by game).

use arcade_core::coinflip::{CoinflipClaimed, CoinflipParams, CoinflipResult};
use arcade_core::dice::{DiceClaimed, DiceParams, DiceResult};
use arcade_core::limbo::{LimboClaimed, LimboDrawn, LimboParams, two_decimals};
use arcade_core::roulette::{RouletteClaimed, RouletteParams, RouletteResult};
use arcade_core::wire::ParamsInput;
use arcade_core::{BetKind, Call, ClaimedResult, ClaimedRoll, Color, Direction, GameResult, Side};

use crate::input::{Fields, Invalid, optional_int, parse_text};
use crate::out::Out;
use crate::slot;

/// A receipt's `params` from the glue's arguments: the texts `call`, `direction` and `bet` (in
/// that order, next in `f`), and the numbers `target` and `number` (-1: absent).
pub(crate) fn params_input(
    f: &mut Fields<'_>,
    target: f64,
    number: f64,
) -> Result<ParamsInput, Invalid> {
    let call = f.parse("params.call", Side::parse)?;
    let direction = f.parse("params.direction", Direction::parse)?;
    let bet = f.parse("params.bet", BetKind::parse)?;
    Ok(ParamsInput {
        coinflip: CoinflipParams { call },
        dice: DiceParams {
            target: optional_int(target, "params.target")?,
            direction,
        },
        roulette: RouletteParams {
            bet,
            number: optional_int(number, "params.number")?,
        },
        // The glue passes limbo's `target_hundredths` as the call's target.
        limbo: LimboParams {
            target_hundredths: optional_int(target, "params.target_hundredths")?,
        },
    })
}

/// The claimed result's texts, as the glue passes them (each absent when not given).
pub(crate) struct ResultTexts<'a> {
    pub outcome: Option<&'a str>,
    pub win_chance: Option<&'a str>,
    pub multiplier: Option<&'a str>,
    pub color: Option<&'a str>,
    /// `String(result.roll)`: the roll's shortest digits.
    pub roll: Option<&'a str>,
}

/// A receipt's claimed `result` from its texts and the numbers `roll`, `roll_hundredths` and
/// `pocket` (-1: absent).
pub(crate) fn claimed(
    texts: &ResultTexts<'_>,
    roll: f64,
    roll_hundredths: f64,
    pocket: f64,
) -> Result<ClaimedResult, Invalid> {
    let outcome = parse_text("result.outcome", texts.outcome, Side::parse)?;
    let color = parse_text("result.color", texts.color, Color::parse)?;
    let roll = match texts.roll {
        Some(shortest) => Some(
            ClaimedRoll::new(roll, shortest)
                .ok_or_else(|| Invalid::input("result.roll: not a number"))?,
        ),
        None => None,
    };
    Ok(ClaimedResult {
        coinflip: CoinflipClaimed { outcome },
        dice: DiceClaimed {
            roll,
            roll_hundredths: optional_int(roll_hundredths, "result.roll_hundredths")?,
            win_chance: texts.win_chance.map(alloc::borrow::ToOwned::to_owned),
            multiplier: texts.multiplier.map(alloc::borrow::ToOwned::to_owned),
        },
        roulette: RouletteClaimed {
            pocket: optional_int(pocket, "result.pocket")?,
            color,
        },
        // The glue passes limbo's `result_hundredths` as the result's number and its
        // `crash_point` as the result's second text.
        limbo: LimboClaimed {
            result_hundredths: optional_int(pocket, "result.result_hundredths")?,
            crash_point: texts.multiplier.map(alloc::borrow::ToOwned::to_owned),
        },
    })
}

impl Out {
    /// Coinflip: the `outcome` text; dice: `roll_hundredths` in the result's slot, the
    /// `win_chance` and `multiplier` texts; roulette: `pocket` in the slot, the `color` text;
    /// limbo: `result_hundredths` in the slot, the `crash_point` text.
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
            GameResult::Limbo(LimboDrawn { result }) => {
                Out::count(slot::RESULT, result.hundredths());
                self.text(&two_decimals(result.hundredths()));
            }
        }
    }

    /// Coinflip: the `call` text; dice: `target` in the count's slot, the `direction` text;
    /// roulette: `number` in the count's slot (-1: null), the `bet` text; limbo:
    /// `target_hundredths` in the count's slot, the text `limbo`.
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
            Call::Limbo(limbo) => {
                Out::count(slot::COUNT, limbo.target_hundredths());
                self.text("limbo");
            }
        }
    }
}
