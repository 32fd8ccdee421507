//! A cashout's idempotency key (the `Idempotency-Key` header of Stripe and the IETF
//! httpapi draft; `idempotency_key` over MCP): a client that lost a cashout's answer sends the
//! same request again under the same key and gets the original cashout as it stands, never a
//! second transfer. Keys are their address's own (unique per address, in the database, so
//! every instance agrees) and kept as long as the cashout: the same key with other chips is a
//! conflict, never a new cashout.

use super::error::CashoutError;
use super::receipt::CashoutReceipt;
use crate::store::entities::cashout::{self, CashoutStatus};

/// The longest key accepted, in characters (Stripe's limit).
pub const MAX_LENGTH: usize = 255;

/// A checked key: 1 to 255 visible ASCII characters. The draft's structured-field form (the
/// key in double quotes) is read as the key inside them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    pub fn parse(sent: &str) -> Result<Self, CashoutError> {
        let key = sent
            .strip_prefix('"')
            .and_then(|rest| rest.strip_suffix('"'))
            .unwrap_or(sent);
        let visible = key.bytes().all(|b| b.is_ascii_graphic() && b != b'"');
        if key.is_empty() || key.len() > MAX_LENGTH || !visible {
            return Err(CashoutError::IdempotencyKeyInvalid(format!(
                "an idempotency key is 1 to {MAX_LENGTH} visible ASCII characters (no spaces \
                 or quotes), such as a UUID; this one has {} characters",
                key.chars().count()
            )));
        }
        Ok(Self(key.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The key from the header and the one from the body (or MCP argument): either, or both when
/// they agree.
pub fn sent_key(
    header: Option<&str>,
    argument: Option<&str>,
) -> Result<Option<IdempotencyKey>, CashoutError> {
    let header = header.map(IdempotencyKey::parse).transpose()?;
    let argument = argument.map(IdempotencyKey::parse).transpose()?;
    match (header, argument) {
        (Some(header), Some(argument)) if header != argument => {
            Err(CashoutError::IdempotencyKeyInvalid(
                "the Idempotency-Key header and idempotency_key differ; send one".into(),
            ))
        }
        (header, argument) => Ok(header.or(argument)),
    }
}

/// The answer to a request under the key of `found` (the cashout opened under it, as it stands
/// now, with `receipt` its receipt): the original cashout for the same chips, else a conflict.
/// A cashout that failed answers as its first request did, with its refund.
pub fn replay(
    found: &cashout::Model,
    chips: i64,
    receipt: CashoutReceipt,
) -> Result<CashoutReceipt, CashoutError> {
    if found.chips != chips {
        return Err(CashoutError::IdempotencyKeyConflict {
            cashout_id: found.id,
            chips: found.chips,
        });
    }
    match found.status {
        CashoutStatus::Failed => Err(CashoutError::NotSent {
            chain_down: false,
            receipt: Box::new(receipt),
        }),
        CashoutStatus::Pending | CashoutStatus::Sent | CashoutStatus::Confirmed => Ok(receipt),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_visible_ascii_up_to_255() {
        for good in [
            "a",
            "8e03978e-40d5-43e8-bc93-6894a57f9324",
            &"k".repeat(255),
            "!~",
        ] {
            assert_eq!(IdempotencyKey::parse(good).unwrap().as_str(), good);
        }
        let quoted = IdempotencyKey::parse("\"8e03978e-40d5\"").unwrap();
        assert_eq!(quoted.as_str(), "8e03978e-40d5");
        for bad in [
            "",
            "\"\"",
            "a b",
            "a\0b",
            "é",
            "a\"b",
            &"k".repeat(256),
            "\t",
        ] {
            assert!(IdempotencyKey::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_header_and_the_argument_must_agree() {
        assert_eq!(sent_key(None, None).unwrap(), None);
        assert_eq!(sent_key(Some("k1"), None).unwrap().unwrap().as_str(), "k1");
        assert_eq!(sent_key(None, Some("k1")).unwrap().unwrap().as_str(), "k1");
        assert_eq!(
            sent_key(Some("k1"), Some("k1")).unwrap().unwrap().as_str(),
            "k1"
        );
        assert!(sent_key(Some("k1"), Some("k2")).is_err());
    }
}
