//! The arcade's fairness core for JavaScript: verify receipts and re-derive rounds in a browser,
//! in Node or in any wasm host. A thin layer: it converts values and errors, the core decides.
//!
//! The module's exports are flat and internal: the package's entry is the JavaScript glue
//! (`js/arcade.js`), which reads the receipt objects, calls these functions and builds the
//! report objects from what they answer. No JSON and no floats are parsed or formatted here.
//!
//! - In: the string fields of a call as one UTF-8 text (which the glue encodes into the
//!   module's memory in one step) and each field's length in UTF-16 code units (-1: absent);
//!   numbers as safe integers the glue has checked (-1: an absent optional field).
//! - Out: one string, the answer's texts back to back, with the end of each text and the
//!   answer's numbers in [`numbers`] (see `out.rs`); or a failure, `\u{1}` + code + `\n` +
//!   message, which the glue throws as an `Error` with that `code`.
#![cfg_attr(target_arch = "wasm32", no_std)]
#![warn(missing_docs)]
#![allow(unsafe_code)] // the code wasm-bindgen generates, and the allocator below

extern crate alloc;

mod game_out;
mod games;
mod input;
mod out;

use alloc::borrow::ToOwned;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use arcade_core::wire::ReceiptInput;
use arcade_core::{ClientSeed, Game, Receipt, Round, ServerSeed, Settlement, Verification, merkle};
use input::{Fields, Invalid, int, optional_int};
use out::Out;
use wasm_bindgen::prelude::*;

// SAFETY: a wasm32 module without the atomics feature runs on one thread.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

/// A panic (which no input can cause) traps: the glue sees a `RuntimeError`.
#[cfg(all(target_arch = "wasm32", not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}

/// The commitment of a server seed: the lowercase hex SHA-256 of its 64 ASCII characters.
#[wasm_bindgen]
pub fn commitment(server_seed: &str) -> String {
    match ServerSeed::parse(server_seed) {
        Ok(seed) => seed.commitment().as_str().to_owned(),
        Err(error) => out::failure(error.code(), &error.to_string()),
    }
}

/// Verifies one receipt. Strings, in order: game, commitment, server_seed, client_seed,
/// params.call, params.direction, params.bet, result.outcome, result.win_chance,
/// result.multiplier, result.color, and `String(result.roll)`; `roll` is the number itself.
/// Answers the report's fields (see `Out::verification`).
#[wasm_bindgen(js_name = verifyReceipt)]
#[allow(clippy::too_many_arguments)] // one flat argument per field: nothing to build in JS
pub fn verify_receipt(
    text: &[u8],
    game_length: f64,
    commitment_length: f64,
    server_seed_length: f64,
    client_seed_length: f64,
    call_length: f64,
    direction_length: f64,
    bet_length: f64,
    outcome_length: f64,
    win_chance_length: f64,
    multiplier_length: f64,
    color_length: f64,
    roll_text_length: f64,
    fairness_version: f64,
    nonce: f64,
    wager: f64,
    target: f64,
    number: f64,
    roll: f64,
    roll_hundredths: f64,
    pocket: f64,
    won: bool,
    payout: f64,
    profit: f64,
) -> String {
    let run = || -> Result<String, Invalid> {
        let lengths = [
            game_length,
            commitment_length,
            server_seed_length,
            client_seed_length,
            call_length,
            direction_length,
            bet_length,
            outcome_length,
            win_chance_length,
            multiplier_length,
            color_length,
            roll_text_length,
        ];
        let mut f = Fields::new(text, &lengths)?;
        let game = f.parse("game", Game::parse)?;
        let commitment = f.required("commitment")?;
        let server_seed = f.required("server_seed")?;
        let client_seed = f.required("client_seed")?;
        let params = game_out::params_input(&mut f, target, number)?;
        let texts = game_out::ResultTexts {
            outcome: f.string()?,
            win_chance: f.string()?,
            multiplier: f.string()?,
            color: f.string()?,
            roll: f.string()?,
        };
        let result = game_out::claimed(&texts, roll, roll_hundredths, pocket)?;
        let input = ReceiptInput {
            game: game.ok_or_else(|| Invalid::input("missing field `game`"))?,
            fairness_version: optional_int(fairness_version, "fairness_version")?,
            commitment: commitment.to_owned(),
            server_seed: server_seed.to_owned(),
            client_seed: client_seed.to_owned(),
            nonce: int(nonce, "nonce")?,
            wager: int(wager, "wager")?,
            params,
            result,
            won,
            payout: int(payout, "payout")?,
            profit: input::signed(profit),
        };
        let receipt = Receipt::try_from(input)?;
        let verification = arcade_core::verify(&receipt)?;
        Out::verification(&verification)
    };
    run().unwrap_or_else(Invalid::into_failure)
}

