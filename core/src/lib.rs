//! The arcade's fairness algorithm, version 1: the one implementation that the server settles
//! rounds with and that the wasm verifier re-derives them with.
//!
//! Pure functions over plain data: seeds, calls and wagers in; outcomes, payouts and errors out.
//! No clock, randomness, IO or allocation on the settlement path beyond what receipts need.
//!
//! ```
//! use arcade_core::{Call, ClientSeed, Round, ServerSeed, Side};
//! let seed = ServerSeed::parse("8f3c1e7a0b2d4c6e8f1a3b5c7d9e0f2a4b6c8d0e1f3a5b7c9d1e3f5a7b9c0d2e")?;
//! let round = Round::new(seed, ClientSeed::parse("my lucky seed")?, 0, Call::Coinflip(Side::Heads), 10)?;
//! let settled = round.settle();
//! assert_eq!(settled.profit, settled.payout as i64 - 10);
//! # Ok::<(), arcade_core::ReceiptError>(())
//! ```
#![no_std]
#![warn(missing_docs)]

extern crate alloc;

/// The one list of games: each entry names a game's module and the type in it that implements
/// [`GameRules`], in the order games are listed everywhere. Every enum and input that names
/// the games is written out from it (`call.rs`, `round.rs`, `wire.rs`, `verify.rs` pass their
/// own macro as `$then`), so a game is its module, its `mod` line below and its entry here.
macro_rules! for_each_game {
    ($then:ident) => {
        $then! {
            /// Heads or tails.
            coinflip::Coinflip,
            /// Under or over a target on 0.00 ..= 100.00.
            dice::Dice,
            /// European single-zero roulette.
            roulette::Roulette,
            /// A multiplier drawn from 1.00 to 1000000.00, called by a target it must reach.
            limbo::Limbo,
        }
    };
}

pub mod coinflip;
pub mod dice;
pub mod limbo;
pub mod roulette;

mod call;
pub mod description;
mod digest;
mod error;
mod game;
pub mod hex;
mod limits;
pub mod merkle;
mod mismatch;
mod payout;
pub mod pockets;
mod round;
mod seed;
mod stream;
mod verify;
pub mod wire;

pub use call::{Call, GAMES, Game, Outcome};
pub use coinflip::Side;
pub use description::Description;
pub use dice::{ClaimedRoll, DiceCall, Direction, Roll, Schedule};
pub use error::{CallError, LimitError, PocketError, ReceiptError, SeedError};
pub use game::{FromWire, GameRules, SignedCall, ToWire};
pub use limbo::{LimboCall, LimboResult};
pub use limits::{Limits, MIN_WAGER};
pub use mismatch::{Check, Mismatch};
pub use payout::WinReturn;
pub use pockets::{Shares, Stake};
pub use roulette::{BetKind, Color, RouletteBet};
pub use round::{ARCADE_NONCE, GameResult, MAX_SETTLEABLE_WAGER, Round, Settlement};
pub use seed::{
    ClientSeed, Commitment, MAX_CLIENT_SEED_CHARS, SERVER_SEED_LEN, ServerSeed,
    server_seed_from_bytes,
};
pub use stream::{BLOCK_LEN, ByteStream, Draws};
pub use verify::{Checks, Claimed, ClaimedResult, FAIRNESS_VERSION, Receipt, Verification, verify};
