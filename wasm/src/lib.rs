//! The arcade's fairness core for JavaScript: verify receipts and re-derive rounds in a browser,
//! in Node or in any wasm host. A thin layer: it converts values and errors, the core decides.
//!
//! ```js
//! import init, { verify } from "arcade-wasm";
//! await init();
//! const receipt = await (await fetch(`${api}/api/arcade/verify/42`)).json();
//! const report = verify(receipt);
//! if (!report.verified) console.error(report.mismatches);
//! ```
//!
//! Every function throws a real `Error` with a stable `code` on bad input:
//! `invalid_input` (wrong shape, or a number that is not a safe non-negative integer),
//! `invalid_server_seed`, `invalid_client_seed`, `invalid_call`, `invalid_receipt`,
//! `unsupported_version`.
#![warn(missing_docs)]
#![allow(unsafe_code)] // the code wasm-bindgen generates

mod error;
mod types;

use arcade_core::wire::{ParamsInput, ReceiptInput, ReceiptView, TraceView, VerificationView};
use arcade_core::{ClientSeed, Game, Receipt, Round, ServerSeed, merkle};
use error::{IntoJsError, shape_error};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| shape_error(&e))
}

fn from_js<T: for<'de> Deserialize<'de>>(value: JsValue) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(value).map_err(|e| shape_error(&e))
}

/// The commitment of a server seed: the lowercase hex SHA-256 of its 64 ASCII characters.
///
/// ```js
/// commitment("0".repeat(64)) // "60e05bd1…0f55"
/// ```
#[wasm_bindgen]
pub fn commitment(server_seed: &str) -> Result<String, JsValue> {
    let seed = ServerSeed::parse(server_seed).map_err(IntoJsError::into_js)?;
    Ok(seed.commitment().as_str().to_owned())
}

/// Re-derives a receipt (the object `GET /api/arcade/verify/{bet_id}` returns, or a game
/// call's response) and reports each check: `{verified, checks: {commitment, outcome, payout},
/// derived, trace, mismatches}`. A tampered receipt is not an error: it comes back with
/// `verified: false` and the differing fields in `mismatches`.
#[wasm_bindgen(unchecked_return_type = "Verification")]
pub fn verify(
    #[wasm_bindgen(unchecked_param_type = "Receipt")] receipt: JsValue,
) -> Result<JsValue, JsValue> {
    let input: ReceiptInput = from_js(receipt)?;
    let receipt = Receipt::try_from(input).map_err(IntoJsError::into_js)?;
    let verification = arcade_core::verify(&receipt).map_err(IntoJsError::into_js)?;
    to_js(&VerificationView {
        verification: &verification,
        server_seed: &receipt.server_seed,
    })
}

/// The inputs of one round, without a claimed result.
#[derive(Deserialize)]
struct RoundInput {
    server_seed: String,
    client_seed: String,
    #[serde(default)]
    nonce: u64,
    wager: u64,
    params: ParamsInput,
}

#[derive(Serialize)]
struct Derivation<'a> {
    #[serde(flatten)]
    receipt: ReceiptView<'a>,
    trace: TraceView<'a>,
}

fn derive(game: Game, input: JsValue) -> Result<JsValue, JsValue> {
    let input: RoundInput = from_js(input)?;
    let call = input.params.to_call(game).map_err(IntoJsError::into_js)?;
    let server_seed = ServerSeed::parse(&input.server_seed).map_err(IntoJsError::into_js)?;
    let client_seed = ClientSeed::parse(&input.client_seed).map_err(IntoJsError::into_js)?;
    let round = Round::new(server_seed, client_seed, input.nonce, call, input.wager)
        .map_err(IntoJsError::into_js)?;
    let settlement = round.settle();
    let commitment = server_seed.commitment();
    let message = round.stream().message(0);
    to_js(&Derivation {
        receipt: ReceiptView {
            commitment: commitment.as_str(),
            server_seed: server_seed.as_str(),
            client_seed: client_seed.as_str(),
            nonce: input.nonce,
            settlement: &settlement,
        },
        trace: TraceView {
            server_seed: server_seed.as_str(),
            message: &message,
            settlement: &settlement,
        },
    })
}

