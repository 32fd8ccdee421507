//! RPC failures as [`ChainError`]s that are safe to show. An RPC URL often carries an API key
//! (`https://base.example/v2/<key>`), and the HTTP client's errors name the URL they failed on;
//! these messages end up in 503 bodies, in a cashout's `error`, in MCP output and in logs. So a
//! transport failure is described by its kind only, and anything URL-like in a node's own
//! message is cut out.

use crate::telemetry::metrics;
use alloy::transports::{RpcError, TransportErrorKind};

use super::{ChainError, Refusal, RefusalKind};

/// A node's error answer is a refusal; anything else means the RPC did not really answer.
pub(crate) fn rpc_error(error: RpcError<TransportErrorKind>) -> ChainError {
    let error = chain_error(error);
    metrics::rpc_error(match error {
        ChainError::Unavailable(_) => "unavailable",
        ChainError::Refused(_) => "refused",
    });
    error
}

fn chain_error(error: RpcError<TransportErrorKind>) -> ChainError {
    match error {
        RpcError::ErrorResp(payload) => ChainError::Refused(refusal(&payload.message)),
        RpcError::Transport(kind) => ChainError::Unavailable(transport_failure(&kind)),
        RpcError::NullResp => ChainError::Unavailable("the RPC answered null".into()),
        RpcError::DeserError { .. } | RpcError::SerError(_) => {
            ChainError::Unavailable("the RPC's answer could not be read".into())
        }
        RpcError::UnsupportedFeature(feature) => {
            ChainError::Unavailable(format!("the RPC does not support {feature}"))
        }
        RpcError::LocalUsageError(_) => {
            ChainError::Unavailable("the request to the RPC could not be made".into())
        }
    }
}

pub(crate) fn contract_error(error: alloy::contract::Error) -> ChainError {
    match error {
        alloy::contract::Error::TransportError(error) => rpc_error(error),
        other => {
            metrics::rpc_error("refused");
            ChainError::Refused(refusal(&other.to_string()))
        }
    }
}

fn transport_failure(kind: &TransportErrorKind) -> String {
    let reqwest_error = match kind {
        TransportErrorKind::Custom(inner) | TransportErrorKind::NonRetryable(inner) => {
            inner.downcast_ref::<reqwest::Error>()
        }
        TransportErrorKind::HttpError(http) => {
            return format!("the RPC answered HTTP {}", http.status);
        }
        TransportErrorKind::HttpErrorWithRetryAfter { error, .. } => {
            return format!("the RPC answered HTTP {}", error.status);
        }
        _ => None,
    };
    match reqwest_error {
        Some(error) if error.is_timeout() => "the RPC did not answer in time",
        Some(error) if error.is_connect() => "the RPC could not be connected to",
        Some(error) if error.is_body() || error.is_decode() => {
            "the RPC's answer was cut off or unreadable"
        }
        _ => "the RPC could not be reached",
    }
    .into()
}

/// A node's refusal, classified by its message (the test dollar and USDC word their reverts
/// alike; nodes word a transaction they cannot pay gas for alike).
pub(crate) fn refusal(message: &str) -> Refusal {
    let lower = message.to_ascii_lowercase();
    let kind = if lower.contains("exceeds balance") {
        RefusalKind::InsufficientBalance
    } else if lower.contains("used or canceled") {
        RefusalKind::AuthorizationUsed
    } else if lower.contains("authorization is expired") {
        RefusalKind::AuthorizationExpired
    } else if lower.contains("not yet valid") {
        RefusalKind::AuthorizationNotYetValid
    } else if lower.contains("invalid signature") {
        RefusalKind::InvalidSignature
    } else if lower.contains("insufficient funds for gas") || lower.contains("insufficient funds") {
        RefusalKind::InsufficientGas
    } else {
        RefusalKind::Other
    };
    Refusal {
        kind,
        message: without_urls(message),
    }
}

/// The text with every `scheme://…` word replaced by `[url]`.
fn without_urls(text: &str) -> String {
    text.split(' ')
        .map(|word| if word.contains("://") { "[url]" } else { word })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_in_node_messages_are_cut_out() {
        assert_eq!(
            without_urls("execution reverted at https://rpc.example/v2/SECRETKEY (see docs)"),
            "execution reverted at [url] (see docs)"
        );
        assert_eq!(without_urls("nonce too low"), "nonce too low");
    }

    #[test]
    fn reverts_are_classified_by_their_words() {
        let kind = |message: &str| refusal(message).kind;
        assert_eq!(
            kind("execution reverted: TestDollar: transfer amount exceeds balance"),
            RefusalKind::InsufficientBalance
        );
        assert_eq!(
            kind("execution reverted: FiatTokenV2: authorization is used or canceled"),
            RefusalKind::AuthorizationUsed
        );
        assert_eq!(
            kind("execution reverted: TestDollar: authorization is expired"),
            RefusalKind::AuthorizationExpired
        );
        assert_eq!(
            kind("insufficient funds for gas * price + value"),
            RefusalKind::InsufficientGas
        );
        assert_eq!(kind("nonce too low"), RefusalKind::Other);
    }

    #[test]
    fn http_errors_name_their_status_only() {
        let error = TransportErrorKind::http_error(401, "invalid key SECRETKEY".into());
        let shown = rpc_error(error).to_string();
        assert_eq!(
            shown,
            "the chain RPC did not answer: the RPC answered HTTP 401"
        );
    }
}
