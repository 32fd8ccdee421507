//! Each game's members of the signed `Play` and `Receipt` (`call`, `target`, `number`, and the
//! `outcome` a `Receipt` signs; docs/proofs.md), read from a receipt or a play by the fairness
//! core's description of the game (`arcade_core::GAMES`): this crate names no game.

use arcade_core::description::{Description, Field, Kind, Source};
use serde_json::Value;

use super::read::{field, text, unsigned};
use crate::eip712::quote;
use crate::error::Error;

/// The call's members of a `Play`: what was called, the target, the number.
pub(super) struct Call<'a> {
    pub call: &'a str,
    pub target: u64,
    pub number: Option<u64>,
}

impl<'a> Call<'a> {
    /// From `params` as the game body gives them, by the game's description: a choice left out
    /// is its first word (dice's `under`), a number required only with another field's word is
    /// read when that word is given (a straight bet's number).
    pub(super) fn of(answer: &'a Value, game: &str) -> Result<Self, Error> {
        let described = described(game)?;
        let signed = described.signed;
        let call = match signed.call {
            Source::Param(name) => {
                let path = param_path(name);
                match (field(answer, &path), first_word(described, name)) {
                    (Err(_), Some(default)) => default,
                    _ => text(answer, &path)?,
                }
            }
            Source::Word(word) => word,
            Source::Absent => "",
        };
        let target = match signed.target {
            Source::Param(name) => unsigned(answer, &param_path(name))?,
            Source::Word(_) | Source::Absent => 0,
        };
        let number = match signed.number {
            Source::Param(name) => {
                let path = param_path(name);
                let required = param(described, name)
                    .and_then(|f| f.required_with)
                    .is_some_and(|(other, word)| {
                        text(answer, &param_path(other)).is_ok_and(|given| given == word)
                    });
                match field(answer, &path) {
                    Ok(_) => Some(unsigned(answer, &path)?),
                    Err(_) if required => Some(unsigned(answer, &path)?),
                    Err(_) => None,
                }
            }
            Source::Word(_) | Source::Absent => None,
        };
        Ok(Self {
            call,
            target,
            number,
        })
    }
}

/// The `outcome` a `Receipt` signs: the described result field, a word's index among its
/// words (coinflip: 1 for heads, 0 for tails) or the number itself (dice's roll in hundredths,
/// roulette's pocket, limbo's result in hundredths).
pub(super) fn outcome(receipt: &Value, game: &str) -> Result<u64, Error> {
    let signed = described(game)?.signed;
    let path = format!("result.{}", signed.outcome);
    match signed.outcome_words {
        [] => unsigned(receipt, &path),
        words => {
            let given = text(receipt, &path)?;
            match words.iter().position(|word| *word == given) {
                Some(index) => Ok(index as u64),
                None => Err(Error::input(format!(
                    "{path} is {}, not {}",
                    quote(given),
                    either(words)
                ))),
            }
        }
    }
}

fn described(game: &str) -> Result<&'static Description, Error> {
    Description::of(game).ok_or_else(|| {
        let names: Vec<&str> = arcade_core::GAMES.iter().map(|d| d.name).collect();
        Error::input(format!("game is {}, not {}", quote(game), either(&names)))
    })
}

fn param(described: &Description, name: &str) -> Option<&'static Field> {
    described.params.iter().find(|f| f.name == name)
}

/// The first word of an optional choice: what a call that leaves it out plays.
fn first_word(described: &Description, name: &str) -> Option<&'static str> {
    match param(described, name)? {
        Field {
            required: false,
            kind: Kind::Choice { words },
            ..
        } => words.first().copied(),
        _ => None,
    }
}

fn param_path(name: &str) -> String {
    format!("params.{name}")
}

/// `a, b, c or d`.
fn either(words: &[&str]) -> String {
    match words.split_last() {
        Some((last, [])) => (*last).into(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
