//! `arcade`: the arcade's server binary. The HTTP server is the next milestone; until then this
//! says so and exits with an error rather than appearing to run.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!(
        "arcade {}: the HTTP server is not built yet (fairness core and wasm verifier only); nothing to serve",
        env!("CARGO_PKG_VERSION")
    );
    ExitCode::from(2)
}
