//! How each house agent bets: agent `i` plays the `i`-th game of the list (in turn, when there
//! are more agents than games), going through that game's house calls (`inputs::games`) one per
//! round. Deterministic in the round number, so play is easy to follow.

use arcade_core::{Call, Game};

use crate::inputs::games::{endpoint, house_calls};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Strategy {
    game: Game,
    calls: Vec<Call>,
}

impl Strategy {
    /// The strategy of the agent at `index`: the games, in turn.
    pub fn for_agent(index: usize) -> Self {
        let game = Game::ALL[index % Game::ALL.len()];
        Self {
            game,
            calls: house_calls(game),
        }
    }

    /// The agent's name for its `k`-th agent of the same game: `"Flip"`, `"Dice II"`.
    pub fn agent_name(&self, index: usize) -> String {
        let mut name = endpoint(self.game).to_owned();
        if let Some(first) = name.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        match index / Game::ALL.len() {
            0 => name,
            k => format!("{name} {}", "I".repeat(k + 1)),
        }
    }

    /// What the agent plays, in words.
    pub fn name(&self) -> String {
        let calls: Vec<String> = self.calls.iter().map(describe).collect();
        format!("{} in turn: {}", self.game.as_str(), calls.join(", "))
    }

    /// The call for round `n`.
    pub fn call(&self, n: u64) -> Call {
        let at = usize::try_from(n).unwrap_or(0) % self.calls.len();
        self.calls[at]
    }
}

/// A call as the signed receipt names it: `heads`, `under 10`, `red`, `straight 17`.
fn describe(call: &Call) -> String {
    let signed = call.signed();
    match (signed.target, signed.number) {
        (0, None) => signed.call.to_owned(),
        (target, None) => format!("{} {target}", signed.call),
        (_, Some(number)) => format!("{} {number}", signed.call),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_take_the_games_in_turn_and_cycle_their_calls() {
        for (i, game) in Game::ALL.into_iter().enumerate() {
            let strategy = Strategy::for_agent(i);
            assert_eq!(strategy.game, game);
            assert_eq!(Strategy::for_agent(i + Game::ALL.len()).game, game);
            let calls = house_calls(game);
            for (n, expected) in calls.iter().cycle().take(2 * calls.len()).enumerate() {
                assert_eq!(strategy.call(u64::try_from(n).unwrap()), *expected);
            }
        }
        assert_eq!(Strategy::for_agent(0).agent_name(0), "Flip");
        let second = Game::ALL.len();
        assert_eq!(Strategy::for_agent(second).agent_name(second), "Flip II");
    }
}
