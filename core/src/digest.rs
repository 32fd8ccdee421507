//! SHA-256 and HMAC-SHA256 over a message given in parts: the one place the commitment, the
//! byte stream and the Merkle tree hash, so that a build for size (the wasm verifier) holds one
//! copy of the hashing code. HMAC is RFC 2104 written out over sha2; the property tests hold
//! it equal to RustCrypto's `hmac` for keys shorter and longer than the block.

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

/// HMAC-SHA256 (RFC 2104) of the message `parts[0] ‖ parts[1] ‖ …` under `key`.
pub(crate) fn hmac_sha256(key: &[u8], parts: &[&[u8]; 5]) -> [u8; 32] {
    // A key longer than the 64-byte block is hashed first; a shorter one is padded with zeros.
    let mut block = [0u8; 64];
    if key.len() > block.len() {
        block[..32].copy_from_slice(&sha256(&[key]));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let inner_pad = block.map(|byte| byte ^ 0x36);
    let outer_pad = block.map(|byte| byte ^ 0x5c);
    let [a, b, c, d, e] = *parts;
    let inner = sha256(&[&inner_pad, a, b, c, d, e]);
    sha256(&[&outer_pad, &inner])
}
