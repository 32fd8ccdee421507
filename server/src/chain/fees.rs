//! What the house bids for gas: EIP-1559 fees that clear the chain's base fee with margin, never
//! above `chain.max_fee_per_gas_wei`; and what a replacement of a transaction that the base fee
//! outgrew bids (the same nonce at a higher fee).
//!
//! A node replaces a pending transaction only with one that raises both its max fee and its
//! priority fee, by 10% on the usual rule (geth's `--txpool.pricebump`; anvil asks for a raise
//! too). A replacement bids at least that, and at least what a fresh transaction would bid now.
//! Each replacement raises the bid by a tenth or more, and none goes above the cap, so one
//! transaction is replaced only a bounded number of times and a fee spike cannot spend more than
//! the cap per gas.

/// A transaction's fees, in wei per gas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fees {
    pub max_fee_per_gas: u128,
    pub max_priority_fee_per_gas: u128,
}

/// The chain's fees now: the base fee a transaction must clear and a priority fee that recent
/// blocks paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Market {
    pub base_fee: u128,
    pub priority_fee: u128,
}

/// What a replacement bids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replacement {
    /// Higher than the replaced transaction's by the nodes' minimum, clearing the base fee.
    Bid(Fees),
    /// The cap leaves no room for the raise nodes require: the transaction waits as it is.
    AtCap,
}

impl Market {
    /// A fresh bid: twice the base fee (room for it to rise for several blocks) plus the
    /// priority fee, as wallets bid; at most `cap`.
    pub fn bid(&self, cap: u128) -> Fees {
        let max_fee = self
            .base_fee
            .saturating_mul(2)
            .saturating_add(self.priority_fee);
        Fees::capped(max_fee, self.priority_fee, cap)
    }

    /// Whether a transaction bidding `fees` is priced out: the base fee and the priority fee
    /// blocks pay now are more than its max fee.
    pub fn outprices(&self, fees: Fees) -> bool {
        self.base_fee.saturating_add(self.priority_fee) > fees.max_fee_per_gas
    }

    /// What replaces a pending transaction bidding `signed`: the nodes' raise over it, or the
    /// fresh bid if higher; at most `cap`.
    pub fn replacement(&self, signed: Fees, cap: u128) -> Replacement {
        let least = Fees {
            max_fee_per_gas: raised(signed.max_fee_per_gas),
            max_priority_fee_per_gas: raised(signed.max_priority_fee_per_gas),
        };
        let fresh = self.bid(u128::MAX);
        let wanted = Fees::capped(
            fresh.max_fee_per_gas.max(least.max_fee_per_gas),
            fresh
                .max_priority_fee_per_gas
                .max(least.max_priority_fee_per_gas),
            cap,
        );
        if wanted.max_fee_per_gas < least.max_fee_per_gas
            || wanted.max_priority_fee_per_gas < least.max_priority_fee_per_gas
        {
            return Replacement::AtCap;
        }
        Replacement::Bid(wanted)
    }
}

impl Fees {
    /// At most `cap` per gas, the priority fee within the max fee.
    fn capped(max_fee: u128, priority_fee: u128, cap: u128) -> Self {
        let max_fee_per_gas = max_fee.min(cap);
        Self {
            max_fee_per_gas,
            max_priority_fee_per_gas: priority_fee.min(max_fee_per_gas),
        }
    }
}

/// `fee` raised by a tenth, rounded up, and by at least one wei.
fn raised(fee: u128) -> u128 {
    fee.saturating_add(fee.div_ceil(10).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GWEI: u128 = 1_000_000_000;

    fn fees(max_fee_per_gas: u128, max_priority_fee_per_gas: u128) -> Fees {
        Fees {
            max_fee_per_gas,
            max_priority_fee_per_gas,
        }
    }

    #[tokio::test]
    async fn a_zero_cap_is_refused_before_connecting() {
        use crate::chain::{Chain, ConnectError};
        use crate::settings::{Amount, Secret, Settings};
        let mut settings = Settings::default().chain;
        settings.rpc_urls = vec![Secret::new("http://127.0.0.1:9".to_owned())];
        settings.house_key = Some(Secret::new(format!("0x{}", "11".repeat(32))));
        settings.token = Some(alloy::primitives::Address::repeat_byte(1));
        settings.max_fee_per_gas_wei = Amount::from(0);
        let refused = Chain::connect(&settings).await;
        assert!(matches!(refused, Err(ConnectError::FeeCap)));
    }

    #[test]
    fn a_bid_is_twice_the_base_fee_plus_the_priority_fee_within_the_cap() {
        let market = Market {
            base_fee: 10 * GWEI,
            priority_fee: GWEI,
        };
        assert_eq!(market.bid(100 * GWEI), fees(21 * GWEI, GWEI));
        assert_eq!(market.bid(15 * GWEI), fees(15 * GWEI, GWEI));
        assert_eq!(market.bid(GWEI / 2), fees(GWEI / 2, GWEI / 2));
    }

    #[test]
    fn priced_out_when_base_and_priority_fee_exceed_the_max_fee() {
        let market = Market {
            base_fee: 10 * GWEI,
            priority_fee: GWEI,
        };
        assert!(market.outprices(fees(11 * GWEI - 1, GWEI)));
        assert!(!market.outprices(fees(11 * GWEI, GWEI)));
    }

    #[test]
    fn a_replacement_clears_the_base_fee_and_raises_both_fees_by_a_tenth() {
        let market = Market {
            base_fee: 40 * GWEI,
            priority_fee: GWEI,
        };
        let signed = fees(21 * GWEI, 3 * GWEI);
        assert_eq!(
            market.replacement(signed, 1_000 * GWEI),
            Replacement::Bid(fees(81 * GWEI, 3 * GWEI + 3 * GWEI / 10))
        );
        // A market below the transaction's own fees: the nodes' raise alone.
        let calm = Market {
            base_fee: 1,
            priority_fee: 1,
        };
        assert_eq!(
            calm.replacement(fees(100, 10), 1_000),
            Replacement::Bid(fees(110, 11))
        );
        // Tiny fees still rise by a wei.
        assert_eq!(
            calm.replacement(fees(3, 1), 1_000),
            Replacement::Bid(fees(4, 2))
        );
    }

    #[test]
    fn a_replacement_stops_at_the_cap() {
        let spike = Market {
            base_fee: 500 * GWEI,
            priority_fee: GWEI,
        };
        let signed = fees(21 * GWEI, GWEI);
        // Room for the raise: the cap, not the market.
        assert_eq!(
            spike.replacement(signed, 50 * GWEI),
            Replacement::Bid(fees(50 * GWEI, GWEI + GWEI / 10))
        );
        // No room for a tenth more: it waits.
        assert_eq!(
            spike.replacement(fees(50 * GWEI, GWEI), 50 * GWEI),
            Replacement::AtCap
        );
        assert_eq!(
            spike.replacement(signed, 23 * GWEI),
            Replacement::AtCap,
            "23 is below 21 raised by a tenth"
        );
    }

    #[test]
    fn replacements_are_bounded_by_the_cap() {
        let spike = Market {
            base_fee: u128::MAX / 4,
            priority_fee: GWEI,
        };
        let cap = 100 * GWEI;
        let mut signed = fees(GWEI, GWEI / 100);
        let mut replacements = 0;
        while let Replacement::Bid(next) = spike.replacement(signed, cap) {
            assert!(next.max_fee_per_gas <= cap && next.max_fee_per_gas > signed.max_fee_per_gas);
            signed = next;
            replacements += 1;
        }
        assert_eq!(replacements, 1, "straight to the cap, then it waits");
    }
}
