//! Logs through `tracing`, filtered by `RUST_LOG` or else the configured filter.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber once; later calls (tests starting several servers) are no-ops.
pub fn init(default_filter: &str) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_filter));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
        .try_init();
}
