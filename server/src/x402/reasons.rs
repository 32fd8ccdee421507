//! The x402 error reasons a facilitator's answer may name. A facilitator's words never reach a
//! buyer: its reason is passed on only as one of these fixed strings (matched, never copied),
//! and its messages and bodies are logged, not shown.

/// x402's own reasons (the protocol's `ErrorReasons`), this server's `exact`-on-EVM ones, and
/// those x402-rs's facilitator answers with.
const KNOWN: [&str; 35] = [
    // x402
    "insufficient_funds",
    "invalid_exact_evm_payload_authorization_valid_after",
    "invalid_exact_evm_payload_authorization_valid_before",
    "invalid_exact_evm_payload_authorization_value",
    "invalid_exact_evm_payload_signature",
    "invalid_exact_evm_payload_recipient_mismatch",
    "invalid_network",
    "invalid_payload",
    "invalid_payment_requirements",
    "invalid_scheme",
    "invalid_payment",
    "payment_expired",
    "unsupported_scheme",
    "invalid_x402_version",
    "invalid_transaction_state",
    "unexpected_verify_error",
    "unexpected_settle_error",
    // this server's
    "invalid_exact_evm_nonce_already_used",
    "invalid_exact_evm_payload_authorization_value_mismatch",
    "invalid_exact_evm_transaction_failed",
    "invalid_exact_evm_transaction_simulation_failed",
    "settlement_pending",
    // x402-rs
    "invalid_format",
    "invalid_payment_amount",
    "invalid_payment_early",
    "invalid_payment_expired",
    "chain_id_mismatch",
    "recipient_mismatch",
    "asset_mismatch",
    "accepted_requirements_mismatch",
    "invalid_signature",
    "transaction_simulation",
    "permit2_allowance_required",
    "unsupported_chain",
    "unexpected_error",
];

/// The fixed string for a facilitator's `reason`, if it is one of [`KNOWN`].
pub fn known(reason: Option<&str>) -> Option<&'static str> {
    let reason = reason?;
    KNOWN.into_iter().find(|known| *known == reason)
}

/// A facilitator's text for the logs: at most 200 characters, on one line.
pub fn for_log(text: &str) -> String {
    text.chars()
        .take(200)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_known_reason_passes_and_as_the_servers_own_string() {
        assert_eq!(
            known(Some("insufficient_funds")),
            Some("insufficient_funds")
        );
        assert_eq!(known(Some("invalid_signature")), Some("invalid_signature"));
        for foreign in [
            "",
            "Insufficient_Funds",
            "insufficient_funds ",
            "<script>",
            "x".repeat(10_000).as_str(),
        ] {
            assert_eq!(known(Some(foreign)), None, "{foreign:.20}");
        }
        assert_eq!(known(None), None);
        let mut sorted = KNOWN.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), KNOWN.len(), "each once");
    }

    #[test]
    fn logged_text_is_one_short_line() {
        assert_eq!(for_log("a\nb\rc"), "a b c");
        assert_eq!(for_log(&"é".repeat(500)).chars().count(), 200);
    }
}
