//! RFC 3339 times (`2026-11-23T10:00:00.000Z`, `…+02:00`) as unix seconds.

/// An RFC 3339 time (`2026-11-23T10:00:00.000Z`, `…+02:00`) in unix seconds, fractions dropped.
pub fn unix_seconds(time: &str) -> Option<u64> {
    let b = time.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    if !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let (year, month, day) = (num(b, 0..4)?, num(b, 5..7)?, num(b, 8..10)?);
    let (hour, minute, second) = (num(b, 11..13)?, num(b, 14..16)?, num(b, 17..19)?);
    let offset = offset_seconds(b, fraction_end(b)?)?;
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)?
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let days = days_from_civil(year, month, day);
    u64::try_from(days * 86_400 + hour * 3600 + minute * 60 + second - offset).ok()
}

/// The decimal number in `b[range]`, digits only.
fn num(b: &[u8], range: core::ops::Range<usize>) -> Option<i64> {
    let part = b.get(range)?;
    part.iter().all(u8::is_ascii_digit).then_some(())?;
    core::str::from_utf8(part).ok()?.parse().ok()
}

/// Where the seconds end: after `.` and at least one digit when there is a fraction.
fn fraction_end(b: &[u8]) -> Option<usize> {
    let mut rest = 19;
    if b[rest] == b'.' {
        rest += 1;
        let start = rest;
        while b.get(rest).is_some_and(u8::is_ascii_digit) {
            rest += 1;
        }
        if rest == start {
            return None;
        }
    }
    Some(rest)
}

/// The offset from UTC in seconds of `Z` or `±hh:mm` at `b[rest..]` (nothing after it).
fn offset_seconds(b: &[u8], rest: usize) -> Option<i64> {
    match b.get(rest..)? {
        [b'Z' | b'z'] => Some(0),
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let minutes = num(b, rest + 1..rest + 3)? * 60 + num(b, rest + 4..rest + 6)?;
            if *sign == b'+' {
                Some(minutes * 60)
            } else {
                Some(-minutes * 60)
            }
        }
        _ => None,
    }
}

/// The days of `month` (1..=12) in `year`.
fn days_in_month(year: i64, month: i64) -> Option<i64> {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    Some(days[usize::try_from(month - 1).ok()?])
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(unix_seconds("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            unix_seconds("2026-11-23T10:00:00.000Z"),
            Some(1_795_428_000)
        );
        assert_eq!(
            unix_seconds("2026-11-23T10:00:00.999Z"),
            Some(1_795_428_000)
        );
        assert_eq!(
            unix_seconds("2026-11-23T12:00:00+02:00"),
            Some(1_795_428_000)
        );
        assert_eq!(unix_seconds("2000-02-29T00:00:00Z"), Some(951_782_400));
        assert_eq!(unix_seconds("2001-02-29T00:00:00Z"), None);
        assert_eq!(unix_seconds("2026-11-23T10:00:00"), None);
        assert_eq!(unix_seconds("1969-12-31T23:59:59Z"), None);
        assert_eq!(unix_seconds("2026-11-23T10:00:00.Z"), None);
    }
}
