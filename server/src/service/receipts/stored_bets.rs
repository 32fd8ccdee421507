//! Stored bets read back as their game reads them: the call and result kept as JSON text.

use arcade_core::wire::ParamsInput;
use arcade_core::{Call, ClaimedResult, GameResult};

use crate::service::error::ServiceError;
use crate::store::entities::bet;

/// A stored bet's call and result, read back from their JSON text as its game reads them. A
/// row the core cannot read (the database was changed by hand) is an internal error that names
/// the bet.
pub(in crate::service) fn stored_call(
    bet: &bet::Model,
) -> Result<(Call, GameResult), ServiceError> {
    let unreadable = |why: String| {
        ServiceError::internal(UnreadableBet {
            bet_id: bet.id,
            why,
        })
    };
    let params: ParamsInput =
        serde_json::from_str(&bet.params).map_err(|e| unreadable(format!("params: {e}")))?;
    let call = params
        .to_call(bet.game.0)
        .map_err(|e| unreadable(format!("params: {e}")))?;
    let claimed: ClaimedResult =
        serde_json::from_str(&bet.result).map_err(|e| unreadable(format!("result: {e}")))?;
    let result = claimed
        .result_for(&call)
        .map_err(|e| unreadable(format!("result: {e}")))?;
    Ok((call, result))
}

/// A stored bet whose call or result its game cannot read.
#[derive(Debug, thiserror::Error)]
#[error("the stored bet {bet_id} cannot be read: {why}")]
struct UnreadableBet {
    bet_id: i64,
    why: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::entities::bet::BetGame;
    use arcade_core::Game;

    fn roulette_bet(result: &str) -> bet::Model {
        bet::Model {
            id: 42,
            round_id: "r".into(),
            address: "a".into(),
            game: BetGame(Game::Roulette),
            client_seed: "c".into(),
            nonce: 0,
            wager: 3,
            params: r#"{"bet":"red","number":null}"#.into(),
            result: result.into(),
            won: false,
            payout: 0,
            profit: -3,
            settled_at: 6,
            receipt_signature: None,
            commitment: "m".into(),
            committed_at: 5,
            free_wagered: 0,
            free_paid: 0,
            house_agent: Some(false),
            play_signature: None,
        }
    }

    #[test]
    fn a_stored_result_reads_back_as_its_game_reads_it() {
        let (call, result) = stored_call(&roulette_bet(r#"{"pocket":3,"color":"red"}"#)).unwrap();
        assert_eq!(call.game(), Game::Roulette);
        assert_eq!(result.signed_outcome(), 3);
    }

    /// A row changed by hand is refused by name, never shown as another result.
    #[test]
    fn a_stored_result_its_game_cannot_read_names_the_bet() {
        for result in [r#"{"pocket":37}"#, "{}", "not json"] {
            let error = stored_call(&roulette_bet(result)).unwrap_err();
            let shown = match error {
                ServiceError::Internal(inner) => inner.to_string(),
                other => panic!("{result}: {other:?}"),
            };
            assert!(
                shown.starts_with("the stored bet 42 cannot be read: result"),
                "{shown}"
            );
        }
    }
}
