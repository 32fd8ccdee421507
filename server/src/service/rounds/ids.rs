//! The ids the house gives rounds: `r_` and 32 lowercase hexadecimal digits (16 random bytes).
//! A text that is not of this form names no round, and is refused before it reaches a query:
//! a play writes its round id into a statement shared with other players' plays, so one
//! malformed id (a NUL, which PostgreSQL refuses in text) must never get that far.

use crate::service::error::ServiceError;
use crate::service::randomness::random_bytes;

const PREFIX: &str = "r_";
/// Random bytes in a round id.
const RANDOM_BYTES: usize = 16;

/// A fresh round id.
pub fn new_round_id() -> Result<String, ServiceError> {
    Ok(format!(
        "{PREFIX}{}",
        alloy::hex::encode(random_bytes::<RANDOM_BYTES>()?)
    ))
}

/// Whether `text` has the form of an id the house issues (it may still name no round).
pub fn is_issued_form(text: &str) -> bool {
    text.strip_prefix(PREFIX).is_some_and(|digits| {
        digits.len() == 2 * RANDOM_BYTES
            && digits
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issued_ids_have_the_issued_form() {
        for _ in 0..64 {
            assert!(is_issued_form(&new_round_id().unwrap()));
        }
    }

    #[test]
    fn other_texts_do_not() {
        let good = "r_5b71c2d09e3f4a1b8c7d6e5f4a3b2c1d";
        assert!(is_issued_form(good));
        for bad in [
            "",
            "r_",
            "r",
            "5b71c2d09e3f4a1b8c7d6e5f4a3b2c1d",
            "r_5b71c2d09e3f4a1b8c7d6e5f4a3b2c1",
            "r_5b71c2d09e3f4a1b8c7d6e5f4a3b2c1d0",
            "r_5B71C2D09E3F4A1B8C7D6E5F4A3B2C1D",
            "r_5b71c2d09e3f4a1b8c7d6e5f4a3b2c\0d",
            "R_5b71c2d09e3f4a1b8c7d6e5f4a3b2c1d",
            "r_5b71c2d09e3f4a1b8c7d6e5f4a3b2c1g",
            "r_5b71c2d09e3f4a1b8c7d6e5f4a3b2cé",
        ] {
            assert!(!is_issued_form(bad), "{bad:?}");
        }
    }
}
