//! The two pockets of a balance: paid chips (bought; what a cashout may take) and free chips
//! (granted; play money). The balance is their sum. Purchases and cashout refunds fill the paid
//! pocket, the free grant fills the free pocket, a cashout empties the paid pocket only, and a
//! wager moves between them by this rule:
//!
//! ```text
//! stake:  from_free  = min(free, wager)                     from_paid  = wager - from_free
//! payout: free_share = ceil(payout * from_free / wager)     paid_share = payout - free_share
//! ```
//!
//! Free chips are staked first, and a win goes back to each pocket in proportion to what that
//! pocket staked, the free pocket's share rounded up.
//!
//! # Why no strategy turns free chips into cash in expectation
//!
//! Write `w` for the wager, `p = from_paid` and `X` for the payout (a random variable: 0 on a
//! loss, the win's whole chips on a win). Rounding the free share up rounds the paid share down:
//!
//! ```text
//! paid_share = X - ceil(X * (w - p) / w)  <=  X - X * (w - p) / w  =  X * p / w
//! ```
//!
//! so `E[paid_share] <= E[X] * p / w`. Every game's exact return is at most 100% of the wager,
//! `E[X] <= w`: coinflip and dice return 99% (coinflip's `u_0` map is exactly 1/2 each way;
//! dice's and roulette's give each of their 10001 or 37 outcomes `floor` or `ceil` of
//! `2^32 / N` of the `u_0` values, which moves a win chance by a factor of at most
//! `1 + N / 2^32`), roulette returns 36/37, and the fractional chip drawn from `u_1` adds less
//! than 2^-32 chip to a win (`payout.rs`). Hence `E[paid_share] <= p`: the cashable value
//! after a wager, `paid - p + paid_share`, is in expectation at most the paid pocket before it.
//! The paid pocket is a supermartingale under any choice of calls, wagers and stopping times,
//! and nothing else moves chips from the free pocket to the paid one, so the cash an address
//! can take out is in expectation at most what it paid in, however it plays.

use crate::error::PocketError;

/// How a wager is taken from the two pockets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stake {
    wager: u64,
    from_free: u64,
}

impl Stake {
    /// A wager of `wager` chips from a balance whose free pocket holds `free`: the free chips
    /// go first. (That the whole balance covers the wager is the caller's check.)
    pub fn take(free: u64, wager: u64) -> Result<Self, PocketError> {
        Self::new(wager, free.min(wager))
    }

    /// A stake as recorded: `from_free` of the `wager` chips were free ones.
    pub fn new(wager: u64, from_free: u64) -> Result<Self, PocketError> {
        if wager == 0 {
            return Err(PocketError::ZeroWager);
        }
        if from_free > wager {
            return Err(PocketError::FreeAboveWager { from_free, wager });
        }
        Ok(Self { wager, from_free })
    }

    /// Chips wagered.
    pub fn wager(&self) -> u64 {
        self.wager
    }

    /// Chips of the wager taken from the free pocket.
    pub fn from_free(&self) -> u64 {
        self.from_free
    }

    /// Chips of the wager taken from the paid pocket.
    pub fn from_paid(&self) -> u64 {
        self.wager - self.from_free
    }

    /// How `payout` (wager included; 0 on a loss) goes back to the pockets: in proportion to
    /// their stakes, the free pocket's share rounded up.
    pub fn split(&self, payout: u64) -> Shares {
        let scaled = u128::from(payout) * u128::from(self.from_free);
        // `from_free <= wager`, so the share is at most `payout` and fits.
        let free = u64::try_from(scaled.div_ceil(u128::from(self.wager))).unwrap_or(payout);
        Shares {
            free,
            paid: payout - free,
        }
    }
}

/// A payout split between the pockets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shares {
    /// Chips credited to the free pocket (play money).
    pub free: u64,
    /// Chips credited to the paid pocket (cashable).
    pub paid: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_chips_are_staked_first() {
        let all_free = Stake::take(100, 60).unwrap();
        assert_eq!((all_free.from_free(), all_free.from_paid()), (60, 0));
        let mixed = Stake::take(100, 200).unwrap();
        assert_eq!((mixed.from_free(), mixed.from_paid()), (100, 100));
        let all_paid = Stake::take(0, 7).unwrap();
        assert_eq!((all_paid.from_free(), all_paid.from_paid()), (0, 7));
    }

    #[test]
    fn a_win_goes_back_in_proportion_with_the_free_share_rounded_up() {
        // 100 paid + 100 free on a coin flip: 396 back, half each.
        let mixed = Stake::take(100, 200).unwrap();
        assert_eq!(
            mixed.split(396),
            Shares {
                free: 198,
                paid: 198
            }
        );
        // 1 free of 3: a payout of 5 splits 5/3 = 1.67 free, rounded up to 2.
        let third = Stake::new(3, 1).unwrap();
        assert_eq!(third.split(5), Shares { free: 2, paid: 3 });
        // One free chip of a hundred still takes a chip of any payout.
        assert_eq!(
            Stake::new(100, 1).unwrap().split(1),
            Shares { free: 1, paid: 0 }
        );
        assert_eq!(
            Stake::take(7, 7).unwrap().split(13),
            Shares { free: 13, paid: 0 }
        );
        assert_eq!(
            Stake::take(0, 7).unwrap().split(13),
            Shares { free: 0, paid: 13 }
        );
        assert_eq!(mixed.split(0), Shares { free: 0, paid: 0 });
    }

    #[test]
    fn the_paid_share_never_exceeds_the_paid_stakes_proportion() {
        for wager in 1..=40u64 {
            for from_free in 0..=wager {
                let stake = Stake::new(wager, from_free).unwrap();
                for payout in 0..=(36 * wager + 1) {
                    let shares = stake.split(payout);
                    assert_eq!(shares.free + shares.paid, payout);
                    assert!(
                        u128::from(shares.paid) * u128::from(wager)
                            <= u128::from(payout) * u128::from(stake.from_paid()),
                        "{wager} {from_free} {payout}"
                    );
                    // And by less than one chip: the rounding is the only thing taken.
                    assert!(
                        (u128::from(shares.paid) + 1) * u128::from(wager)
                            > u128::from(payout) * u128::from(stake.from_paid())
                    );
                }
            }
        }
    }

    #[test]
    fn bad_stakes_are_refused() {
        assert_eq!(Stake::take(5, 0), Err(PocketError::ZeroWager));
        assert_eq!(
            Stake::new(3, 4),
            Err(PocketError::FreeAboveWager {
                from_free: 4,
                wager: 3
            })
        );
    }

    #[test]
    fn the_largest_values_do_not_overflow() {
        let stake = Stake::new(u64::MAX, u64::MAX - 1).unwrap();
        let shares = stake.split(u64::MAX);
        assert_eq!(
            shares,
            Shares {
                free: u64::MAX - 1,
                paid: 1
            }
        );
    }
}
