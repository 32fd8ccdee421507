//! The exports: each reads its texts, calls the core or the signature checks, and hands the
//! answer over (see the crate's table). The `*_of` functions are the same calls on Rust
//! strings, for the host-independent tests.

use arcade_core::wire::{ReceiptInput, VerificationView};
use arcade_core::{Game, Receipt, ServerSeed, merkle};
use arcade_proofs as proofs;
use serde_json::{Value, json};

use crate::answer::{Failure, of_json, of_value};
use crate::memory::{hand_over, text};

/// Defines an export taking two texts `(a, b)` and answering the envelope of `$body`.
macro_rules! export {
    ($(#[$doc:meta])* $name:ident => |$a:ident, $b:ident| $wrap:ident($body:expr)) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// Each `(pointer, length)` is a text the host wrote into a block from `alloc`, or `(0, 0)`.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(a_ptr: *const u8, a_len: usize, b_ptr: *const u8, b_len: usize) -> u64 {
            let run = || {
                #[allow(unused_variables)]
                let ($a, $b) = (text(a_ptr, a_len)?, text(b_ptr, b_len)?);
                $body
            };
            hand_over($wrap(run()))
        }
    };
}

export!(
    /// The core's verification report of a receipt (JSON).
    verify_receipt => |a, b| of_json(verify_receipt_of(a))
);
export!(
    /// The core's games, in its order.
    games => |a, b| of_value(Ok(json!(Game::NAMES)))
);
export!(
    /// The fairness version the core implements.
    fairness_version => |a, b| of_value(Ok(json!(arcade_core::FAIRNESS_VERSION)))
);
export!(
    /// The commitment of a server seed (64 hex characters).
    commitment => |a, b| of_value(commitment_of(a))
);
export!(
    /// Whether a commitment is leaf `index` of a batch under `merkle_root`, by its audit path.
    verify_inclusion => |a, b| of_value(verify_inclusion_of(a))
);
export!(
    /// The RFC 9162 root over commitments in index order (a JSON array of hex texts).
    merkle_root => |a, b| of_value(merkle_root_of(a))
);
export!(
    /// The Commitment, Receipt and Play messages a receipt calls for, under the marks (or `null`).
    expected_receipt_messages => |a, b| of_json(Ok(proofs::expected_receipt_messages_json(a, marks(b))?))
);
export!(
    /// The Commitment message of a commit answer, or `{unsigned: true}`.
    expected_commit_message => |a, b| of_json(Ok(proofs::expected_commit_message_json(a)?))
);
export!(
    /// The SeedBatch message of a published batch.
    expected_seed_batch_message => |a, b| of_json(Ok(proofs::expected_seed_batch_message_json(a)?))
);
export!(
    /// The SignedMarks message of an answer that publishes the marks.
    expected_signed_marks_message => |a, b| of_json(Ok(proofs::expected_signed_marks_message_json(a)?))
);
export!(
    /// The EIP-712 signing hash of typed data.
    typed_data_hash => |a, b| of_value(Ok(json!(proofs::typed_data_hash_json(a)?)))
);
export!(
    /// The address that signed typed data (`a`) with a signature (`b`, `0x` + 65 bytes hex).
    recover_typed_data_signer => |a, b| of_value(Ok(json!(proofs::recover_typed_data_signer_json(a, b)?)))
);
export!(
    /// A signed object against an expectation: `{valid, recovered, problems}`.
    check_signed => |a, b| of_json(Ok(proofs::check_signed_json(a, b)?))
);
export!(
    /// The Play typed data of a call in a signing domain.
    play_typed_data => |a, b| of_json(Ok(proofs::play_typed_data_json(a, b)?))
);
export!(
    /// The member lists of the signed types.
    signed_types => |a, b| of_json(Ok(proofs::signed_types_json()))
);

/// Absent marks: an empty text or `null`.
fn marks(text: &str) -> Option<&str> {
    (!text.is_empty() && text.trim() != "null").then_some(text)
}

/// The core's report of a receipt (JSON text).
pub fn verify_receipt_of(receipt: &str) -> Result<String, Failure> {
    let input: ReceiptInput = serde_json::from_str(receipt)
        .map_err(|e| Failure::input(format_args!("not a receipt: {e}")))?;
    let server_seed = input.server_seed.clone();
    let verification = arcade_core::verify(&Receipt::try_from(input)?)?;
    let view = VerificationView {
        verification: &verification,
        server_seed: &server_seed,
    };
    serde_json::to_string(&view).map_err(Failure::input)
}

/// The commitment of a server seed.
pub fn commitment_of(seed: &str) -> Result<Value, Failure> {
    let seed = ServerSeed::parse(seed).map_err(|e| Failure {
        code: e.code(),
        message: e.to_string(),
    })?;
    Ok(json!(seed.commitment().as_str()))
}

/// 32 bytes from 64 hex characters, or an error naming `what`.
fn digest(value: &Value, what: &str) -> Result<[u8; 32], Failure> {
    value
        .as_str()
        .and_then(arcade_core::hex::decode32)
        .ok_or_else(|| Failure::input(format_args!("{what}: not 64 hex characters")))
}

/// An integer field of a JSON object.
fn integer(object: &Value, field: &str) -> Result<u64, Failure> {
    object[field]
        .as_u64()
        .ok_or_else(|| Failure::input(format_args!("{field}: not a non-negative integer")))
}

/// Whether the commitment is included (`{commitment, index, size, audit_path, merkle_root}`).
pub fn verify_inclusion_of(proof: &str) -> Result<Value, Failure> {
    let proof: Value = serde_json::from_str(proof)
        .map_err(|e| Failure::input(format_args!("the proof is not JSON: {e}")))?;
    let commitment = digest(&proof["commitment"], "commitment")?;
    let root = digest(&proof["merkle_root"], "merkle_root")?;
    let path = proof["audit_path"]
        .as_array()
        .ok_or_else(|| Failure::input("audit_path: not an array"))?
        .iter()
        .map(|hash| digest(hash, "audit_path"))
        .collect::<Result<Vec<_>, _>>()?;
    let (index, size) = (integer(&proof, "index")?, integer(&proof, "size")?);
    let leaf = merkle::leaf_hash(&commitment);
    Ok(json!(merkle::verify_inclusion(
        index, size, &leaf, &path, &root
    )))
}

/// The root over commitments (a JSON array of hex texts), in index order.
pub fn merkle_root_of(commitments: &str) -> Result<Value, Failure> {
    let list: Vec<Value> = serde_json::from_str(commitments)
        .map_err(|e| Failure::input(format_args!("the commitments are not a JSON array: {e}")))?;
    let leaves = list
        .iter()
        .map(|c| digest(c, "commitment").map(|d| merkle::leaf_hash(&d)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(json!(arcade_core::hex::encode(
        &merkle::Tree::new(leaves).root()
    )))
}
