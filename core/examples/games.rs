//! Writes `wasm/js/games.js`: every game's description (`arcade_core::GAMES`) as the ES module
//! the wasm package ships beside its module, for the page, the audit and the client libraries.
//! A test (`core/tests/description.rs`) fails when the file is not what this writes:
//!
//! ```sh
//! cargo run -p arcade-core --features serde --example games > wasm/js/games.js
//! ```

use std::io::Write;

fn main() {
    std::io::stdout()
        .write_all(games_module().as_bytes())
        .expect("stdout takes the module");
}

include!("games/module.rs");
