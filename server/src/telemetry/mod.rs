//! What the service tells its operators: logs (`tracing`, as text or JSON lines), Prometheus
//! metrics (`metrics`), and one log line per money step (`money`).

pub mod metrics;
pub mod money;

use tracing_subscriber::EnvFilter;

use crate::settings::{LogFormat, LogSettings};

/// Installs the global subscriber once; later calls (tests starting several servers) are no-ops.
/// Each request's span (its id, method and path) is on every line logged while it runs.
pub fn init(settings: &LogSettings) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(&settings.filter));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false);
    let _ = match settings.format {
        LogFormat::Text => builder
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
            .try_init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
    };
}
