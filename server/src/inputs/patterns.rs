//! The regular expressions of the inputs' `pattern` keywords, compiled at start
//! ([`compile`]): a pattern that does not compile stops the start, never a request. Every
//! pattern the field types use is in [`PATTERNS`] (a test holds the inputs' schemas to it);
//! one that is not is compiled when first met, and if it cannot be, its values are refused
//! and the error logged.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use regex::Regex;

use crate::address::ADDRESS_PATTERN;

/// Unicode's control characters (general category Cc), which `char::is_control` refuses.
pub const NO_CONTROL_CHARACTERS: &str = r"^[^\u0000-\u001F\u007F-\u009F]*$";

/// Every pattern the inputs' field types use.
pub const PATTERNS: [&str; 3] = [
    ADDRESS_PATTERN,
    NO_CONTROL_CHARACTERS,
    arcade_core::limbo::TARGET_PATTERN,
];

#[derive(Debug, thiserror::Error)]
#[error("the input pattern {pattern:?} does not compile: {source}")]
pub struct BadPattern {
    pattern: &'static str,
    source: regex::Error,
}

static CACHE: LazyLock<Mutex<HashMap<String, Arc<Regex>>>> = LazyLock::new(Default::default);

/// Compiles every pattern of [`PATTERNS`]; at start.
pub fn compile() -> Result<(), BadPattern> {
    for pattern in PATTERNS {
        compiled(pattern).map_err(|source| BadPattern { pattern, source })?;
    }
    Ok(())
}

/// Whether `text` matches `pattern`; false when the pattern does not compile.
pub(super) fn matches(pattern: &str, text: &str) -> bool {
    match compiled(pattern) {
        Ok(regex) => regex.is_match(text),
        Err(error) => {
            tracing::error!(pattern, %error, "an input pattern does not compile; its value is refused");
            false
        }
    }
}

fn compiled(pattern: &str) -> Result<Arc<Regex>, regex::Error> {
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(regex) = cache.get(pattern) {
        return Ok(regex.clone());
    }
    let regex = Arc::new(Regex::new(pattern)?);
    cache.insert(pattern.to_owned(), regex.clone());
    Ok(regex)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::{Input, chips, games, messages, queries, schema, wallets};
    use serde_json::Value;

    fn patterns_of<T: Input>(found: &mut Vec<String>) {
        fn walk(value: &Value, found: &mut Vec<String>) {
            match value {
                Value::Object(map) => {
                    if let Some(Value::String(p)) = map.get("pattern") {
                        found.push(p.clone());
                    }
                    map.values().for_each(|v| walk(v, found));
                }
                Value::Array(items) => items.iter().for_each(|v| walk(v, found)),
                _ => {}
            }
        }
        walk(&Value::Object((*schema::of::<T>()).clone()), found);
    }

    #[test]
    fn every_pattern_compiles_at_start() {
        compile().unwrap();
    }

    #[test]
    fn every_inputs_pattern_is_one_compiled_at_start() {
        let mut found = Vec::new();
        patterns_of::<wallets::AddressInput>(&mut found);
        patterns_of::<wallets::RotateInput>(&mut found);
        patterns_of::<wallets::AddressPath>(&mut found);
        patterns_of::<wallets::CashoutInput>(&mut found);
        patterns_of::<wallets::CashoutPath>(&mut found);
        macro_rules! game_inputs {
            ($($Game:ident, $endpoint:literal, $Input:ty, $handler:ident, $about:literal;)*) => {
                $(patterns_of::<$Input>(&mut found);)*
            };
        }
        games::for_each_game_input!(game_inputs);
        patterns_of::<queries::BetPath>(&mut found);
        patterns_of::<queries::RoundPath>(&mut found);
        patterns_of::<queries::RecentQuery>(&mut found);
        patterns_of::<queries::FeedQuery>(&mut found);
        patterns_of::<queries::SeedBatchPath>(&mut found);
        patterns_of::<messages::AgentMessage>(&mut found);
        patterns_of::<chips::TierPath>(&mut found);
        patterns_of::<chips::NoBody>(&mut found);
        assert!(found.iter().any(|p| p == ADDRESS_PATTERN));
        assert!(found.iter().any(|p| p == NO_CONTROL_CHARACTERS));
        for pattern in &found {
            assert!(
                PATTERNS.contains(&pattern.as_str()),
                "{pattern} is not compiled at start"
            );
        }
    }

    #[test]
    fn a_pattern_that_does_not_compile_refuses_its_value() {
        assert!(!matches("(", "("));
        assert!(matches(NO_CONTROL_CHARACTERS, "a seed"));
        assert!(!matches(NO_CONTROL_CHARACTERS, "a\u{7}seed"));
    }

    /// The limbo target's published pattern is the core's parse, exactly: on every target in
    /// hundredths written every way it can be (and around the bounds, with leading zeros, signs,
    /// exponents and stray dots), the one accepts what the other does.
    #[test]
    fn the_limbo_target_pattern_is_the_cores_parse() {
        use arcade_core::LimboCall;
        use arcade_core::limbo::TARGET_PATTERN;
        let mut texts: Vec<String> = Vec::new();
        let hundredths = (0..=2_000u64)
            .chain((99_999_000..=100_001_000).step_by(7))
            .chain([999_999, 1_000_000, 1_000_001, 10_000_000, 99_999_999]);
        for n in hundredths {
            let (whole, cents) = (n / 100, n % 100);
            texts.push(format!("{whole}.{cents:02}"));
            texts.push(format!("{whole}.{}", cents / 10));
            texts.push(format!("{whole}"));
            texts.push(format!("0{whole}.{cents:02}"));
            texts.push(format!("{whole}.{cents:02}0"));
            texts.push(format!("{whole}."));
        }
        texts.extend(["", ".", ".5", "-2", "+2", "2e2", " 2", "2 ", "1,5", "２"].map(String::from));
        let mut accepted = 0;
        for text in &texts {
            let parsed = LimboCall::parse(text).is_ok();
            assert_eq!(matches(TARGET_PATTERN, text), parsed, "{text:?}");
            accepted += usize::from(parsed);
        }
        assert!(accepted > 1_000, "{accepted}");
    }
}
