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
pub mod signature;
mod types;

use error::{Code, Error, parse_json};
use wasm_bindgen::prelude::*;

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

/// Hashes typed data as EIP-712 signs it: `keccak256(0x1901 ‖ domainSeparator ‖
/// hashStruct(message))`, returned as `0x` + 64 hex. `typedDataJson` is
/// `{domain, types, primaryType, message}` as JSON text (`types.EIP712Domain` is derived from
/// the domain's keys when absent). Throws `invalid_typed_data`.
#[wasm_bindgen(js_name = typedDataHash)]
pub fn typed_data_hash(typed_data_json: &str) -> Result<String, JsValue> {
    typed_data_hash_json(typed_data_json).map_err(Error::into_js)
}

/// The EIP-55 address whose key signed the typed data. `signature` is `0x` + 65 bytes
/// `r ‖ s ‖ v`, `v` 27/28 or 0/1; a high `s` is accepted (it names the same signer).
/// Throws `invalid_typed_data` or `invalid_signature`.
#[wasm_bindgen(js_name = recoverTypedDataSigner)]
pub fn recover_typed_data_signer(
    typed_data_json: &str,
    signature: &str,
) -> Result<String, JsValue> {
    recover_typed_data_signer_json(typed_data_json, signature).map_err(Error::into_js)
}

/// Checks a signed object (`{signature, typed_data}`, as the arcade sends it) against what a
/// verifier expects (`{signer, domain, primaryType, message}`, the signer and domain from the
/// manifest, the message from `expectedReceiptMessages`), and returns the report
/// `{valid, recovered, problems}` as JSON text. `valid` only when the domain, the member list
/// of the primary type (docs/proofs.md), the primary type, every message field and the signer
/// all match; each difference is one readable problem. A bad signed object is a problem, not
/// an error; a bad expectation throws `invalid_input`.
#[wasm_bindgen(js_name = checkSigned)]
pub fn check_signed(signed_json: &str, expected_json: &str) -> Result<String, JsValue> {
    check_signed_json(signed_json, expected_json).map_err(Error::into_js)
}

