//! The module's JavaScript exports (feature `js`, on by default): each takes and returns JSON
//! text, calls the crate's function of the same name with `_json`, and turns its error into a
//! real JS `Error` with a stable `code`.

use wasm_bindgen::prelude::*;

use crate::error::Error;
use crate::{
    check_signed_json, expected_commit_message_json, expected_receipt_messages_json,
    expected_seed_batch_message_json, expected_signed_marks_message_json, play_typed_data_json,
    recover_typed_data_signer_json, signed_types_json, typed_data_hash_json,
};

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
    expected_signed_marks_message_json(answer_json).map_err(Error::into_js)
}

/// The `Commitment` message the house should have signed for a commit answer, as JSON text,
/// or `{unsigned: true}`. Throws `invalid_input`.
#[wasm_bindgen(js_name = expectedCommitMessage)]
pub fn expected_commit_message(commit_answer_json: &str) -> Result<String, JsValue> {
    expected_commit_message_json(commit_answer_json).map_err(Error::into_js)
}

/// The `SeedBatch` message the house should have signed for a published batch
/// (`GET /api/arcade/seed-batches`), as JSON text. Throws `invalid_input`.
#[wasm_bindgen(js_name = expectedSeedBatchMessage)]
pub fn expected_seed_batch_message(batch_json: &str) -> Result<String, JsValue> {
    expected_seed_batch_message_json(batch_json).map_err(Error::into_js)
}

/// The member lists of the signed types (`{Commitment, Receipt, "Receipt+house_agent",
/// SeedBatch, SignedMarks, Play}`, each `[{name, type}, …]`), as JSON text: what `checkSigned`
/// expects. `"Receipt+house_agent"` is the `Receipt` type (EIP-712 names it `Receipt`) of bets
/// at or above the signed marks' `house_agent_signed_from`; `Play` is the one the player signs.
#[wasm_bindgen(js_name = signedTypes)]
pub fn signed_types() -> String {
    signed_types_json()
}
