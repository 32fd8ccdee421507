//! SHA-256 over a message given in parts: the one place the commitment and the Merkle tree
//! hash (one copy of the hashing code where it is compiled for size, as in the wasm verifier).

use sha2::{Digest, Sha256};

/// `SHA-256(parts[0] ‖ parts[1] ‖ …)`.
#[inline(never)]
pub(crate) fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    hasher.finalize().into()
}
