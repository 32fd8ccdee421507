//! A receipt's `result` as the arcade shows it: the game's own result, and for a game whose
//! receipts show it (fairness v1 names it for dice), the exact return of a win.

use arcade_core::{Call, GameResult};
use serde::Serialize;

use crate::service::error::ServiceError;

/// A receipt's `result`: the game's fields, then `return_num` and `return_den` where the game
/// shows the exact return of a win (`return_num / return_den` chips, the wager included, in
/// lowest terms). The return is added here, at the receipt, so the core's own result (and the
/// golden vectors) stay as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ShownResult {
    #[serde(flatten)]
    pub result: GameResult,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_num: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_den: Option<u64>,
}

impl ShownResult {
    /// `result` of `call` on `wager`, with the exact return where `call`'s game shows it.
    pub fn new(call: &Call, result: GameResult, wager: u64) -> Result<Self, ServiceError> {
        let Some(exact) = call.shown_return(wager) else {
            return Ok(Self {
                result,
                return_num: None,
                return_den: None,
            });
        };
        let (num, den) = (exact.numerator(), exact.denominator());
        let divisor = gcd(num, den).max(1);
        let lowest = |n: u128| u64::try_from(n / divisor).map_err(ServiceError::internal);
        Ok(Self {
            result,
            return_num: Some(lowest(num)?),
            return_den: Some(lowest(den)?),
        })
    }
}

/// The result as compact JSON, as summaries quote it.
impl std::fmt::Display for ShownResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let json = serde_json::to_string(self).map_err(|_| std::fmt::Error)?;
        f.write_str(&json)
    }
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arcade_core::{DiceCall, Direction, Round, Side};

    fn settled(call: Call) -> GameResult {
        let hex = "ab".repeat(32);
        let seed = arcade_core::ServerSeed::parse(&hex).unwrap();
        let client = arcade_core::ClientSeed::parse("c").unwrap();
        Round::new(seed, client, 0, call, 10)
            .unwrap()
            .settle()
            .result
    }

    #[test]
    fn dice_shows_its_exact_return_in_lowest_terms_after_its_own_fields() {
        let call = Call::Dice(DiceCall::new(50, Direction::Under).unwrap());
        let shown = ShownResult::new(&call, settled(call), 10).unwrap();
        let exact = call.win_return(10);
        let (num, den) = (shown.return_num.unwrap(), shown.return_den.unwrap());
        assert_eq!(
            u128::from(num) * exact.denominator(),
            u128::from(den) * exact.numerator()
        );
        assert_eq!(gcd(u128::from(num), u128::from(den)), 1);
        let text = shown.to_string();
        assert!(text.starts_with(r#"{"roll":"#), "{text}");
        let tail = format!(r#""return_num":{num},"return_den":{den}}}"#);
        assert!(text.ends_with(&tail), "{text}");
    }

    #[test]
    fn coinflip_shows_its_result_alone() {
        let call = Call::Coinflip(Side::Heads);
        let shown = ShownResult::new(&call, settled(call), 10).unwrap();
        assert_eq!(shown.return_num, None);
        assert_eq!(
            serde_json::to_value(shown).unwrap(),
            serde_json::to_value(shown.result).unwrap()
        );
    }
}
