//! When an open round stops being playable: `rounds.ttl_secs` after it was opened. Shared by
//! the areas that open, play, expire and show rounds.

use crate::settings::RoundSettings;
use crate::store::entities::round::{self, RoundState};

#[derive(Debug, Clone, Copy)]
pub struct RoundClock {
    ttl_ms: i64,
}

impl RoundClock {
    pub fn new(rounds: &RoundSettings) -> Self {
        Self {
            ttl_ms: i64::try_from(rounds.ttl_secs.saturating_mul(1000)).unwrap_or(i64::MAX),
        }
    }

    /// When a round opened at `created_at` expires.
    pub fn expires_at(&self, created_at: i64) -> i64 {
        created_at.saturating_add(self.ttl_ms)
    }

    /// Rounds opened at or before this are past their time at `now`.
    pub fn opened_after(&self, now: i64) -> i64 {
        now.saturating_sub(self.ttl_ms)
    }

    /// Whether an open round can no longer be played: marked expired, or past its time (the
    /// expiry task marks it soon).
    pub fn is_expired(&self, round: &round::Model, now: i64) -> bool {
        round.expired_at.is_some() || round.created_at <= self.opened_after(now)
    }

    /// `open`, `settled` or `expired`.
    pub fn state_of(&self, round: &round::Model, now: i64) -> &'static str {
        match round.state {
            RoundState::Spent => "settled",
            RoundState::Open if self.is_expired(round, now) => "expired",
            RoundState::Open => "open",
        }
    }
}
