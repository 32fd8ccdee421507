//! Each game as a receipt and a play name it, the one per-game table of this crate: the call's
//! members that the signed `Play` and `Receipt` carry (`call`, `target`, `number`), and the
//! `outcome` a `Receipt` signs (docs/proofs.md).

use serde_json::Value;

use super::read::{field, text, unsigned};
use crate::eip712::quote;
use crate::error::Error;

/// The call's members of a `Play`: what was called, dice's target, roulette's number.
pub(super) struct Call<'a> {
    pub call: &'a str,
    pub target: u64,
    pub number: Option<u64>,
}

impl<'a> Call<'a> {
    /// From `params` as the game body gives them: coinflip `{call}`, dice `{target,
    /// direction?}` (under when not given), roulette `{bet, number?}`, limbo
    /// `{target_hundredths}`.
    pub(super) fn of(answer: &'a Value, game: &str) -> Result<Self, Error> {
        match game {
            "coinflip" => Ok(Self {
                call: text(answer, "params.call")?,
                target: 0,
                number: None,
            }),
            "dice" => Ok(Self {
                call: match field(answer, "params.direction") {
                    Ok(_) => text(answer, "params.direction")?,
                    Err(_) => "under",
                },
                target: unsigned(answer, "params.target")?,
                number: None,
            }),
            "roulette" => {
                let bet = text(answer, "params.bet")?;
                // A straight bet names its number; another bet may not, and then has none.
                let number = match field(answer, "params.number") {
                    Ok(_) => Some(unsigned(answer, "params.number")?),
                    Err(_) if bet == "straight" => Some(unsigned(answer, "params.number")?),
                    Err(_) => None,
                };
                Ok(Self {
                    call: bet,
                    target: 0,
                    number,
                })
            }
            "limbo" => Ok(Self {
                call: "limbo",
                target: unsigned(answer, "params.target_hundredths")?,
                number: None,
            }),
            other => Err(unknown(other)),
        }
    }
}

/// The `outcome` a `Receipt` signs: coinflip 1 for heads and 0 for tails, dice the roll in
/// hundredths, roulette the pocket, limbo the result in hundredths.
pub(super) fn outcome(receipt: &Value, game: &str) -> Result<u64, Error> {
    match game {
        "coinflip" => match text(receipt, "result.outcome")? {
            "heads" => Ok(1),
            "tails" => Ok(0),
            other => Err(Error::input(format!(
                "result.outcome is {}, not heads or tails",
                quote(other)
            ))),
        },
        "dice" => unsigned(receipt, "result.roll_hundredths"),
        "roulette" => unsigned(receipt, "result.pocket"),
        "limbo" => unsigned(receipt, "result.result_hundredths"),
        other => Err(unknown(other)),
    }
}

fn unknown(game: &str) -> Error {
    Error::input(format!(
        "game is {}, not coinflip, dice, roulette or limbo",
        quote(game)
    ))
}
