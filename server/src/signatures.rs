//! What a signature of an address's statement is checked against, shared by the auth
//! statement (`identity`) and sign-in-with-x (`siwx`): the statement's generations, how many
//! older ones a refused signature is tried against, how a signature reads, and why one is
//! refused.

/// Statements before the current one that a refused signature is checked against, to tell its
/// owner it was revoked (rather than not theirs).
pub const OLDER_CHECKED: usize = 2;

/// One generation of an address's statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generation {
    pub number: i64,
    pub nonce: String,
    /// Unix milliseconds.
    pub issued_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("a signature of the auth statement is required")]
    Required,
    #[error("the signature is not a valid 65-byte hex signature of the auth statement: {0}")]
    Invalid(String),
    #[error(
        "the signature does not sign the current auth statement of {claimed} (against it, it recovers to {recovered}); sign the current statement"
    )]
    Mismatch { claimed: String, recovered: String },
    #[error(
        "this signature is of an older auth statement of {0}, which its owner has revoked by rotating; sign the current statement"
    )]
    Revoked(String),
    #[error("the SIGN-IN-WITH-X proof is not for this deployment: {0}")]
    Foreign(String),
    #[error("the SIGN-IN-WITH-X proof is outside its window: {0}; sign a fresh challenge")]
    OutOfWindow(String),
}

impl crate::refusal::Refusal for SignatureError {
    fn kind(&self) -> crate::refusal::ErrorKind {
        use crate::refusal::{
            SIGNATURE_INVALID, SIGNATURE_MISMATCH, SIGNATURE_REQUIRED, SIGNATURE_REVOKED,
        };
        match self {
            Self::Required => SIGNATURE_REQUIRED,
            Self::Invalid(_) => SIGNATURE_INVALID,
            Self::Mismatch { .. } | Self::Foreign(_) => SIGNATURE_MISMATCH,
            Self::Revoked(_) | Self::OutOfWindow(_) => SIGNATURE_REVOKED,
        }
    }
}

pub fn decode_signature(text: &str) -> Result<[u8; 65], SignatureError> {
    let hex = text.strip_prefix("0x").unwrap_or(text);
    let bytes = alloy::hex::decode(hex).map_err(|e| SignatureError::Invalid(e.to_string()))?;
    <[u8; 65]>::try_from(bytes.as_slice())
        .map_err(|_| SignatureError::Invalid(format!("expected 65 bytes, got {}", bytes.len())))
}
