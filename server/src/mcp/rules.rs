//! `arcade://rules`: the fairness rules served at `/rules.md` (the same compiled text), then
//! this deployment's limits and the free-chip rule, written from the values `arcade_games`
//! and `/api/arcade/games` list (`LimitsView`) and the round lifetime of the settings.

use crate::api::documents::RULES_MD;
use crate::service::stats::LimitsView;

/// The rules as markdown: the normative algorithm, then the live limits.
pub fn markdown(limits: &LimitsView, round_ttl_secs: u64) -> String {
    format!("{RULES_MD}\n{}", deployment(limits, round_ttl_secs))
}

/// The section on this deployment's limits and free chips.
fn deployment(l: &LimitsView, round_ttl_secs: u64) -> String {
    format!(
        "## This deployment's limits (live)\n\n\
         The numbers this server enforces now (`limits` in `arcade_games` and \
         `GET /api/arcade/games`); they take precedence over the examples above.\n\n\
         | limit | chips |\n\
         |---|---|\n\
         | smallest wager | {min_wager} |\n\
         | largest wager | {max_wager} |\n\
         | largest profit one round may pay | {max_payout} |\n\
         | an address's net winnings per UTC day | {daily_cap} |\n\
         | smallest cashout | {min_cashout} |\n\
         | largest cashout | {max_cashout} |\n\n\
         A client seed has 1 to {seed_chars} characters. A round is open for \
         {round_ttl_secs} seconds after its commit; unplayed, it expires and its seed is \
         revealed in its seed batch.\n\n\
         ## Free chips\n\n\
         Every address may claim {free} free chips once (`arcade_free`, \
         `POST /api/arcade/free`), without payment. Free chips are play money: they can be \
         played and won with, never cashed out. A wager stakes free chips first, and a win \
         pays each pocket (free and paid) back in proportion to its stake, the free share \
         rounded up. Only paid chips (`cashable` in `arcade_balance`) can be cashed out.\n",
        min_wager = l.min_wager_chips,
        max_wager = l.max_wager_chips,
        max_payout = l.max_payout_chips,
        daily_cap = l.daily_win_cap_chips,
        min_cashout = l.min_cashout_chips,
        max_cashout = l.max_cashout_chips,
        seed_chars = l.max_client_seed_chars,
        free = l.free_chips,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> LimitsView {
        LimitsView {
            min_wager_chips: 1,
            max_wager_chips: 777,
            max_payout_chips: 555,
            daily_win_cap_chips: 3333,
            min_cashout_chips: 100,
            max_cashout_chips: 250_000,
            free_chips: 42,
            max_client_seed_chars: 256,
        }
    }

    #[test]
    fn the_rules_are_the_served_document_then_the_live_limits() {
        let text = markdown(&limits(), 600);
        assert!(text.starts_with(RULES_MD));
        let tail = &text[RULES_MD.len()..];
        for part in [
            "| largest wager | 777 |",
            "| largest profit one round may pay | 555 |",
            "| an address's net winnings per UTC day | 3333 |",
            "claim 42 free chips once",
            "open for 600 seconds",
        ] {
            assert!(tail.contains(part), "{part} in {tail}");
        }
    }
}
