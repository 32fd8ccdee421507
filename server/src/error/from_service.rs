//! Each service area's domain error as the edge answers it: one `From` per area, so the REST
//! and MCP edges reach an `ApiError` through `?`. The status, code and detail of each answer
//! come from the `ApiError` variant chosen here.

use super::ApiError;
use crate::service::auth::AuthError;
use crate::service::cashouts::CashoutError;
use crate::service::error::ServiceError;
use crate::service::play::PlayError;
use crate::service::purchases::PurchaseError;
use crate::service::receipts::ReceiptError;
use crate::service::rounds::RoundError;
use crate::service::seed_batches::SeedBatchError;
use crate::service::wallets::WalletError;

impl From<ServiceError> for ApiError {
    fn from(error: ServiceError) -> Self {
        match error {
            ServiceError::Internal(cause) => Self::from_cause(cause),
            ServiceError::DatabaseUnavailable(cause) => Self::DatabaseUnavailable(cause),
            ServiceError::ChainUnavailable(why) => Self::ChainUnavailable(why),
            ServiceError::PaymentsUnavailable => Self::PaymentsUnavailable,
            ServiceError::RateLimited(limited) => Self::RateLimited(limited),
        }
    }
}

impl From<AuthError> for ApiError {
    fn from(error: AuthError) -> Self {
        match error {
            AuthError::Signature(signature) => Self::Signature(signature),
            AuthError::Service(error) => error.into(),
        }
    }
}

impl From<SeedBatchError> for ApiError {
    fn from(error: SeedBatchError) -> Self {
        match error {
            SeedBatchError::NotFound(batch_id) => Self::SeedBatchNotFound(batch_id),
            SeedBatchError::NoRow { batch_id, index } => Self::SeedRowNotFound { batch_id, index },
            SeedBatchError::Service(error) => error.into(),
        }
    }
}

impl From<WalletError> for ApiError {
    fn from(error: WalletError) -> Self {
        match error {
            WalletError::FreeAlreadyClaimed(address) => Self::FreeAlreadyClaimed(address),
            WalletError::Auth(error) => error.into(),
            WalletError::Service(error) => error.into(),
        }
    }
}

impl From<RoundError> for ApiError {
    fn from(error: RoundError) -> Self {
        match error {
            RoundError::TooManyOpenRounds { max } => Self::TooManyOpenRounds { max },
            RoundError::NotFound(round_id) => Self::RoundNotFound(round_id),
            RoundError::Auth(error) => error.into(),
            RoundError::SeedBatch(error) => error.into(),
            RoundError::Service(error) => error.into(),
        }
    }
}

impl From<PlayError> for ApiError {
    fn from(error: PlayError) -> Self {
        match error {
            PlayError::RoundNotFound(round_id) => Self::RoundNotFound(round_id),
            PlayError::RoundExpired(round_id) => Self::RoundExpired(round_id),
            PlayError::RoundSpent { round_id, bet_id } => Self::RoundSpent { round_id, bet_id },
            PlayError::RoundNotYours(round_id) => Self::RoundNotYours(round_id),
            PlayError::InsufficientChips { balance, wager } => {
                Self::InsufficientChips { balance, wager }
            }
            PlayError::BooksBehind(behind) => Self::BooksBehind(behind),
            PlayError::Limit(limit) => Self::Limit(limit),
            PlayError::PlaySignature(signature) => Self::PlaySignature(signature),
            PlayError::Auth(error) => error.into(),
            PlayError::SeedBatch(error) => error.into(),
            PlayError::Service(error) => error.into(),
        }
    }
}

impl From<ReceiptError> for ApiError {
    fn from(error: ReceiptError) -> Self {
        match error {
            ReceiptError::BetNotFound(bet_id) => Self::BetNotFound(bet_id),
            ReceiptError::SeedBatch(error) => error.into(),
            ReceiptError::Service(error) => error.into(),
        }
    }
}

