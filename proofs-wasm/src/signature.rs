//! Recovering the address that signed a hash, and EIP-55 checksums.
//!
//! A signature is 65 bytes `r ‖ s ‖ v`, `0x` hex, `v` 27/28 (or 0/1). A high `s` (above
//! n/2, which Ethereum transactions refuse since EIP-2 but `ecrecover` and viem accept) is
//! accepted: `(r, s, v)` and `(r, n - s, v ^ 1)` name the same signer.
//!
//! Recovery is ECDSA public-key recovery on secp256k1 with k256's arithmetic (no signing or
//! DER code in the module): `Q = r⁻¹ (s·R − z·G)`, `R` the point with x = `r` and the parity
//! `v` names, `z` the hash reduced mod n.

use k256::elliptic_curve::ff::PrimeField;
use k256::elliptic_curve::ops::{Invert, LinearCombination, Reduce};
use k256::elliptic_curve::point::DecompressPoint;
use k256::elliptic_curve::sec1::ToEncodedPoint;
use k256::elliptic_curve::subtle::Choice;
use k256::elliptic_curve::{Group, bigint::U256};
use k256::{AffinePoint, FieldBytes, ProjectivePoint, Scalar};

use crate::eip712::{from_hex, keccak, to_hex};
use crate::error::Error;

/// 32 bytes as k256 takes them.
fn field_bytes(part: &[u8]) -> FieldBytes {
    let mut bytes = [0u8; 32];
    bytes.copy_from_slice(part);
    FieldBytes::from(bytes)
}

/// The address (20 bytes) whose key signed `hash`.
pub fn recover(hash: &[u8; 32], signature: &str) -> Result<[u8; 20], Error> {
    let bytes = from_hex(signature).map_err(|e| Error::signature(e.message))?;
    if bytes.len() != 65 {
        return Err(Error::signature(format!(
            "the signature is {} bytes, not 65 (r ‖ s ‖ v)",
            bytes.len()
        )));
    }
    let y_odd = match bytes[64] {
        0 | 27 => false,
        1 | 28 => true,
        v => {
            return Err(Error::signature(format!(
                "the signature's v is {v}, not 27 or 28"
            )));
        }
    };
    let scalar = |part: &[u8]| -> Option<Scalar> {
        let scalar: Option<Scalar> = Scalar::from_repr(field_bytes(part)).into();
        scalar.filter(|s| !bool::from(s.is_zero()))
    };
    let (Some(r), Some(s)) = (scalar(&bytes[..32]), scalar(&bytes[32..64])) else {
        return Err(Error::signature(
            "the signature's r or s is zero or not below the curve order",
        ));
    };
    let big_r: Option<AffinePoint> =
        AffinePoint::decompress(&field_bytes(&bytes[..32]), Choice::from(u8::from(y_odd))).into();
    let big_r = big_r.ok_or_else(|| Error::signature("the signature's r is not on the curve"))?;
    let z = <Scalar as Reduce<U256>>::reduce_bytes(&FieldBytes::from(*hash));
    let r_inv: Option<Scalar> = r.invert_vartime().into();
    let r_inv = r_inv.ok_or_else(|| Error::signature("the signature's r is zero"))?;
    let key = ProjectivePoint::lincomb(
        &ProjectivePoint::GENERATOR,
        &-(r_inv * z),
        &ProjectivePoint::from(big_r),
        &(r_inv * s),
    );
    if bool::from(key.is_identity()) {
        return Err(Error::signature(
            "no public key recovers from this signature",
        ));
    }
    Ok(address_of(&key.to_affine()))
}

/// The Ethereum address of a public key: the last 20 bytes of keccak256 of its 64-byte form.
pub fn address_of(key: &AffinePoint) -> [u8; 20] {
    let point = key.to_encoded_point(false);
    let hash = keccak(&point.as_bytes()[1..]);
    let mut address = [0u8; 20];
    address.copy_from_slice(&hash[12..]);
    address
}

/// EIP-55: `0x` + hex with letters uppercased where the keccak of the lowercase hex has a
/// nibble of 8 or more.
pub fn checksum(address: &[u8; 20]) -> String {
    let lower = to_hex(address);
    let hash = keccak(lower.as_bytes());
    let mut out = String::with_capacity(42);
    out.push_str("0x");
    for (i, c) in lower.chars().enumerate() {
        let byte = hash[i / 2];
        let nibble = if i.is_multiple_of(2) {
            byte >> 4
        } else {
            byte & 15
        };
        out.push(if nibble >= 8 {
            c.to_ascii_uppercase()
        } else {
            c
        });
    }
    out
}

/// Parses an address (`0x` + 40 hex, any case).
pub fn parse_address(text: &str) -> Option<[u8; 20]> {
    from_hex(text).ok()?.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use k256::ecdsa::{Signature, SigningKey};

    fn address(key: &SigningKey) -> [u8; 20] {
        address_of(key.verifying_key().as_affine())
    }

    fn key() -> SigningKey {
        SigningKey::from_slice(&keccak(b"cow")).unwrap()
    }

    fn sign(key: &SigningKey, hash: &[u8; 32]) -> String {
        let (sig, recid) = key.sign_prehash_recoverable(hash).unwrap();
        format!("0x{}{:02x}", to_hex(&sig.to_bytes()), 27 + recid.to_byte())
    }

    #[test]
    fn the_mail_vector_recovers_cow() {
        // The EIP's example: Cow's key is keccak256("cow").
        let address = address(&key());
        assert_eq!(
            checksum(&address),
            "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"
        );
        let hash: [u8; 32] =
            from_hex("0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2")
                .unwrap()
                .try_into()
                .unwrap();
        // The signature the EIP lists (v = 28).
        let eip = "0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c";
        assert_eq!(recover(&hash, eip).unwrap(), address);
        assert_eq!(recover(&hash, &sign(&key(), &hash)).unwrap(), address);
    }

    #[test]
    fn high_s_and_v_forms_name_the_same_signer() {
        let hash = keccak(b"some typed data");
        let (sig, recid) = key().sign_prehash_recoverable(&hash).unwrap();
        let expected = address(&key());
        // v as 0/1.
        let raw = format!("0x{}{:02x}", to_hex(&sig.to_bytes()), recid.to_byte());
        assert_eq!(recover(&hash, &raw).unwrap(), expected);
        // s' = n - s with the other parity.
        let (r, s) = sig.split_scalars();
        let high = Signature::from_scalars(r.to_bytes(), (-*s).to_bytes()).unwrap();
        let flipped = format!("0x{}{:02x}", to_hex(&high.to_bytes()), 28 - recid.to_byte());
        assert_eq!(recover(&hash, &flipped).unwrap(), expected);
    }

    #[test]
    fn a_wrong_hash_or_bad_signature() {
        let hash = keccak(b"one");
        let sig = sign(&key(), &hash);
        let other = recover(&keccak(b"two"), &sig);
        assert_ne!(other.ok(), Some(address(&key())));
        assert!(recover(&hash, &sig[..sig.len() - 2]).is_err());
        assert!(recover(&hash, &format!("{}1d", &sig[..sig.len() - 2])).is_err());
        assert!(recover(&hash, &format!("0x{}1b", "00".repeat(64))).is_err());
        assert!(recover(&hash, "nope").is_err());
    }

    #[test]
    fn checksums() {
        for a in [
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
            "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
            "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        ] {
            assert_eq!(checksum(&parse_address(a).unwrap()), a);
        }
    }
}
