//! Reading the flat arguments: string fields cut from one text by their UTF-16 lengths, and
//! numbers that the glue has checked to be safe integers (or `-1` for an absent field).

use alloc::string::{String, ToString};
use core::fmt::Display;

use arcade_core::{CallError, ReceiptError, SeedError};

/// Why an answer is a failure: the stable code and the message the glue throws.
pub struct Invalid {
    pub(crate) code: &'static str,
    pub(crate) message: String,
}

impl Invalid {
    /// `invalid_input`: the value is not of the expected shape.
    pub fn input(message: impl Display) -> Self {
        Self {
            code: "invalid_input",
            message: message.to_string(),
        }
    }
}

macro_rules! from_core_error {
    ($($t:ty),*) => {$(
        impl From<$t> for Invalid {
            fn from(error: $t) -> Self {
                Self { code: error.code(), message: error.to_string() }
            }
        }
    )*};
}

from_core_error!(SeedError, CallError, ReceiptError);

/// The string fields of one call, in order.
pub struct Fields<'a> {
    rest: &'a str,
    lengths: core::slice::Iter<'a, f64>,
    /// Every field is ASCII: a UTF-16 length is a byte length.
    ascii: bool,
}

impl<'a> Fields<'a> {
    /// Fields of `text` (UTF-8) with these UTF-16 lengths (negative: absent).
    pub fn new(text: &'a [u8], lengths: &'a [f64]) -> Result<Self, Invalid> {
        let text = core::str::from_utf8(text).map_err(|_| Invalid::input("text is not UTF-8"))?;
        let units: usize = lengths.iter().map(|&n| length(n).unwrap_or(0)).sum();
        // UTF-8 takes more bytes than UTF-16 takes units for every non-ASCII character.
        let ascii = text.len() == units;
        if !ascii && text.len() < units {
            return Err(Invalid::input("field lengths exceed the text"));
        }
        Ok(Self {
            rest: text,
            lengths: lengths.iter(),
            ascii,
        })
    }

    /// The next field, `None` if absent.
    pub fn string(&mut self) -> Result<Option<&'a str>, Invalid> {
        let length = *self
            .lengths
            .next()
            .ok_or_else(|| Invalid::input("too few fields"))?;
        let Some(units) = self::length(length) else {
            return Ok(None);
        };
        let at = if self.ascii {
            units
        } else {
            let mut seen = 0;
            let mut bytes = 0;
            for c in self.rest.chars() {
                if seen >= units {
                    break;
                }
                seen += c.len_utf16();
                bytes += c.len_utf8();
            }
            if seen != units {
                return Err(Invalid::input("field lengths do not match the text"));
            }
            bytes
        };
        let (field, rest) = self
            .rest
            .split_at_checked(at)
            .ok_or_else(|| Invalid::input("field lengths do not match the text"))?;
        self.rest = rest;
        Ok(Some(field))
    }

    /// The next field, which the glue has checked is present.
    pub fn required(&mut self, name: &str) -> Result<&'a str, Invalid> {
        self.string()?
            .ok_or_else(|| Invalid::input(format_args!("missing field `{name}`")))
    }

    /// The next field as one of a set of names (`parse`), `None` if absent.
    pub fn parse<T>(
        &mut self,
        name: &str,
        parse: fn(&str) -> Option<T>,
    ) -> Result<Option<T>, Invalid> {
        parse_text(name, self.string()?, parse)
    }
}

/// `text` read by `parse`; a text it does not read is an error naming the field.
pub fn parse_text<T>(
    name: &str,
    text: Option<&str>,
    parse: fn(&str) -> Option<T>,
) -> Result<Option<T>, Invalid> {
    text.map(|text| parse(text).ok_or_else(|| unknown(name, text)))
        .transpose()
}

#[cold]
fn unknown(name: &str, text: &str) -> Invalid {
    Invalid::input(format_args!("{name}: unknown variant `{text}`"))
}

/// A string's length, `None` for -1 (absent).
fn length(n: f64) -> Option<usize> {
    usize::try_from(signed(n)).ok()
}

/// A safe integer the glue has checked (|n| <= 2^53 - 1), as it is.
#[allow(clippy::cast_possible_truncation)] // an integer below 2^53 in magnitude
pub fn signed(n: f64) -> i64 {
    n as i64
}

/// A non-negative safe integer, `None` for a negative one (an absent optional field).
fn unsigned(n: f64) -> Option<u64> {
    u64::try_from(signed(n)).ok()
}

/// A required non-negative integer field.
pub fn int(n: f64, name: &str) -> Result<u64, Invalid> {
    unsigned(n)
        .ok_or_else(|| Invalid::input(format_args!("{name}: expected a non-negative integer")))
}

/// An optional integer field of type `T` (u32 or u64): absent, or in `T`'s range.
pub fn optional_int<T: TryFrom<u64>>(n: f64, name: &str) -> Result<Option<T>, Invalid> {
    match unsigned(n) {
        None => Ok(None),
        Some(value) => T::try_from(value).map(Some).map_err(|_| {
            Invalid::input(format_args!(
                "{name}: invalid value: integer `{value}`, expected u32"
            ))
        }),
    }
}
