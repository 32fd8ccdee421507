//! Settling one round: seeds, call and wager in; draws, outcome and payout out.

use crate::call::{Call, Game, Outcome};
use crate::error::ReceiptError;
use crate::game::GameRules;
use crate::payout::WinReturn;
use crate::seed::{ClientSeed, ServerSeed};
use crate::stream::{ByteStream, Draws};

/// Arcade rounds always use nonce 0: every round has its own server seed.
pub const ARCADE_NONCE: u64 = 0;

/// Wagers above this cannot be settled (the limits sit far below it). Nor can a wager whose
/// win would return more than `i64::MAX` chips (a limbo target near its top on a wager near
/// this bound): every payout and profit stays inside `u64`/`i64`.
pub const MAX_SETTLEABLE_WAGER: u64 = 1 << 48;

/// Everything that decides a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Round<'a> {
    server_seed: ServerSeed<'a>,
    client_seed: ClientSeed<'a>,
    nonce: u64,
    call: Call,
    wager: u64,
}

impl<'a> Round<'a> {
    /// A round on validated seeds; the wager must be 1 ..= [`MAX_SETTLEABLE_WAGER`].
    pub fn new(
        server_seed: ServerSeed<'a>,
        client_seed: ClientSeed<'a>,
        nonce: u64,
        call: Call,
        wager: u64,
    ) -> Result<Self, ReceiptError> {
        let fits = |wager| call.win_return(wager).ceil() <= i64::MAX as u128;
        if !(1..=MAX_SETTLEABLE_WAGER).contains(&wager) || !fits(wager) {
            return Err(ReceiptError::WagerOutOfRange { wager });
        }
        Ok(Self {
            server_seed,
            client_seed,
            nonce,
            call,
            wager,
        })
    }

    /// The byte stream this round draws from.
    pub fn stream(&self) -> ByteStream<'a> {
        ByteStream::new(
            self.server_seed.as_str().as_bytes(),
            self.client_seed.as_str(),
            self.nonce,
        )
    }

    /// Draws the outcome and settles the payout.
    pub fn settle(&self) -> Settlement {
        let draws = Draws::from_stream(&self.stream());
        let result = GameResult::draw(&self.call, draws.u0);
        let outcome = result.outcome();
        let won = self.call.wins(outcome);
        let payout = if won {
            // `new` refused a wager whose win could return more than i64::MAX, so this fits.
            u64::try_from(self.call.win_return(self.wager).payout(draws.u1)).unwrap_or(u64::MAX)
        } else {
            0
        };
        let profit = i64::try_from(i128::from(payout) - i128::from(self.wager)).unwrap_or(i64::MIN);
        Settlement {
            call: self.call,
            wager: self.wager,
            draws,
            outcome,
            result,
            won,
            payout,
            profit,
        }
    }
}

/// A settled round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settlement {
    /// The call that was played.
    pub call: Call,
    /// Chips wagered.
    pub wager: u64,
    /// The draws `u_0`, `u_1` and the block they came from.
    pub draws: Draws,
    /// What was drawn.
    pub outcome: Outcome,
    /// The outcome as receipts show it.
    pub result: GameResult,
    /// Whether the call won.
    pub won: bool,
    /// Chips credited back, wager included; 0 on a loss.
    pub payout: u64,
    /// `payout - wager`.
    pub profit: i64,
}

impl Settlement {
    /// The exact return a win on this call and wager pays, `a / b` chips.
    pub fn win_return(&self) -> WinReturn {
        self.call.win_return(self.wager)
    }

    /// Whether the fractional chip was paid: a win whose `u_1` draw falls under it.
    pub fn bonus_chip(&self) -> bool {
        self.won && self.win_return().bonus(self.draws.u1)
    }
}

macro_rules! game_results {
    ($($(#[$doc:meta])* $module:ident :: $Rules:ident,)*) => {
        /// The result object of a receipt.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum GameResult {
            $(
                #[doc = concat!(
                    "A result of [`", stringify!($module), "`](crate::", stringify!($module), ")."
                )]
                $Rules(<crate::$module::$Rules as GameRules>::Result),
            )*
        }

        impl GameResult {
            /// The result `u_0` draws for `call`.
            pub fn draw(call: &Call, u0: u32) -> Self {
                match call {
                    $(Call::$Rules(call) => {
                        Self::$Rules(<crate::$module::$Rules as GameRules>::draw(call, u0))
                    })*
                }
            }

            /// The bare outcome.
            pub fn outcome(&self) -> Outcome {
                match self {
                    $(Self::$Rules(result) => {
                        Outcome::$Rules(<crate::$module::$Rules as GameRules>::outcome(result))
                    })*
                }
            }

            /// The game this result is of.
            pub fn game(&self) -> Game {
                match self {
                    $(Self::$Rules(_) => Game::$Rules,)*
                }
            }

            /// The `outcome` field of the signed `Receipt`.
            pub fn signed_outcome(&self) -> u64 {
                match self {
                    $(Self::$Rules(result) => {
                        <crate::$module::$Rules as GameRules>::signed_outcome(result)
                    })*
                }
            }
        }
    };
}

for_each_game!(game_results);
