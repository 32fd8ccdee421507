//! Chip prices. One chip is 0.0001 USD, which is 100 base units of a 6-decimal dollar token.

pub const CHIP_VALUE_USD: f64 = 0.0001;
pub const BASE_UNITS_PER_CHIP: u64 = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tier {
    pub name: &'static str,
    pub chips: u64,
}

/// The buy-in tiers of the interface; `small` is also the default purchase.
pub const TIERS: [Tier; 3] = [
    Tier {
        name: "micro",
        chips: 100,
    },
    Tier {
        name: "small",
        chips: 1_000,
    },
    Tier {
        name: "medium",
        chips: 10_000,
    },
];

/// What `POST /api/arcade/chips` sells: the `small` tier, 0.10 USD.
pub const DEFAULT_TIER: Tier = TIERS[1];

impl Tier {
    /// The tier whose price is exactly `base_units`, if any: what a proven transfer buys.
    pub fn priced_at(base_units: u64) -> Option<Self> {
        TIERS
            .into_iter()
            .find(|tier| tier.price_base_units() == base_units)
    }

    /// The price in token base units.
    pub fn price_base_units(&self) -> u64 {
        self.chips * BASE_UNITS_PER_CHIP
    }

    /// The price as people read it: `$0.01`.
    pub fn price_text(&self) -> String {
        let cents = self.price_base_units() / 10_000;
        format!("${}.{:02}", cents / 100, cents % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_cost_what_the_interface_says() {
        let prices: Vec<String> = TIERS.iter().map(Tier::price_text).collect();
        assert_eq!(prices, ["$0.01", "$0.10", "$1.00"]);
        assert_eq!(TIERS[1].price_base_units(), 100_000);
    }

    #[test]
    fn only_a_tiers_exact_price_buys_it() {
        for tier in TIERS {
            assert_eq!(Tier::priced_at(tier.price_base_units()), Some(tier));
            assert_eq!(Tier::priced_at(tier.price_base_units() - 1), None);
            assert_eq!(Tier::priced_at(tier.price_base_units() + 1), None);
        }
        assert_eq!(Tier::priced_at(0), None);
        assert_eq!(Tier::priced_at(12_345), None);
        assert_eq!(Tier::priced_at(u64::MAX), None);
    }
}
