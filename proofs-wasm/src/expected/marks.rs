//! The house's signed marks (docs/proofs.md, "Signed marks"), as a verifier reads them from the
//! manifest's `signed_marks`: which bets must carry proofs, and which sign `house_agent`.

use serde_json::{Value, json};

use super::read::unsigned;
use crate::error::Error;

/// `{signed_from, house_agent_signed_from}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marks {
    /// Every receipt with `bet_id` at or above it must carry its proofs.
    pub signed_from: u64,
    /// Every receipt with `bet_id` at or above it is signed with the `Receipt` type that ends
    /// with `bool house_agent`.
    pub house_agent_signed_from: u64,
}

impl Marks {
    /// The marks of `{signed_from, house_agent_signed_from, …}` (the manifest's `signed_marks`
    /// as it is; other members are ignored).
    pub fn from_json(marks: &Value) -> Result<Self, Error> {
        if !marks.is_object() {
            return Err(Error::input(
                "the marks are not an object ({signed_from, house_agent_signed_from})",
            ));
        }
        let read = |name: &str| unsigned(marks, name).map_err(|e| e.at("marks"));
        let read = Self {
            signed_from: read("signed_from")?,
            house_agent_signed_from: read("house_agent_signed_from")?,
        };
        // As the house keeps them: bet ids start at 1, and a receipt that signs `house_agent`
        // carries its proofs. Marks out of that order are not the house's.
        if read.signed_from < 1 || read.house_agent_signed_from < read.signed_from {
            return Err(Error::input(format!(
                "the marks are out of order: signed_from {} must be at least 1 and at most house_agent_signed_from {}",
                read.signed_from, read.house_agent_signed_from
            )));
        }
        Ok(read)
    }

    /// The `SignedMarks` message these marks are signed as.
    pub fn message(self) -> Value {
        json!({
            "signed_from": self.signed_from,
            "house_agent_signed_from": self.house_agent_signed_from,
        })
    }
}

/// The `SignedMarks` message of an answer that publishes the marks (the manifest, the x402
/// discovery document, the games listing), or of its `signed_marks` member itself.
pub fn signed_marks_message(answer: &Value) -> Result<Value, Error> {
    let marks = match answer.get("signed_marks") {
        Some(marks) if !marks.is_null() => marks,
        _ if answer.get("signed_from").is_some() => answer,
        _ => {
            return Err(Error::input(
                "signed_marks is missing: the answer publishes no signed marks",
            ));
        }
    };
    Ok(Marks::from_json(marks)?.message())
}
