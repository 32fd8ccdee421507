//! The answers' one shape: `{"ok": value}` or `{"error": {"code", "message"}}`, the codes those
//! of the core (`invalid_receipt`, `invalid_server_seed`, …) and of the signature checks
//! (`invalid_typed_data`, `invalid_signature`, `invalid_input`).

use core::fmt::Display;

use serde_json::json;

/// A failure with a stable code and a readable message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The stable machine-readable code.
    pub code: &'static str,
    /// What a person reads.
    pub message: String,
}

impl Failure {
    /// An argument that is not of the documented shape.
    pub fn input(message: impl Display) -> Self {
        Self {
            code: "invalid_input",
            message: message.to_string(),
        }
    }
}

impl From<arcade_proofs::error::Error> for Failure {
    fn from(error: arcade_proofs::error::Error) -> Self {
        Self {
            code: error.code.as_str(),
            message: error.message,
        }
    }
}

impl From<arcade_core::ReceiptError> for Failure {
    fn from(error: arcade_core::ReceiptError) -> Self {
        Self {
            code: error.code(),
            message: error.to_string(),
        }
    }
}

/// `{"ok": json}` for an answer that is JSON text already, or the failure's envelope.
pub(crate) fn of_json(answer: Result<String, Failure>) -> String {
    match answer {
        Ok(json) => format!("{{\"ok\":{json}}}"),
        Err(failure) => failed(&failure),
    }
}

/// `{"ok": value}`, or the failure's envelope.
pub(crate) fn of_value(answer: Result<serde_json::Value, Failure>) -> String {
    match answer {
        Ok(value) => json!({ "ok": value }).to_string(),
        Err(failure) => failed(&failure),
    }
}

fn failed(failure: &Failure) -> String {
    json!({ "error": { "code": failure.code, "message": failure.message } }).to_string()
}
