//! The arcade's verifiers as a plain wasm module: no wasm-bindgen, no imports, so any wasm
//! runtime (wasmtime from Python, Go, .NET, …) can call it. The fairness core
//! (`arcade_core::verify`, the Merkle proofs) and the signature checks (`arcade_proofs`) are
//! the same Rust functions the JavaScript modules `arcade-wasm` and `arcade-proofs` call.
//!
//! Calling convention, for every function but [`alloc`] and [`dealloc`]:
//! - in: up to two UTF-8 texts, each written by the host into memory it got from `alloc`, passed
//!   as `(pointer, length)`; an unused argument is `(0, 0)`. The host frees them afterwards;
//! - out: one `u64`, the answer's pointer in the high 32 bits and its length in the low ones;
//!   the answer is JSON text, `{"ok": value}` or `{"error": {"code", "message"}}`, and the host
//!   frees it with `dealloc(pointer, length)`.
//!
//! | export | arguments | `ok` |
//! |---|---|---|
//! | `verify_receipt` | receipt | the core's report: `verified`, `checks`, `derived`, `trace`, `mismatches` |
//! | `games` | | the core's games, in order |
//! | `fairness_version` | | the fairness version the core implements |
//! | `commitment` | server seed (text) | its commitment |
//! | `verify_inclusion` | `{commitment, index, size, audit_path, merkle_root}` | true or false |
//! | `merkle_root` | commitments, in index order | the root |
//! | `expected_receipt_messages` | receipt, marks or `null` | the messages its proofs sign |
//! | `expected_commit_message` | commit answer | its Commitment message |
//! | `expected_seed_batch_message` | a published batch | its SeedBatch message |
//! | `expected_signed_marks_message` | an answer publishing the marks | their message |
//! | `typed_data_hash` | typed data | the EIP-712 hash |
//! | `recover_typed_data_signer` | typed data, signature (text) | the signer's address |
//! | `check_signed` | signed object, expectation | `{valid, recovered, problems}` |
//! | `play_typed_data` | call, signing domain | the Play typed data the player signs |
//! | `signed_types` | | the signed types' member lists |
#![warn(missing_docs)]
#![allow(unsafe_code)] // the host's memory handed over as raw pointers: alloc, dealloc, text

mod answer;
mod exports;
mod memory;

pub use answer::Failure;
pub use exports::*;
pub use memory::{alloc, dealloc};
