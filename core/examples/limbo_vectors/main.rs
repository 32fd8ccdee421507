//! Regenerates limbo's golden vectors:
//! `cargo run -p arcade-core --example limbo_vectors -- tests/vectors/fairness-v1-limbo.json`
//! (with no path, prints them). `cargo test -p arcade-core` fails when the committed file differs.

mod generate;

use std::io::Write;

fn main() -> std::io::Result<()> {
    let text = generate::generate();
    match std::env::args().nth(1) {
        Some(path) => std::fs::write(&path, &text),
        None => std::io::stdout().write_all(text.as_bytes()),
    }
}
