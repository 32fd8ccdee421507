//! What a deployment's limits leave playable of each game, for the games listing: every call
//! is asked of [`Limits::check_wager`], the very check a play passes before it is queued, so
//! the listing and the play path read one limit and one exact return. A call is playable when
//! a wager of [`MIN_WAGER`] passes it for an address with no winnings yet today.

use std::collections::BTreeMap;

use arcade_core::dice::{self, Direction};
use arcade_core::limbo::{MAX_HUNDREDTHS, MIN_TARGET};
use arcade_core::{BetKind, Call, DiceCall, Game, LimboCall, Limits, MIN_WAGER, RouletteBet, Side};
use salvo::oapi::ToSchema;
use serde::Serialize;

/// Every roulette pocket a straight bet can name.
const STRAIGHT_NUMBERS: std::ops::Range<u32> = 0..arcade_core::roulette::POCKETS;

/// The playable range of one game under this deployment's limits (`limits`): each call a
/// wager of `min_wager_chips` can play, and the largest wager each accepts. A call outside
/// these ranges is refused at every wager (400 `payout_above_limit`: a win's profit, even on
/// the smallest wager, is above `max_payout_chips`). Each game fills the fields that fit its
/// call.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct Playable {
    /// coinflip (by `call`) and roulette (by `bet`): each call with the largest wager it
    /// accepts; 0 when no wager plays it. A straight bet's is its smallest over the 37
    /// numbers.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub max_wager: BTreeMap<String, u64>,
    /// dice, by `direction` (`under`, `over`): the lowest and highest `target` a wager of
    /// `min_wager_chips` plays; null when no target does.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub targets: BTreeMap<String, Option<TargetRange>>,
    /// limbo: the smallest `target` a wager of `min_wager_chips` plays, with two decimals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_playable_target: Option<String>,
    /// limbo: the largest `target` a wager of `min_wager_chips` plays, with two decimals. Any
    /// higher target (the call takes up to 1000000.00) is refused at every wager: a win's
    /// exact return grows with the target, and so does its profit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_playable_target: Option<String>,
}

/// The lowest and highest target of a range, both playable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct TargetRange {
    pub min_target: u32,
    pub max_target: u32,
}

/// `game`'s playable range under `limits`.
pub fn playable(limits: &Limits, game: Game) -> Playable {
    let mut playable = Playable::default();
    match game {
        Game::Coinflip => {
            for side in Side::ALL {
                let max = max_wager(limits, &Call::Coinflip(side));
                playable.max_wager.insert(side.as_str().to_owned(), max);
            }
        }
        Game::Dice => {
            for direction in Direction::ALL {
                let range = range_of((dice::MIN_TARGET..=dice::MAX_TARGET).filter(|&target| {
                    DiceCall::new(target, direction)
                        .is_ok_and(|call| plays(limits, &Call::Dice(call)))
                }));
                playable
                    .targets
                    .insert(direction.as_str().to_owned(), range);
            }
        }
        Game::Roulette => {
            for kind in BetKind::ALL {
                let numbers: Vec<Option<u32>> = match kind {
                    BetKind::Straight => STRAIGHT_NUMBERS.map(Some).collect(),
                    _ => vec![None],
                };
                let max = numbers
                    .into_iter()
                    .filter_map(|number| RouletteBet::new(kind, number).ok())
                    .map(|bet| max_wager(limits, &Call::Roulette(bet)))
                    .min()
                    .unwrap_or(0);
                playable.max_wager.insert(kind.as_str().to_owned(), max);
            }
        }
        Game::Limbo => {
            let at = |hundredths: u64| {
                LimboCall::new(hundredths).is_ok_and(|call| plays(limits, &Call::Limbo(call)))
            };
            let (low, high) = (u64::from(MIN_TARGET), u64::from(MAX_HUNDREDTHS));
            // A win's return, and with it its profit, only grows with the target: the playable
            // targets are the ones up to the largest.
            if at(low) {
                let max = last_true(low, high, at);
                playable.min_playable_target = Some(hundredths_text(low));
                playable.max_playable_target = Some(hundredths_text(max));
            }
        }
    }
    playable
}