/// Settles a round of `game` from its seeds. Strings, in order: server_seed, client_seed,
/// params.call, params.direction, params.bet. Answers the receipt's and the trace's fields
/// (see `Out::derivation`).
#[wasm_bindgen(js_name = deriveRound)]
#[allow(clippy::too_many_arguments)] // one flat argument per field: nothing to build in JS
pub fn derive_round(
    game: &str,
    text: &[u8],
    server_seed_length: f64,
    client_seed_length: f64,
    call_length: f64,
    direction_length: f64,
    bet_length: f64,
    nonce: f64,
    wager: f64,
    target: f64,
    number: f64,
) -> String {
    let run = || -> Result<String, Invalid> {
        let game = Game::parse(game).ok_or_else(|| Invalid::input("unknown game"))?;
        let lengths = [
            server_seed_length,
            client_seed_length,
            call_length,
            direction_length,
            bet_length,
        ];
        let mut f = Fields::new(text, &lengths)?;
        let server_seed = f.required("server_seed")?;
        let client_seed = f.required("client_seed")?;
        let call = game_out::params_input(&mut f, target, number)?.to_call(game)?;
        let server_seed = ServerSeed::parse(server_seed)?;
        let client_seed = ClientSeed::parse(client_seed)?;
        let nonce = int(nonce, "nonce")?;
        let round = Round::new(server_seed, client_seed, nonce, call, int(wager, "wager")?)?;
        let settlement = round.settle();
        Out::derivation(
            server_seed.commitment().as_str(),
            &round.stream().message(0),
            &settlement,
        )
    };
    run().unwrap_or_else(Invalid::into_failure)
}

/// Whether a commitment is leaf `index` of the batch whose root is `merkle_root` (RFC 9162),
/// by its audit path: answers `"1"` or `"0"`. Strings, in order: the commitment, the root and
/// the path's hashes, one length each.
#[wasm_bindgen(js_name = verifyInclusion)]
pub fn verify_inclusion(text: &[u8], lengths: &[f64], index: f64, size: f64) -> String {
    let run = || -> Result<String, Invalid> {
        let hashes = digests(text, lengths, &["commitment", "merkle_root", "audit_path"])?;
        let (Some(commitment), Some(root), Some(path)) =
            (hashes.first(), hashes.get(1), hashes.get(2..))
        else {
            return Err(Invalid::input("missing field `merkle_root`"));
        };
        let leaf = merkle::leaf_hash(commitment);
        let (index, size) = (int(index, "index")?, int(size, "size")?);
        let included = merkle::verify_inclusion(index, size, &leaf, path, root);
        Ok(if included { "1" } else { "0" }.to_owned())
    };
    run().unwrap_or_else(Invalid::into_failure)
}

/// The RFC 9162 root (hex) over commitments given in index order, one length each.
#[wasm_bindgen(js_name = merkleRoot)]
pub fn merkle_root(text: &[u8], lengths: &[f64]) -> String {
    let run = || -> Result<String, Invalid> {
        let mut leaves = digests(text, lengths, &["commitment"])?;
        for leaf in &mut leaves {
            *leaf = merkle::leaf_hash(leaf);
        }
        Ok(arcade_core::hex::encode(&merkle::Tree::new(leaves).root()))
    };
    run().unwrap_or_else(Invalid::into_failure)
}

/// The 32 bytes each string (64 hex characters) names; the i-th is called `names[i]` in an
/// error, the last name standing for the rest.
fn digests(text: &[u8], lengths: &[f64], names: &[&str]) -> Result<Vec<[u8; 32]>, Invalid> {
    let mut fields = Fields::new(text, lengths)?;
    let mut digests = Vec::with_capacity(lengths.len());
    for i in 0..lengths.len() {
        let name = names.get(i).or(names.last()).copied().unwrap_or_default();
        let digest = fields
            .string()?
            .and_then(arcade_core::hex::decode32)
            .ok_or_else(|| Invalid::input(format_args!("{name}: not 64 hex characters")))?;
        digests.push(digest);
    }
    Ok(digests)
}

