//! Dice: a roll of 0.00 ..= 100.00 (10001 outcomes), called under or over a target of 1 to 99.
//! The return is derived from the exact probability `W / 10001` with a 1% edge.

use crate::error::CallError;
use crate::payout::WinReturn;

/// Equally likely rolls: 0.00, 0.01, …, 100.00.
pub const OUTCOMES: u32 = 10_001;
/// Smallest target.
pub const MIN_TARGET: u32 = 1;
/// Largest target.
pub const MAX_TARGET: u32 = 99;

/// Which side of the target wins. A roll exactly on the target loses both ways.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Direction {
    /// Wins iff `roll < target` (the default).
    #[default]
    Under,
    /// Wins iff `roll > target`.
    Over,
}

impl Direction {
    /// Both directions, the default first.
    pub const ALL: [Direction; 2] = [Self::Under, Self::Over];

    /// `"under"` or `"over"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Under => "under",
            Self::Over => "over",
        }
    }

    /// Parses `"under"` or `"over"` exactly.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "under" => Some(Self::Under),
            "over" => Some(Self::Over),
            _ => None,
        }
    }
}

/// A validated dice call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiceCall {
    target: u8,
    direction: Direction,
}

impl DiceCall {
    /// A call on `target` (1 to 99).
    pub fn new(target: u32, direction: Direction) -> Result<Self, CallError> {
        if !(MIN_TARGET..=MAX_TARGET).contains(&target) {
            return Err(CallError::DiceTargetOutOfRange { target });
        }
        let target =
            u8::try_from(target).map_err(|_| CallError::DiceTargetOutOfRange { target })?;
        Ok(Self { target, direction })
    }

    /// The target, 1 to 99.
    pub fn target(&self) -> u8 {
        self.target
    }

    /// Under or over.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// `W`: how many of the 10001 rolls win.
    pub fn winning_count(&self) -> u32 {
        let at = 100 * u32::from(self.target);
        match self.direction {
            Direction::Under => at,
            Direction::Over => 10_000 - at,
        }
    }

    /// Whether `roll` (in hundredths) wins this call.
    pub fn wins(&self, roll: Roll) -> bool {
        let at = 100 * u16::from(self.target);
        match self.direction {
            Direction::Under => roll.hundredths < at,
            Direction::Over => roll.hundredths > at,
        }
    }

    /// `wager * 99 * 10001 / (100 * W)`.
    pub fn win_return(&self, wager: u64) -> WinReturn {
        WinReturn::new(
            u128::from(wager) * 99 * u128::from(OUTCOMES),
            100 * u128::from(self.winning_count()),
        )
    }

    /// The schedule published with the result.
    pub fn schedule(&self) -> Schedule {
        Schedule {
            winning_count: self.winning_count(),
        }
    }
}

/// A roll in hundredths: 0 ..= 10000 stands for 0.00 ..= 100.00.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Roll {
    hundredths: u16,
}

impl Roll {
    /// `roll_hundredths = (u_0 * 10001) >> 32`, the same as `floor(float * 10001)`.
    pub fn from_u32(u0: u32) -> Self {
        let hundredths = (u64::from(u0) * u64::from(OUTCOMES)) >> 32;
        Self {
            hundredths: u16::try_from(hundredths).unwrap_or(u16::MAX),
        }
    }

    /// A roll given in hundredths, if in 0 ..= 10000.
    pub fn from_hundredths(hundredths: u32) -> Option<Self> {
        u16::try_from(hundredths)
            .ok()
            .filter(|h| *h <= 10_000)
            .map(|hundredths| Self { hundredths })
    }

    /// 0 ..= 10000.
    pub fn hundredths(&self) -> u16 {
        self.hundredths
    }

    /// The roll as a JSON number with two decimals (display only; settlement uses hundredths).
    pub fn as_f64(&self) -> f64 {
        f64::from(self.hundredths) / 100.0
    }
}

impl core::fmt::Display for Roll {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}.{:02}", self.hundredths / 100, self.hundredths % 100)
    }
}

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
    if let Some(&byte) = bytes.get(at) {
        if byte != b'e' && byte != b'E' {
            return None;
        }
        let rest = bytes.get(at + 1..)?;
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
        exponent += if negative { -power } else { power };
    }
    if digits == 0 {
        return Some((0, 0));
    }
    Some((digits, exponent + zeros))
}

/// The payout schedule of a dice call, as exact integers; the strings are for display only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// `W` of 10001.
    pub winning_count: u32,
}

impl Schedule {
    /// Win chance in percent, to 4 decimals, rounded half up: `"49.5000%"`.
    pub fn win_chance(&self) -> alloc::string::String {
        // percent * 10^4 = W * 10^6 / 10001
        let scaled = round_half_up(
            u64::from(self.winning_count) * 1_000_000,
            u64::from(OUTCOMES),
        );
        fixed4(scaled, "%")
    }

