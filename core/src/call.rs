//! The games, a player's call on one of them and the outcome drawn for it: one variant per
//! entry of the list of games (`lib.rs`), each dispatching to its game's [`GameRules`].

use crate::description::Description;
use crate::game::{GameRules, SignedCall};
use crate::payout::WinReturn;

macro_rules! games_calls_and_outcomes {
    ($($(#[$doc:meta])* $module:ident :: $Rules:ident,)*) => {
        /// Every game.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Game {
            $($(#[$doc])* $Rules,)*
        }

        impl Game {
            /// Every game, in the order of the list of games.
            pub const ALL: [Game; [$(Game::$Rules),*].len()] = [$(Self::$Rules),*];

            /// Every game's name, in the same order.
            pub const NAMES: [&'static str; Game::ALL.len()] =
                [$(<crate::$module::$Rules as GameRules>::NAME),*];

            /// The game's name: `"coinflip"`, `"dice"`, ….
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$Rules => <crate::$module::$Rules as GameRules>::NAME,)*
                }
            }

            /// `N`: how many equally likely outcomes the game has.
            pub fn outcomes(self) -> u64 {
                match self {
                    $(Self::$Rules => <crate::$module::$Rules as GameRules>::OUTCOMES,)*
                }
            }

            /// The number `u_0` maps to before the outcome is read from it.
            pub fn drawn(self, u0: u32) -> u64 {
                match self {
                    $(Self::$Rules => <crate::$module::$Rules as GameRules>::drawn(u0),)*
                }
            }

            /// The game described as data.
            pub fn description(self) -> &'static Description {
                match self {
                    $(Self::$Rules => &<crate::$module::$Rules as GameRules>::DESCRIPTION,)*
                }
            }
        }

        /// Every game's description, in the order of the list of games.
        pub const GAMES: [Description; Game::ALL.len()] =
            [$(<crate::$module::$Rules as GameRules>::DESCRIPTION),*];

        /// What the player bets on.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Call {
            $(
                #[doc = concat!(
                    "A call of [`", stringify!($module), "`](crate::", stringify!($module), ")."
                )]
                $Rules(<crate::$module::$Rules as GameRules>::Call),
            )*
        }

        impl Call {
            /// The game this call is for.
            pub fn game(&self) -> Game {
                match self {
                    $(Self::$Rules(_) => Game::$Rules,)*
                }
            }

            /// Whether `outcome` wins this call (an outcome of another game never does).
            pub fn wins(&self, outcome: Outcome) -> bool {
                match (self, outcome) {
                    $((Self::$Rules(call), Outcome::$Rules(drawn)) => {
                        <crate::$module::$Rules as GameRules>::wins(call, drawn)
                    })*
                    // Every pairing of a call with its own game's outcome is above; what is
                    // left pairs it with another game's.
                    (call, drawn) => {
                        debug_assert_ne!(call.game(), drawn.game());
                        false
                    }
                }
            }

            /// `W`: winning outcomes of the game's `N`.
            pub fn winning_count(&self) -> u64 {
                match self {
                    $(Self::$Rules(call) => {
                        <crate::$module::$Rules as GameRules>::winning_count(call)
                    })*
                }
            }

            /// The exact return of a win on `wager`.
            pub fn win_return(&self, wager: u64) -> WinReturn {
                match self {
                    $(Self::$Rules(call) => {
                        <crate::$module::$Rules as GameRules>::win_return(call, wager)
                    })*
                }
            }

            /// The exact return of a win on `wager` when its game's receipts show it.
            pub fn shown_return(&self, wager: u64) -> Option<WinReturn> {
                match self {
                    $(Self::$Rules(call) => {
                        <crate::$module::$Rules as GameRules>::RECEIPT_SHOWS_RETURN
                            .then(|| <crate::$module::$Rules as GameRules>::win_return(call, wager))
                    })*
                }
            }

            /// The fields of this call that the signed `Receipt` and `Play` carry.
            pub fn signed(&self) -> SignedCall {
                match self {
                    $(Self::$Rules(call) => {
                        <crate::$module::$Rules as GameRules>::signed_call(call)
                    })*
                }
            }
        }

        /// What was drawn.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Outcome {
            $(
                #[doc = concat!(
                    "An outcome of [`", stringify!($module), "`](crate::", stringify!($module), ")."
                )]
                $Rules(<crate::$module::$Rules as GameRules>::Outcome),
            )*
        }

        impl Outcome {
            /// The game this outcome is of.
            pub fn game(&self) -> Game {
                match self {
                    $(Self::$Rules(_) => Game::$Rules,)*
                }
            }
        }
    };
}

for_each_game!(games_calls_and_outcomes);

impl Description {
    /// The description of the game named `name`.
    pub fn of(name: &str) -> Option<&'static Description> {
        Game::parse(name).map(Game::description)
    }
}

impl Game {
    /// Parses a game name exactly.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.as_str() == text)
    }
}

impl Call {
    /// The largest profit a win on `wager` can pay: `ceil(R) - wager`.
    pub fn potential_profit(&self, wager: u64) -> u128 {
        self.win_return(wager).ceil() - u128::from(wager)
    }
}