/// The package version.
#[wasm_bindgen(js_name = packageVersion)]
pub fn package_version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// The fairness version the core implements.
#[wasm_bindgen(js_name = fairnessVersion)]
pub fn fairness_version() -> u32 {
    arcade_core::FAIRNESS_VERSION
}

/// The address of the numbers of the last answer (64 f64 slots), for the glue's view.
#[wasm_bindgen]
pub fn numbers() -> u32 {
    u32::try_from(out::NUMBERS.as_ptr() as usize).unwrap_or(0)
}

/// The module's memory, for the glue's view of [`numbers`].
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// Slots of a verification and a derivation: flags (bit 0 verified, 1–3 the checks commitment,
/// outcome and payout, 4 won, 5 the bonus chip), payout, profit, u0, u1, the result's number
/// (roll_hundredths or pocket), and the mismatch count or the call's number (dice target,
/// roulette number, -1 for none); the texts' ends follow from slot 7.
mod slot {
    pub const FLAGS: usize = 0;
    pub const PAYOUT: usize = 1;
    pub const PROFIT: usize = 2;
    pub const U0: usize = 3;
    pub const U1: usize = 4;
    pub const RESULT: usize = 5;
    pub const COUNT: usize = 6;
    pub const TEXTS: usize = 7;
}

impl Out {
    /// A verification report: the slots, then the texts: the derived commitment, the trace
    /// (see [`Out::settlement`]), the result's (see [`Out::result`]) and for each mismatch its
    /// check, field, derived and claimed texts.
    fn verification(v: &Verification) -> Result<String, Invalid> {
        let st = &v.settlement;
        let mut o = Out::settlement(v.commitment.as_str(), &v.message, st)?;
        Out::number(
            slot::FLAGS,
            f64::from(
                u8::from(v.verified())
                    | u8::from(v.checks.commitment) << 1
                    | u8::from(v.checks.outcome) << 2
                    | u8::from(v.checks.payout) << 3
                    | u8::from(st.won) << 4
                    | u8::from(st.bonus_chip()) << 5,
            ),
        );
        Out::count(slot::COUNT, u32::try_from(v.mismatches.len()).unwrap_or(0));
        for m in &v.mismatches {
            o.text(m.check.as_str());
            o.text(m.field);
            o.text(&m.derived);
            o.text(&m.claimed);
        }
        Ok(o.finish())
    }

    /// A derived round: the slots (the call's number in the count's), then the texts: the
    /// commitment, the trace, the result's and the call's (see [`Out::params`]).
    fn derivation(commitment: &str, message: &str, st: &Settlement) -> Result<String, Invalid> {
        let mut o = Out::settlement(commitment, message, st)?;
        Out::number(
            slot::FLAGS,
            f64::from(u8::from(st.won) << 4 | u8::from(st.bonus_chip()) << 5),
        );
        o.params(&st.call);
        Ok(o.finish())
    }

    /// What verifications and derivations share: payout, profit, the commitment, the trace
    /// (`hmac_message`, `block0`, `u0`, `u1`, the exact return's numerator, denominator, floor
    /// and remainder, the call's winning outcomes `W` of the game's `N`, and the number `u0`
    /// maps to) and the result.
    fn settlement(commitment: &str, message: &str, st: &Settlement) -> Result<Out, Invalid> {
        Out::amount(slot::PAYOUT, st.payout)?;
        Out::signed_amount(slot::PROFIT, st.profit)?;
        Out::number(slot::U0, f64::from(st.draws.u0));
        Out::number(slot::U1, f64::from(st.draws.u1));
        let mut o = Out::new(slot::TEXTS);
        o.text(commitment);
        o.text(message);
        o.text(&arcade_core::hex::encode(&st.draws.block0));
        let ret = st.win_return();
        o.decimal(ret.numerator());
        o.decimal(ret.denominator());
        o.decimal(ret.floor());
        o.decimal(ret.remainder());
        let game = st.call.game();
        o.decimal(u128::from(st.call.winning_count()));
        o.decimal(u128::from(game.outcomes()));
        o.decimal(u128::from(game.drawn(st.draws.u0)));
        o.result(&st.result);
        Ok(o)
    }
}
