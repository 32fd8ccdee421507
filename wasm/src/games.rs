//! The games the core knows, for the glue: what it reads and what the page and the audit list
//! come from this one list (`arcade_core::Game::NAMES`), never from a list written in JavaScript.
//! (The games' descriptions are data beside the module, `js/games.js`, which the core writes.)

use alloc::string::String;
use arcade_core::Game;
use wasm_bindgen::prelude::*;

/// Every game's name, in the core's order, separated by commas: `"coinflip,dice,roulette"`.
#[wasm_bindgen]
pub fn games() -> String {
    Game::NAMES.join(",")
}