    /// Multiplier (return per chip wagered), to 4 decimals, rounded half up: `"1.9800"`.
    pub fn multiplier(&self) -> alloc::string::String {
        // 99 * 10001 / (100 W) * 10^4 = 99 * 10001 * 100 / W
        let scaled = round_half_up(
            99 * u64::from(OUTCOMES) * 100,
            u64::from(self.winning_count),
        );
        fixed4(scaled, "")
    }
}

fn round_half_up(num: u64, den: u64) -> u64 {
    (2 * num + den) / (2 * den)
}

/// An integer scaled by 10^4, shown with four decimals, then `suffix`.
fn fixed4(scaled: u64, suffix: &str) -> alloc::string::String {
    let whole = crate::stream::Decimal::of(scaled / 10_000);
    // 1dddd: the four decimals with their zeros, after a leading 1.
    let fraction = crate::stream::Decimal::of(10_000 + scaled % 10_000);
    let fraction = fraction
        .as_str()
        .split_at_checked(1)
        .map_or("", |(_, digits)| digits);
    let mut text = alloc::string::String::with_capacity(whole.as_str().len() + 5 + suffix.len());
    for part in [whole.as_str(), ".", fraction, suffix] {
        text.push_str(part);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn roll_mapping_edges() {
        assert_eq!(Roll::from_u32(0).hundredths(), 0);
        assert_eq!(Roll::from_u32(u32::MAX).hundredths(), 10_000);
        // floor(float * 10001): the first u32 that reaches 100.00
        let first_top = u32::try_from((10_000u64 << 32).div_ceil(10_001)).unwrap();
        assert_eq!(Roll::from_u32(first_top).hundredths(), 10_000);
        assert_eq!(Roll::from_u32(first_top - 1).hundredths(), 9_999);
    }

    #[test]
    fn winning_counts_and_edges() {
        let under1 = DiceCall::new(1, Direction::Under).unwrap();
        assert_eq!(under1.winning_count(), 100);
        assert!(under1.wins(Roll::from_hundredths(99).unwrap()));
        assert!(!under1.wins(Roll::from_hundredths(100).unwrap()));
        let over99 = DiceCall::new(99, Direction::Over).unwrap();
        assert_eq!(over99.winning_count(), 100);
        assert!(!over99.wins(Roll::from_hundredths(9_900).unwrap()));
        assert!(over99.wins(Roll::from_hundredths(9_901).unwrap()));
        assert!(over99.wins(Roll::from_hundredths(10_000).unwrap()));
        assert_eq!(
            DiceCall::new(0, Direction::Under),
            Err(CallError::DiceTargetOutOfRange { target: 0 })
        );
        assert_eq!(
            DiceCall::new(100, Direction::Over),
            Err(CallError::DiceTargetOutOfRange { target: 100 })
        );
    }

    #[test]
    fn winning_count_matches_brute_force() {
        for target in MIN_TARGET..=MAX_TARGET {
            for direction in [Direction::Under, Direction::Over] {
                let call = DiceCall::new(target, direction).unwrap();
                let brute = (0..=10_000)
                    .filter(|h| call.wins(Roll::from_hundredths(*h).unwrap()))
                    .count();
                assert_eq!(
                    brute,
                    call.winning_count() as usize,
                    "{target} {direction:?}"
                );
            }
        }
    }

    #[test]
    fn schedule_display() {
        let s = DiceCall::new(50, Direction::Under).unwrap().schedule();
        assert_eq!(s.win_chance(), "49.9950%");
        assert_eq!(s.multiplier(), "1.9802");
        let s = DiceCall::new(1, Direction::Under).unwrap().schedule();
        assert_eq!(s.win_chance(), "0.9999%");
        assert_eq!(s.multiplier(), "99.0099");
        let s = DiceCall::new(1, Direction::Over).unwrap().schedule();
        assert_eq!(s.win_chance(), "98.9901%");
        assert_eq!(s.multiplier(), "1.0001");
        assert_eq!(Roll::from_hundredths(705).unwrap().to_string(), "7.05");
        assert_eq!(Roll::from_hundredths(10_000).unwrap().to_string(), "100.00");
    }

    #[test]
    fn fixed4_writes_four_decimals() {
        for scaled in (0..200_000).chain([990_099, 1_000_000, u64::MAX / 3]) {
            let expected = alloc::format!("{}.{:04}%", scaled / 10_000, scaled % 10_000);
            assert_eq!(fixed4(scaled, "%"), expected);
        }
    }

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