/// Settles a coinflip from its seeds: `{server_seed, client_seed, nonce?, wager, params: {call}}`.
/// Returns the receipt fields (`result.outcome`, `won`, `payout`, …) and the `trace`.
///
/// ```js
/// deriveCoinflip({ server_seed, client_seed: "my seed", wager: 10, params: { call: "heads" } })
/// ```
#[wasm_bindgen(js_name = deriveCoinflip, unchecked_return_type = "Derivation")]
pub fn derive_coinflip(
    #[wasm_bindgen(unchecked_param_type = "RoundInput<CoinflipParams>")] input: JsValue,
) -> Result<JsValue, JsValue> {
    derive(Game::Coinflip, input)
}

/// Settles a dice round: `params: {target: 1..99, direction?: "under" | "over"}`.
///
/// ```js
/// deriveDice({ server_seed, client_seed, wager: 10, params: { target: 50, direction: "over" } })
/// ```
#[wasm_bindgen(js_name = deriveDice, unchecked_return_type = "Derivation")]
pub fn derive_dice(
    #[wasm_bindgen(unchecked_param_type = "RoundInput<DiceParams>")] input: JsValue,
) -> Result<JsValue, JsValue> {
    derive(Game::Dice, input)
}

/// Settles a roulette spin: `params: {bet, number?}` (`number` for straight bets only).
///
/// ```js
/// deriveRoulette({ server_seed, client_seed, wager: 5, params: { bet: "straight", number: 17 } })
/// ```
#[wasm_bindgen(js_name = deriveRoulette, unchecked_return_type = "Derivation")]
pub fn derive_roulette(
    #[wasm_bindgen(unchecked_param_type = "RoundInput<RouletteParams>")] input: JsValue,
) -> Result<JsValue, JsValue> {
    derive(Game::Roulette, input)
}

/// One seed's place in a published batch, as a receipt's `proofs.batch` names it, with the
/// batch's signed `merkle_root`.
#[derive(Deserialize)]
struct Inclusion {
    commitment: String,
    index: u64,
    size: u64,
    audit_path: Vec<String>,
    merkle_root: String,
}

fn digest(field: &str, hex: &str) -> Result<[u8; 32], JsValue> {
    arcade_core::hex::decode32(hex)
        .ok_or_else(|| error::js_error("invalid_input", &format!("{field}: not 64 hex characters")))
}

/// Whether a commitment is leaf `index` of the batch whose root is `merkle_root` (RFC 9162
/// tree over the 32 bytes of each commitment; the sides of the audit path come from `index`
/// and `size`): `{commitment, index, size, audit_path, merkle_root}` → boolean.
///
/// ```js
/// verifyInclusion({ commitment: receipt.commitment, ...receipt.proofs.batch, merkle_root })
/// ```
#[wasm_bindgen(js_name = verifyInclusion)]
pub fn verify_inclusion(
    #[wasm_bindgen(unchecked_param_type = "Inclusion")] input: JsValue,
) -> Result<bool, JsValue> {
    let input: Inclusion = from_js(input)?;
    let leaf = merkle::leaf_hash(&digest("commitment", &input.commitment)?);
    let path = input
        .audit_path
        .iter()
        .map(|hash| digest("audit_path", hash))
        .collect::<Result<Vec<_>, _>>()?;
    let root = digest("merkle_root", &input.merkle_root)?;
    Ok(merkle::verify_inclusion(
        input.index,
        input.size,
        &leaf,
        &path,
        &root,
    ))
}

/// The RFC 9162 root (hex) over commitments given in index order.
#[wasm_bindgen(js_name = merkleRoot)]
pub fn merkle_root(commitments: Vec<String>) -> Result<String, JsValue> {
    let leaves = commitments
        .iter()
        .map(|commitment| digest("commitment", commitment).map(|c| merkle::leaf_hash(&c)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(arcade_core::hex::encode(&merkle::Tree::new(leaves).root()))
}

/// The package version and the fairness version it implements: `{package, fairness_version}`.
#[wasm_bindgen(unchecked_return_type = "VersionInfo")]
pub fn version() -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    struct VersionInfo {
        package: &'static str,
        fairness_version: u32,
    }
    to_js(&VersionInfo {
        package: env!("CARGO_PKG_VERSION"),
        fairness_version: arcade_core::FAIRNESS_VERSION,
    })
}
