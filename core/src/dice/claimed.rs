//! A dice roll as a receipt claims it: the number and its shortest decimal digits, shown
//! exactly as Rust shows the number, from integers alone.

/// A dice roll as a receipt's `result.roll` claims it: a number for display only (settlement
/// and the outcome check use hundredths). It keeps the number and its shortest decimal digits,
/// so a report shows it exactly as Rust's `{}` shows the number, from integers alone: no float
/// formatting where it is shown (the wasm verifier gets the digits from JavaScript).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClaimedRoll {
    value: f64,
    /// The shortest decimal that reads back as `value` is `digits * 10^exponent`; `digits`
    /// has no trailing zero (0 for zero, infinity and NaN).
    digits: u64,
    exponent: i32,
}

impl ClaimedRoll {
    /// `value` with `shortest`, the shortest decimal that reads back as it, in plain or
    /// exponent notation as JavaScript's `String(value)` (`"12.34"`, `"1e+21"`, `"5e-324"`) or
    /// Rust's `{:e}` (`"1.234e1"`) writes it. The sign is `value`'s (JavaScript writes -0 as
    /// `"0"`); `shortest` is not read for infinities and NaN. `None` if it is not a decimal.
    pub fn new(value: f64, shortest: &str) -> Option<Self> {
        let (digits, exponent) = if value.is_finite() {
            parse_decimal(shortest)?
        } else {
            (0, 0)
        };
        Some(Self {
            value,
            digits,
            exponent,
        })
    }

    /// `value`, with its shortest decimal from Rust's float formatting (`{:e}`).
    pub fn from_f64(value: f64) -> Self {
        let shortest = alloc::format!("{value:e}");
        // `{:e}` writes a finite f64 as digits, an optional point and `e` with an exponent.
        Self::new(value, &shortest).unwrap_or(Self {
            value,
            digits: 0,
            exponent: 0,
        })
    }

    /// The number.
    pub fn value(&self) -> f64 {
        self.value
    }
}

#[cfg(feature = "serde")]
/// A claimed `result.roll` is any JSON number; its shortest digits are kept for reports.
impl<'de> serde::Deserialize<'de> for ClaimedRoll {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        f64::deserialize(deserializer).map(ClaimedRoll::from_f64)
    }
}

/// Shown as Rust's `{}` shows the f64: the shortest digits, never an exponent (`1e21` is
/// `1000000000000000000000`), `-0` for negative zero, `inf`, `-inf` and `NaN`.
impl core::fmt::Display for ClaimedRoll {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.value.is_nan() {
            return f.write_str("NaN");
        }
        if self.value.is_sign_negative() {
            f.write_str("-")?;
        }
        if self.value.is_infinite() {
            return f.write_str("inf");
        }
        if self.digits == 0 {
            return f.write_str("0");
        }
        let digits = crate::stream::Decimal::of(self.digits);
        let digits = digits.as_str();
        let len = i32::try_from(digits.len()).unwrap_or(0);
        // Digits before the decimal point.
        let point = len + self.exponent;
        if point <= 0 {
            f.write_str("0.")?;
            zeros(f, -point)?;
            f.write_str(digits)
        } else if point < len {
            let at = usize::try_from(point).unwrap_or(0);
            let (whole, fraction) = digits.split_at_checked(at).unwrap_or((digits, ""));
            f.write_str(whole)?;
            f.write_str(".")?;
            f.write_str(fraction)
        } else {
            f.write_str(digits)?;
            zeros(f, point - len)
        }
    }
}

fn zeros(f: &mut core::fmt::Formatter<'_>, count: i32) -> core::fmt::Result {
    for _ in 0..count {
        f.write_str("0")?;
    }
    Ok(())
}

/// `(digits, exponent)` of a decimal `[-]d*[.d*][(e|E)[+|-]d+]` with at least one digit whose
/// significant digits fit a u64; trailing zeros go into the exponent.
fn parse_decimal(text: &str) -> Option<(u64, i32)> {
    let text = text.strip_prefix('-').unwrap_or(text);
    let bytes = text.as_bytes();
    // `digits` never ends in a zero: zeros wait in `zeros` until a non-zero digit follows.
    let (mut digits, mut zeros, mut exponent) = (0u64, 0i32, 0i32);
    let (mut any_digit, mut point) = (false, false);
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'.' if !point => point = true,
            b'0' => {
                any_digit = true;
                zeros += i32::from(digits != 0);
                exponent -= i32::from(point);
            }
            b'1'..=b'9' => {
                any_digit = true;
                for _ in 0..zeros {
                    digits = digits.checked_mul(10)?;
                }
                zeros = 0;
                digits = digits
                    .checked_mul(10)?
                    .checked_add(u64::from(byte - b'0'))?;
                exponent -= i32::from(point);
            }
            _ => break,
        }
        at += 1;
    }
    if !any_digit {
        return None;
    }
    if let Some(rest) = bytes.get(at..).filter(|rest| !rest.is_empty()) {
        exponent += parse_exponent(rest)?;
    }
    if digits == 0 {
        return Some((0, 0));
    }
    Some((digits, exponent + zeros))
}

/// The power of ten of an exponent part `(e|E)[+|-]d+`, at most 4 digits.
fn parse_exponent(text: &[u8]) -> Option<i32> {
    let (&mark, rest) = text.split_first()?;
    if mark != b'e' && mark != b'E' {
        return None;
    }
    let (negative, rest) = match rest.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, rest),
    };
    if rest.is_empty() || rest.len() > 4 {
        return None;
    }
    let mut power = 0i32;
    for &byte in rest {
        if !byte.is_ascii_digit() {
            return None;
        }
        power = power * 10 + i32::from(byte - b'0');
    }
    Some(if negative { -power } else { power })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn claimed_roll_shows_as_rust_shows_the_f64() {
        // JavaScript's String(value) for each value, then what Rust's `{}` writes.
        let cases: [(f64, &str, &str); 15] = [
            (50.0, "50", "50"),
            (12.34, "12.34", "12.34"),
            (0.07, "0.07", "0.07"),
            (100.0, "100", "100"),
            (0.0, "0", "0"),
            (-0.0, "0", "-0"),
            (-12.5, "-12.5", "-12.5"),
            (1e21, "1e+21", "1000000000000000000000"),
            (1.5e-7, "1.5e-7", "0.00000015"),
            (0.1 + 0.2, "0.30000000000000004", "0.30000000000000004"),
            (123_456_789_012.5, "123456789012.5", "123456789012.5"),
            (
                1.234_567_890_123_456_8e20,
                "123456789012345680000",
                "123456789012345680000",
            ),
            (f64::INFINITY, "Infinity", "inf"),
            (f64::NEG_INFINITY, "-Infinity", "-inf"),
            (f64::NAN, "NaN", "NaN"),
        ];
        for (value, js, shown) in cases {
            let claimed = ClaimedRoll::new(value, js).unwrap();
            assert_eq!(claimed.to_string(), shown, "{js}");
            assert_eq!(claimed.to_string(), alloc::format!("{value}"), "{js}");
            assert_eq!(ClaimedRoll::from_f64(value).to_string(), shown, "{js}");
        }
        assert_eq!(
            ClaimedRoll::new(5e-324, "5e-324").unwrap().to_string(),
            alloc::format!("{}", 5e-324)
        );
        for bad in [
            "",
            "-",
            ".",
            "e5",
            "1e",
            "1e+",
            "1x",
            "1.2.3",
            "123456789012345678901",
        ] {
            assert_eq!(ClaimedRoll::new(1.0, bad), None, "{bad:?}");
        }
    }
}
