//! Why a play was refused or failed, and the row of the error table each refusal is.

use arcade_core::LimitError;

use crate::proofs::play::PlaySignatureError;
use crate::service::auth::AuthError;
use crate::service::error::{ServiceError, wraps_service_error};
use crate::service::seeds::error::SeedBatchError;

/// Why a play was refused or failed; a refused play changed nothing.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error("no round {0}")]
    RoundNotFound(String),
    #[error("round {0} expired unplayed (no chips were taken); commit a new one")]
    RoundExpired(String),
    #[error("round {round_id} has already been played{}", match .bet_id { Some(id) => format!(" by another call (bet {id}); a repeat of that call gets its receipt"), None => String::new() })]
    RoundSpent {
        round_id: String,
        /// The bet that settled it, if it settled.
        bet_id: Option<i64>,
    },
    #[error("round {0} was opened by another address")]
    RoundNotYours(String),
    #[error("{balance} chips cannot cover a wager of {wager}")]
    InsufficientChips { balance: i64, wager: u64 },
    /// The books have not matched the chain since this process started (a restored copy may
    /// hold chips already paid out).
    #[error(
        "the books are matching the house's transactions on the chain ({0} not matched yet, as after a restore of the database); nothing was taken, try again shortly"
    )]
    BooksBehind(u64),
    #[error(transparent)]
    Limit(#[from] LimitError),
    #[error(transparent)]
    PlaySignature(#[from] PlaySignatureError),
    #[error(transparent)]
    Auth(#[from] AuthError),
    #[error(transparent)]
    SeedBatch(#[from] SeedBatchError),
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl crate::refusal::Refusal for PlayError {
    fn kind(&self) -> crate::refusal::ErrorKind {
        match self {
            Self::RoundNotFound(_) => crate::refusal::ROUND_NOT_FOUND,
            Self::RoundExpired(_) => crate::refusal::ROUND_EXPIRED,
            Self::RoundSpent { .. } => crate::refusal::ROUND_SPENT,
            Self::RoundNotYours(_) => crate::refusal::ROUND_NOT_YOURS,
            Self::InsufficientChips { .. } => crate::refusal::INSUFFICIENT_CHIPS,
            Self::BooksBehind(_) => crate::refusal::BOOKS_BEHIND,
            Self::Limit(refused) => refused.kind(),
            Self::PlaySignature(refused) => refused.kind(),
            Self::Auth(refused) => refused.kind(),
            Self::SeedBatch(refused) => refused.kind(),
            Self::Service(failed) => failed.kind(),
        }
    }

    fn details(&self) -> serde_json::Map<String, serde_json::Value> {
        match self {
            Self::InsufficientChips { balance, wager } => {
                crate::refusal::fields([("balance", (*balance).into()), ("wager", (*wager).into())])
            }
            Self::RoundSpent {
                bet_id: Some(bet_id),
                ..
            } => crate::refusal::fields([("bet_id", (*bet_id).into())]),
            Self::Limit(refused) => refused.details(),
            _ => serde_json::Map::new(),
        }
    }

    fn retry_after_s(&self) -> Option<u64> {
        match self {
            Self::BooksBehind(_) => Some(crate::refusal::DATABASE_RETRY_AFTER_S),
            Self::Auth(refused) => refused.retry_after_s(),
            Self::SeedBatch(refused) => refused.retry_after_s(),
            Self::Service(failed) => failed.retry_after_s(),
            _ => None,
        }
    }
}

wraps_service_error!(PlayError);