/// The messages that should have been signed for a settled round's receipt, as JSON text:
/// `{commitment: {…}, receipt: {…}, play: {…}}` (`commitment` and `receipt` by the house,
/// `play` by the receipt's own `address`, checked with `checkSigned` and that address as the
/// signer), or `{unsigned: true}` when the round was opened before signing began
/// (`proofs.batch` null). `marksJson` is the manifest's `signed_marks` (or just
/// `{signed_from, house_agent_signed_from}`), checked first with `expectedSignedMarksMessage`
/// and `checkSigned`. With it the answer also names the member list the receipt is signed with,
/// `receipt_type` (`"Receipt"`, or `"Receipt+house_agent"` at or above
/// `house_agent_signed_from`, whose `receipt` message then ends with `house_agent`), and a
/// receipt without proofs at or above `signed_from` throws instead of reading as unsigned.
/// Without it (undefined or null), every receipt is read as before the marks. Throws
/// `invalid_input`.
///
/// ```js
/// const marks = manifest.signed_marks;
/// const expected = JSON.parse(expectedReceiptMessages(JSON.stringify(receipt), JSON.stringify(marks)));
/// // expected.receipt has house_agent exactly when expected.receipt_type is "Receipt+house_agent";
/// // checkSigned expects that member list for a Receipt whose message has house_agent.
/// ```
#[wasm_bindgen(js_name = expectedReceiptMessages)]
pub fn expected_receipt_messages(
    receipt_json: &str,
    marks_json: Option<String>,
) -> Result<String, JsValue> {
    expected_receipt_messages_json(receipt_json, marks_json.as_deref()).map_err(Error::into_js)
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

/// The full typed data `{domain, types, primaryType: "Play", message}` a player signs before
/// playing (sent as `play_signature` with the game call), as JSON text. `callJson` is
/// `{round_id, address, commitment, game, client_seed, wager, params}`: the round id, address
/// and commitment of the commit answer, `game` (`coinflip`, `dice` or `roulette`), and the
/// call's `params` as the game body gives them (coinflip `{call}`, dice `{target, direction?}`,
/// roulette `{bet, number?}`); a receipt has the same keys, which is how a verifier rebuilds
/// it. `domainJson` is the manifest's `signing_domain`. The typed data goes to any EIP-712
/// signer as it is:
///
/// ```js
/// const typed = JSON.parse(playTypedData(JSON.stringify({ ...commit, game: "dice", client_seed, wager, params: { target: 50, direction: "under" } }),
///   JSON.stringify(manifest.signing_domain)));
/// const play_signature = await account.signTypedData(typed); // viem
/// ```
///
/// Throws `invalid_input`.
#[wasm_bindgen(js_name = playTypedData)]
pub fn play_typed_data(call_json: &str, domain_json: &str) -> Result<String, JsValue> {
    play_typed_data_json(call_json, domain_json).map_err(Error::into_js)
}

/// `playTypedData` over JSON text.
pub fn play_typed_data_json(call: &str, domain: &str) -> Result<String, Error> {
    let call = parse_json(call, "the call")?;
    let domain = parse_json(domain, "the domain")?;
    Ok(expected::play_typed_data(&call, &domain)?.to_string())
}

/// The `SignedMarks` message the house should have signed, `{signed_from,
/// house_agent_signed_from}` as JSON text, from an answer that publishes the marks (the
/// manifest, `/.well-known/x402`, the games listing) or its `signed_marks` itself. Check the
/// marks with it before trusting them:
///
/// ```js
/// const message = JSON.parse(expectedSignedMarksMessage(JSON.stringify(manifest)));
/// const report = JSON.parse(checkSigned(JSON.stringify(manifest.signed_marks),
///   JSON.stringify({ signer, domain, primaryType: "SignedMarks", message })));
/// ```
///
/// Throws `invalid_input` (also when the answer publishes no marks).
#[wasm_bindgen(js_name = expectedSignedMarksMessage)]
pub fn expected_signed_marks_message(answer_json: &str) -> Result<String, JsValue> {
    parse_json(answer_json, "the answer")
        .and_then(|v| expected::signed_marks_message(&v))
        .map(|v| v.to_string())
        .map_err(Error::into_js)
}

/// The `Commitment` message the house should have signed for a commit answer, as JSON text,
/// or `{unsigned: true}`. Throws `invalid_input`.
#[wasm_bindgen(js_name = expectedCommitMessage)]
pub fn expected_commit_message(commit_answer_json: &str) -> Result<String, JsValue> {
    parse_json(commit_answer_json, "the commit answer")
        .and_then(|v| expected::commit_message(&v))
        .map(|v| v.to_string())
        .map_err(Error::into_js)
}

/// The `SeedBatch` message the house should have signed for a published batch
/// (`GET /api/arcade/seed-batches`), as JSON text. Throws `invalid_input`.
#[wasm_bindgen(js_name = expectedSeedBatchMessage)]
pub fn expected_seed_batch_message(batch_json: &str) -> Result<String, JsValue> {
    parse_json(batch_json, "the seed batch")
        .and_then(|v| expected::seed_batch_message(&v))
        .map(|v| v.to_string())
        .map_err(Error::into_js)
}

/// The member lists of the signed types (`{Commitment, Receipt, "Receipt+house_agent",
/// SeedBatch, SignedMarks, Play}`, each `[{name, type}, …]`), as JSON text: what `checkSigned`
/// expects. `"Receipt+house_agent"` is the `Receipt` type (EIP-712 names it `Receipt`) of bets
/// at or above the signed marks' `house_agent_signed_from`; `Play` is the one the player signs.
#[wasm_bindgen(js_name = signedTypes)]
pub fn signed_types() -> String {
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
