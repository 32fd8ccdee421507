//! What the house signs and how its seeds are fixed in advance (`docs/proofs.md`): EIP-712
//! typed data for commitments, receipts and seed batches (`typed.rs`) and the same hashes for
//! the hot paths (`hashes.rs`), both from the `sol!` declarations of `arcade-signed-types`, the
//! player's `Play` signature (`play.rs`), the signing key (`signer.rs`) and a thread signing
//! beside its caller (`signing_thread.rs`), and the seed batches derived from a secret, with
//! their Merkle trees (`seeds.rs`). No database, no clock.

pub mod hashes;
pub mod play;
mod seeds;
mod signer;
mod signing_thread;
pub mod typed;

pub use seeds::{BatchKey, SeedBook, seed_of};
pub use signer::{DOMAIN_NAME, HouseSigner, SigningError, signing_domain};
pub use signing_thread::{SigningThread, sign_all};