impl From<CashoutError> for ApiError {
    fn from(error: CashoutError) -> Self {
        match error {
            CashoutError::BuyInRequired(address) => Self::BuyInRequired(address),
            CashoutError::AboveBalance { balance, chips } => {
                Self::CashoutAboveBalance { balance, chips }
            }
            CashoutError::ExceedsCashable {
                chips,
                cashable,
                balance,
            } => Self::CashoutExceedsCashable {
                chips,
                cashable,
                balance,
            },
            CashoutError::NotFound(id) => Self::CashoutNotFound(id),
            refusal @ CashoutError::IdempotencyKeyInvalid(_) => {
                Self::IdempotencyKeyInvalid(refusal.to_string())
            }
            refusal @ CashoutError::IdempotencyKeyConflict { .. } => {
                Self::IdempotencyKeyConflict(refusal.to_string())
            }
            CashoutError::NotSent {
                chain_down,
                receipt,
            } => Self::CashoutNotSent {
                chain_down,
                receipt,
            },
            CashoutError::HouseUnderfunded(why) => Self::HouseUnderfunded(why),
            CashoutError::BooksBehind(behind) => Self::BooksBehind(behind),
            CashoutError::Auth(error) => error.into(),
            CashoutError::Service(error) => error.into(),
        }
    }
}

impl From<PurchaseError> for ApiError {
    /// Outside a purchase request (the offer is not at hand), a purchase error has no 402 to
    /// answer with: only its failures apply.
    fn from(error: PurchaseError) -> Self {
        ServiceError::from(error).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::SignatureError;
    use crate::rate_limits::RateLimited;

    fn answer(error: impl Into<ApiError>) -> (u16, &'static str, String) {
        let error = error.into();
        (error.kind().status, error.code(), error.to_string())
    }

    /// Each area's refusals answer with the status, code and detail the edge gave them before
    /// the areas had their own errors.
    #[test]
    fn area_refusals_keep_their_answers() {
        let spent = PlayError::RoundSpent {
            round_id: "r_1".into(),
            bet_id: Some(7),
        };
        let spent_detail = "round r_1 has already been played by another call (bet 7); a repeat of that call gets its receipt";
        assert_eq!(answer(spent), (409, "round_spent", spent_detail.into()));
        let short = PlayError::InsufficientChips {
            balance: 3,
            wager: 5,
        };
        let short_detail = "3 chips cannot cover a wager of 5";
        assert_eq!(
            answer(short),
            (400, "insufficient_chips", short_detail.into())
        );
        let mismatch = SignatureError::Mismatch {
            claimed: "a".into(),
            recovered: "b".into(),
        };
        let (status, code, _) = answer(WalletError::Auth(AuthError::Signature(mismatch)));
        assert_eq!((status, code), (403, "signature_mismatch"));
        let cap = answer(RoundError::TooManyOpenRounds { max: 4 });
        assert_eq!((cap.0, cap.1), (429, "too_many_open_rounds"));
        let (status, code, _) = answer(ReceiptError::SeedBatch(SeedBatchError::NotFound(2)));
        assert_eq!((status, code), (404, "seed_batch_not_found"));
        let (status, code, _) = answer(CashoutError::HouseUnderfunded("low".into()));
        assert_eq!((status, code), (503, "house_underfunded"));
    }

    /// The shared failures answer the same from every area.
    #[test]
    fn shared_failures_answer_alike_from_every_area() {
        let limited = || ServiceError::RateLimited(RateLimited { retry_after_s: 2 });
        let down = || ServiceError::ChainUnavailable("no answer".into());
        let chain_detail =
            "the chain cannot be reached; nothing was charged or credited (no answer)";
        for (status, code, detail) in [
            answer(PlayError::from(limited())),
            answer(CashoutError::from(limited())),
            answer(AuthError::from(limited())),
        ] {
            assert_eq!((status, code), (429, "rate_limited"), "{detail}");
        }
        assert_eq!(answer(CashoutError::from(down())).2, chain_detail);
        assert_eq!(answer(RoundError::from(down())).1, "chain_unavailable");
        let internal = answer(PlayError::from(ServiceError::internal(std::fmt::Error)));
        assert_eq!(internal, (500, "internal", "internal error".into()));
        let no_chain = answer(CashoutError::from(PurchaseError::Unavailable));
        assert_eq!((no_chain.0, no_chain.1), (503, "payments_unavailable"));
    }
}
