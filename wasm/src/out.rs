//! Writing an answer: its texts back to back in one string, and its numbers (the end of each
//! text, in UTF-16 code units, and the values that are numbers in the report) in [`NUMBERS`],
//! which the glue reads through a `Float64Array` on the module's memory. Nothing is parsed on
//! the other side: the glue slices the string and reads the numbers.

use alloc::string::{String, ToString};
use core::sync::atomic::{AtomicU64, Ordering};

use crate::input::Invalid;

/// The largest integer a JavaScript number holds exactly.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Slots of [`NUMBERS`]: 7 numbers and at most 10 + 2 + 4 × 8 text ends (a dice receipt with
/// every field it can claim wrong) fit.
pub const SLOTS: usize = 64;

/// The numbers of the last answer, as f64 bits.
pub static NUMBERS: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];

/// An answer being written: numbers in slots from 0, text ends in slots from `first_text`.
pub struct Out {
    text: String,
    units: usize,
    slot: usize,
}

impl Out {
    /// An answer whose text ends go in slots `first_text..`.
    pub fn new(first_text: usize) -> Self {
        Self {
            text: String::with_capacity(384),
            units: 0,
            slot: first_text,
        }
    }

    /// Number slot `slot`.
    pub fn number(slot: usize, n: f64) {
        if let Some(cell) = NUMBERS.get(slot) {
            cell.store(n.to_bits(), Ordering::Relaxed);
        }
    }

    /// A count or a small integer in slot `slot`.
    pub fn count(slot: usize, n: u32) {
        Self::number(slot, f64::from(n));
    }

    /// An amount in slot `slot`, refused past 2^53 - 1 (it would not be exact in JavaScript).
    pub fn amount(slot: usize, n: u64) -> Result<(), Invalid> {
        if n > MAX_SAFE_INTEGER {
            return Err(unsafe_number(&n.to_string()));
        }
        Self::number(slot, n as f64);
        Ok(())
    }

    /// A signed amount in slot `slot` (see [`Out::amount`]).
    pub fn signed_amount(slot: usize, n: i64) -> Result<(), Invalid> {
        if n.unsigned_abs() > MAX_SAFE_INTEGER {
            return Err(unsafe_number(&n.to_string()));
        }
        Self::number(slot, n as f64);
        Ok(())
    }

    /// A text.
    pub fn text(&mut self, text: &str) {
        self.text.push_str(text);
        self.units += utf16_len(text);
        self.end_text();
    }

    /// An integer as decimal text (it may exceed 2^53).
    pub fn decimal(&mut self, n: u128) {
        let start = self.text.len();
        push_decimal(&mut self.text, n);
        self.units += self.text.len() - start;
        self.end_text();
    }

    fn end_text(&mut self) {
        // UTF-16 offsets of a string under 2^32 units are exact in an f64.
        Self::number(self.slot, self.units as f64);
        self.slot += 1;
    }

    /// The answer's text.
    pub fn finish(self) -> String {
        self.text
    }
}

/// Appends `n` in decimal.
fn push_decimal(out: &mut String, n: u128) {
    const TEN_POW_19: u128 = 10_000_000_000_000_000_000;
    match u64::try_from(n) {
        Ok(n) => push_u64(out, n, 1),
        Err(_) => {
            push_decimal(out, n / TEN_POW_19);
            push_u64(out, u64::try_from(n % TEN_POW_19).unwrap_or(0), 19);
        }
    }
}

/// Appends `n` in decimal, at least `width` digits (zeros in front).
fn push_u64(out: &mut String, mut n: u64, width: usize) {
    let mut digits = [b'0'; 20];
    let mut at = digits.len();
    while n > 0 {
        at -= 1;
        // `n % 10` is a digit.
        digits[at] = b'0' + u8::try_from(n % 10).unwrap_or(0);
        n /= 10;
    }
    let start = at.min(digits.len().saturating_sub(width));
    // Only ASCII digits were written.
    out.push_str(core::str::from_utf8(digits.get(start..).unwrap_or_default()).unwrap_or_default());
}

fn unsafe_number(n: &str) -> Invalid {
    Invalid::input(format_args!(
        "{n} can't be represented as a JavaScript number"
    ))
}

impl Invalid {
    /// The failure as an answer.
    pub fn into_failure(self) -> String {
        failure(self.code, &self.message)
    }
}

/// A failure: `\u{1}`, the code, `\n`, the message.
pub fn failure(code: &str, message: &str) -> String {
    let mut text = String::with_capacity(code.len() + message.len() + 2);
    text.push('\u{1}');
    text.push_str(code);
    text.push('\n');
    text.push_str(message);
    text
}

/// The length of `text` in UTF-16 code units, as JavaScript counts it.
pub fn utf16_len(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.chars().map(char::len_utf16).sum()
    }
}