/// Whether the play path accepts `call` on the smallest wager.
fn plays(limits: &Limits, call: &Call) -> bool {
    limits.check_wager(call, MIN_WAGER, 0).is_ok()
}

/// The largest wager the play path accepts on `call` (a larger wager only adds profit), 0 if
/// none.
fn max_wager(limits: &Limits, call: &Call) -> u64 {
    let accepts = |wager: u64| limits.check_wager(call, wager, 0).is_ok();
    if !accepts(MIN_WAGER) {
        return 0;
    }
    last_true(MIN_WAGER, limits.max_wager_chips.max(MIN_WAGER), accepts)
}

/// The largest value in `low ..= high` where `holds`, which holds at `low` and, past some
/// value, nowhere above it.
fn last_true(mut low: u64, mut high: u64, holds: impl Fn(u64) -> bool) -> u64 {
    while low < high {
        // Rounds up, so the loop always moves.
        let middle = low + (high - low).div_ceil(2);
        if holds(middle) {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    low
}

/// The lowest and highest of `targets`, or none.
fn range_of(targets: impl Iterator<Item = u32>) -> Option<TargetRange> {
    targets.fold(None, |range, target| {
        Some(match range {
            None => TargetRange {
                min_target: target,
                max_target: target,
            },
            Some(TargetRange {
                min_target,
                max_target,
            }) => TargetRange {
                min_target: min_target.min(target),
                max_target: max_target.max(target),
            },
        })
    })
}

/// `50100` as `501.00`, as a limbo target is written.
fn hundredths_text(hundredths: u64) -> String {
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn under_the_spec_limits_limbo_stops_where_a_1_chip_win_would_pay_over_500() {
        let limits = Limits::SPEC;
        let limbo = playable(&limits, Game::Limbo);
        assert_eq!(limbo.min_playable_target.as_deref(), Some("1.01"));
        let max = limbo.max_playable_target.unwrap();
        let hundredths: u64 = max.replace('.', "").parse().unwrap();
        let call = |t: u64| Call::Limbo(LimboCall::new(t).unwrap());
        assert!(limits.check_wager(&call(hundredths), 1, 0).is_ok(), "{max}");
        assert!(
            limits.check_wager(&call(hundredths + 1), 1, 0).is_err(),
            "{max}"
        );
        // About 501.00: a 1-chip win at target T returns a hair below T chips.
        assert!((50_000..=50_200).contains(&hundredths), "{max}");
    }

    #[test]
    fn every_dice_target_and_every_bet_plays_under_the_spec_limits() {
        let limits = Limits::SPEC;
        let dice = playable(&limits, Game::Dice);
        for direction in ["under", "over"] {
            assert_eq!(
                dice.targets[direction],
                Some(TargetRange {
                    min_target: 1,
                    max_target: 99
                }),
                "{direction}"
            );
        }
        let roulette = playable(&limits, Game::Roulette);
        assert_eq!(roulette.max_wager["straight"], 14);
        assert_eq!(roulette.max_wager["red"], 500);
        assert_eq!(roulette.max_wager["dozen2"], 250);
        assert_eq!(playable(&limits, Game::Coinflip).max_wager["heads"], 510);
    }

    #[test]
    fn a_lower_payout_limit_narrows_the_ranges() {
        let limits = Limits {
            max_payout_chips: 30,
            ..Limits::SPEC
        };
        let dice = playable(&limits, Game::Dice);
        let under = dice.targets["under"].unwrap();
        let over = dice.targets["over"].unwrap();
        assert!(under.min_target > 1 && under.max_target == 99, "{under:?}");
        assert!(over.min_target == 1 && over.max_target < 99, "{over:?}");
        assert_eq!(playable(&limits, Game::Roulette).max_wager["straight"], 0);
        let none = Limits {
            max_payout_chips: 0,
            ..Limits::SPEC
        };
        let limbo = playable(&none, Game::Limbo);
        assert!(limbo.max_playable_target.is_none());
        assert_eq!(playable(&none, Game::Dice).targets["under"], None);
    }
}
