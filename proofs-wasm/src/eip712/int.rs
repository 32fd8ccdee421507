//! Integers as EIP-712 takes them (JSON numbers, decimal or `0x` hex strings) and their ABI
//! words as `uintN` / `intN`.

use serde_json::Value;

use super::hex::nibble;
use super::{quote, show};
use crate::error::Error;

/// An integer of at most 256 bits of magnitude, with its sign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Int {
    /// Negative (never set for zero).
    pub negative: bool,
    /// Big-endian magnitude.
    pub magnitude: [u8; 32],
}

impl Int {
    /// From a JSON number (an integer, safe in JS if it is a float) or a decimal / `0x` hex
    /// string with an optional `-`.
    pub fn from_json(value: &Value) -> Result<Self, Error> {
        match value {
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    Ok(Self::from_u64(u, false))
                } else if let Some(i) = n.as_i64() {
                    Ok(Self::from_u64(i.unsigned_abs(), i < 0))
                } else {
                    // A float: only integers JS holds exactly (larger ones lost digits already).
                    Err(Error::typed_data(format!(
                        "{n} is not an integer below 2^64 (give large integers as decimal strings)"
                    )))
                }
            }
            Value::String(s) => Self::parse(s),
            other => Err(Error::typed_data(format!(
                "{} is not an integer (a number or a decimal string)",
                show(other)
            ))),
        }
    }

    fn from_u64(u: u64, negative: bool) -> Self {
        let mut magnitude = [0u8; 32];
        magnitude[24..].copy_from_slice(&u.to_be_bytes());
        Self {
            negative: negative && u != 0,
            magnitude,
        }
    }

    /// Decimal or `0x` hex, with an optional leading `-`.
    pub fn parse(text: &str) -> Result<Self, Error> {
        let bad = || Error::typed_data(format!("{} is not an integer", quote(text)));
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (radix, digits) = match rest.strip_prefix("0x").or_else(|| rest.strip_prefix("0X")) {
            Some(hex) => (16u8, hex),
            None => (10u8, rest),
        };
        if digits.is_empty() {
            return Err(bad());
        }
        let mut magnitude = [0u8; 32];
        for c in digits.bytes() {
            let d = nibble(c).filter(|d| *d < radix).ok_or_else(bad)?;
            let mut carry = u16::from(d);
            for byte in magnitude.iter_mut().rev() {
                let v = u16::from(*byte) * u16::from(radix) + carry;
                let [lo, hi] = v.to_le_bytes();
                *byte = lo;
                carry = u16::from(hi);
            }
            if carry != 0 {
                return Err(Error::typed_data(format!(
                    "{} does not fit in 256 bits",
                    quote(text)
                )));
            }
        }
        let zero = magnitude == [0u8; 32];
        Ok(Self {
            negative: negative && !zero,
            magnitude,
        })
    }

    /// Bits needed for the magnitude.
    fn bit_len(&self) -> u32 {
        match self.magnitude.iter().position(|b| *b != 0) {
            None => 0,
            Some(i) => {
                let bytes_after = u32::try_from(31 - i).unwrap_or(0);
                bytes_after * 8 + (8 - self.magnitude[i].leading_zeros())
            }
        }
    }

    fn is_power_of_two(&self) -> bool {
        self.magnitude.iter().map(|b| b.count_ones()).sum::<u32>() == 1
    }

    /// The 32-byte ABI word of this value as `uintN` / `intN`, after checking its range.
    pub fn encode(&self, signed: bool, bits: u32) -> Result<[u8; 32], Error> {
        let kind = if signed { "int" } else { "uint" };
        let fits = if !signed {
            !self.negative && self.bit_len() <= bits
        } else if self.negative {
            self.bit_len() < bits || (self.bit_len() == bits && self.is_power_of_two())
        } else {
            self.bit_len() < bits
        };
        if !fits {
            return Err(Error::typed_data(format!("out of range for {kind}{bits}")));
        }
        let mut word = self.magnitude;
        if self.negative {
            // Two's complement: invert, add one.
            for b in &mut word {
                *b = !*b;
            }
            for b in word.iter_mut().rev() {
                let (sum, overflow) = b.overflowing_add(1);
                *b = sum;
                if !overflow {
                    break;
                }
            }
        }
        Ok(word)
    }
}

/// `(signed, bits)` of `uintN` / `intN` (`uint` and `int` are 256 bits).
pub fn int_type(kind: &str) -> Option<(bool, u32)> {
    let (signed, size) = if let Some(size) = kind.strip_prefix("uint") {
        (false, size)
    } else {
        (true, kind.strip_prefix("int")?)
    };
    if size.is_empty() {
        return Some((signed, 256));
    }
    let bits: u32 = size.parse().ok()?;
    ((8..=256).contains(&bits) && bits.is_multiple_of(8) && !size.starts_with('0'))
        .then_some((signed, bits))
}
