//! The arcade's HTTP service: rounds, games, ledger and identity over SQLite or PostgreSQL, and
//! chip purchases over x402 settled on an EVM chain.
//! `main.rs` is a thin command line over [`startup::Application`].

// Error values are built once per refused request, never on a hot path; boxing them buys nothing.
#![allow(clippy::result_large_err)]

pub mod address;
pub mod api;
pub mod chain;
pub mod dev;
pub mod doctor;
pub mod entry_points;
pub mod error;
pub mod faults;
pub mod housebots;
pub mod identity;
pub mod inputs;
#[cfg(test)]
mod layering;
pub mod mcp;
pub mod proofs;
pub mod public_url;
pub mod rate_limits;
pub mod refusal;
pub mod secrets;
pub mod service;
pub mod settings;
pub mod signatures;
pub mod siwx;
pub mod startup;
pub mod store;
pub mod telemetry;
pub mod tiers;
pub mod x402;

/// The allocator of every binary built on this crate (the server, its tests and benchmarks):
/// a request allocates many small JSON values, which glibc's allocator serves slowly.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The tables' row types (tests read rows directly).
pub use store::entities;
