//! Check the arcade's EIP-712 signatures in a browser, in Node or in any wasm host, without an
//! Ethereum library: hash typed data, recover who signed it, and compare a signed object with
//! what the receipt it came with says (docs/proofs.md); and build the `Play` a player signs
//! before playing (`playTypedData`). JSON text in, JSON text out.
//!
//! ```js
//! import init, { checkSigned, expectedReceiptMessages } from "arcade-proofs";
//! await init();
//! const manifest = await (await fetch(`${api}/api/arcade/manifest`)).json();
//! const { signer, signing_domain: domain } = manifest; // pin these, and the signed marks
//! const expected = JSON.parse(expectedReceiptMessages(JSON.stringify(receipt), JSON.stringify(manifest.signed_marks)));
//! const report = JSON.parse(checkSigned(
//!   JSON.stringify(receipt.proofs.receipt),
//!   JSON.stringify({ signer, domain, primaryType: "Receipt", message: expected.receipt }),
//! ));
//! if (!report.valid) console.error(report.problems);
//! ```
//!
//! Every function throws a real `Error` with a stable `code` on bad input:
//! `invalid_typed_data`, `invalid_signature`, `invalid_input`.
#![warn(missing_docs)]
#![allow(unsafe_code)] // the code wasm-bindgen generates

pub mod check;
pub mod eip712;
pub mod error;
pub mod expected;
#[cfg(feature = "js")]
mod js;
pub mod signature;
#[cfg(feature = "js")]
mod types;

use error::{Code, Error, parse_json};
#[cfg(feature = "js")]
pub use js::*;

/// The EIP-712 signing hash (`0x` + 64 hex) of typed-data JSON.
pub fn typed_data_hash_json(typed_data: &str) -> Result<String, Error> {
    let value = parse_json(typed_data, "the typed data")
        .map_err(|e| e.with_code(Code::InvalidTypedData))?;
    let hash = eip712::typed_data_hash(&value)?;
    Ok(format!("0x{}", eip712::to_hex(&hash)))
}

/// The EIP-55 address that signed typed-data JSON with `signature` (65 bytes `r‖s‖v`).
pub fn recover_typed_data_signer_json(typed_data: &str, signature: &str) -> Result<String, Error> {
    let value = parse_json(typed_data, "the typed data")
        .map_err(|e| e.with_code(Code::InvalidTypedData))?;
    let hash = eip712::typed_data_hash(&value)?;
    Ok(signature::checksum(&signature::recover(&hash, signature)?))
}

/// The report (`{valid, recovered, problems}`) of a signed object against an expectation.
pub fn check_signed_json(signed: &str, expected: &str) -> Result<String, Error> {
    let signed = parse_json(signed, "the signed object")?;
    let expected = parse_json(expected, "the expectation")?;
    Ok(check::check_signed(&signed, &expected)?.to_string())
}

/// `expectedReceiptMessages` over JSON text.
pub fn expected_receipt_messages_json(receipt: &str, marks: Option<&str>) -> Result<String, Error> {
    let receipt = parse_json(receipt, "the receipt")?;
    let marks = match marks
        .map(|text| parse_json(text, "the marks"))
        .transpose()?
    {
        Some(marks) if !marks.is_null() => Some(expected::Marks::from_json(&marks)?),
        _ => None,
    };
    Ok(expected::receipt_messages(&receipt, marks)?.to_string())
}

/// `playTypedData` over JSON text.
pub fn play_typed_data_json(call: &str, domain: &str) -> Result<String, Error> {
    let call = parse_json(call, "the call")?;
    let domain = parse_json(domain, "the domain")?;
    Ok(expected::play_typed_data(&call, &domain)?.to_string())
}

/// `expectedSignedMarksMessage` over JSON text.
pub fn expected_signed_marks_message_json(answer: &str) -> Result<String, Error> {
    parse_json(answer, "the answer")
        .and_then(|v| expected::signed_marks_message(&v))
        .map(|v| v.to_string())
}

/// `expectedCommitMessage` over JSON text.
pub fn expected_commit_message_json(commit_answer: &str) -> Result<String, Error> {
    parse_json(commit_answer, "the commit answer")
        .and_then(|v| expected::commit_message(&v))
        .map(|v| v.to_string())
}

/// `expectedSeedBatchMessage` over JSON text.
pub fn expected_seed_batch_message_json(batch: &str) -> Result<String, Error> {
    parse_json(batch, "the seed batch")
        .and_then(|v| expected::seed_batch_message(&v))
        .map(|v| v.to_string())
}

/// `signedTypes` as JSON text.
pub fn signed_types_json() -> String {
    check::signed_types_json().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_entry_points() {
        let mail = r#"{"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"version","type":"string"},{"name":"chainId","type":"uint256"},{"name":"verifyingContract","type":"address"}],"Person":[{"name":"name","type":"string"},{"name":"wallet","type":"address"}],"Mail":[{"name":"from","type":"Person"},{"name":"to","type":"Person"},{"name":"contents","type":"string"}]},"primaryType":"Mail","domain":{"name":"Ether Mail","version":"1","chainId":1,"verifyingContract":"0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},"message":{"from":{"name":"Cow","wallet":"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},"to":{"name":"Bob","wallet":"0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},"contents":"Hello, Bob!"}}"#;
        assert_eq!(
            typed_data_hash_json(mail).unwrap(),
            "0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
        );
        let sig = "0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c";
        assert_eq!(
            recover_typed_data_signer_json(mail, sig).unwrap(),
            "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"
        );
        // Bob's name tampered: someone else "signed" it.
        let tampered = mail.replace("\"Bob\"", "\"Bo\"");
        assert_ne!(
            recover_typed_data_signer_json(&tampered, sig)
                .ok()
                .as_deref(),
            Some("0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826")
        );
        assert_eq!(
            typed_data_hash_json("{").unwrap_err().code,
            Code::InvalidTypedData
        );
        assert_eq!(
            recover_typed_data_signer_json(mail, "0x12")
                .unwrap_err()
                .code,
            Code::InvalidSignature
        );
        assert_eq!(
            check_signed_json("{}", "[]").unwrap_err().code,
            Code::InvalidInput
        );
        assert_eq!(
            play_typed_data_json("{", "{}").unwrap_err().code,
            Code::InvalidInput
        );
        let call = r#"{"round_id":"r","address":"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826","commitment":"ab","game":"coinflip","client_seed":"c","wager":1,"params":{"call":"heads"}}"#;
        assert!(
            play_typed_data_json(call, r#"{"name":"n","version":"1","chainId":1}"#)
                .unwrap_err()
                .message
                .starts_with("commitment is \"ab\", not 64 hex digits")
        );
    }
}
