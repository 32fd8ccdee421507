//! Each area's refusals and failures answered as the edge answers them: the status, code and
//! detail a client reads, whichever area (and however nested) the error came from.

use arcade_core::CallError;

use super::ApiError;
use crate::service::auth::AuthError;
use crate::service::cashouts::CashoutError;
use crate::service::error::ServiceError;
use crate::service::plays::PlayError;
use crate::service::purchases::PurchaseError;
use crate::service::receipts::ReceiptError;
use crate::service::rounds::RoundError;
use crate::service::seeds::SeedBatchError;
use crate::service::wallets::WalletError;

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
    let chain_detail = "the chain cannot be reached; nothing was charged or credited (no answer)";
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
    let no_chain = answer(CashoutError::from(PurchaseError::from(
        ServiceError::PaymentsUnavailable,
    )));
    assert_eq!((no_chain.0, no_chain.1), (503, "payments_unavailable"));
}

#[test]
fn a_call_outside_its_game_is_a_422_at_its_field() {
    let call = ApiError::from(CallError::RouletteNumberRequired);
    assert_eq!(call.kind(), crate::refusal::VALIDATION);
    assert_eq!(
        call.body()["detail"][0]["loc"],
        serde_json::json!(["body", "number"])
    );
}

/// A purchase's failure answers as the failure it is however it reaches the edge: through
/// the 402's builder or through `?`: a database outage met while deciding a payment is a 503
/// with Retry-After, never a 500 and never a 402 without its challenge.
#[test]
fn a_purchase_failure_answers_as_the_failure_it_is() {
    use crate::store::DbErr;
    use sea_orm::{RuntimeErr, sqlx};

    #[derive(Debug, thiserror::Error)]
    #[error("deciding a payment")]
    struct Deciding(#[source] DbErr);
    let outage = || {
        let cut = std::io::Error::from(std::io::ErrorKind::ConnectionReset);
        DbErr::Query(RuntimeErr::SqlxError(sqlx::Error::Io(cut).into()))
    };
    for error in [
        ApiError::from(PurchaseError::from(outage())),
        ApiError::from(PurchaseError::internal(Deciding(outage()))),
    ] {
        assert_eq!(error.code(), "database_unavailable");
        assert_eq!(
            error.retry_after_s(),
            Some(crate::refusal::DATABASE_RETRY_AFTER_S)
        );
        assert!(!matches!(error, ApiError::PaymentRequired(_)));
    }
    let defect = ApiError::from(PurchaseError::internal(std::fmt::Error));
    assert_eq!(
        (defect.code(), defect.to_string().as_str()),
        ("internal", "internal error")
    );
}
