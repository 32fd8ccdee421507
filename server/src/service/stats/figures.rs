//! The floor's figures: rounds, chips wagered and paid out per game, and cashouts by state,
//! as the floor's snapshot counts them and `/house` shows them.

use std::collections::BTreeMap;

use salvo::oapi::ToSchema;
use serde::Serialize;

#[derive(Debug, Default, Clone, Serialize, ToSchema)]
pub struct CashoutTotals {
    /// Paid out on-chain.
    pub confirmed: CountAndChips,
    /// Debited, transfer not yet confirmed (`pending` or `sent`).
    pub in_flight: CountAndChips,
    /// Could not be paid; the chips went back.
    pub refunded: CountAndChips,
}

#[derive(Debug, Default, Clone, Copy, Serialize, ToSchema)]
pub struct CountAndChips {
    pub count: i64,
    pub chips: i64,
}

#[derive(Debug, Default, Clone, Serialize, ToSchema)]
pub struct FloorStats {
    pub rounds: i64,
    pub wagered: i64,
    pub paid_out: i64,
    /// `wagered - paid_out`: what the house kept.
    pub house_net: i64,
    pub by_game: BTreeMap<String, GameStats>,
}

#[derive(Debug, Default, Clone, Copy, Serialize, ToSchema)]
pub struct GameStats {
    pub rounds: i64,
    pub wagered: i64,
    pub paid_out: i64,
    pub house_net: i64,
}

impl GameStats {
    /// Counts `rounds`, `wagered` and `paid_out` in (the house's net follows).
    pub fn add(&mut self, rounds: i64, wagered: i64, paid_out: i64) {
        self.rounds += rounds;
        self.wagered += wagered;
        self.paid_out += paid_out;
        self.house_net = self.wagered - self.paid_out;
    }
}

impl From<BTreeMap<String, GameStats>> for FloorStats {
    fn from(by_game: BTreeMap<String, GameStats>) -> Self {
        let mut floor = FloorStats::default();
        for stats in by_game.values() {
            floor.rounds += stats.rounds;
            floor.wagered += stats.wagered;
            floor.paid_out += stats.paid_out;
            floor.house_net += stats.house_net;
        }
        floor.by_game = by_game;
        floor
    }
}
