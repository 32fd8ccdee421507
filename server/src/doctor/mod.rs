//! `arcade doctor`: whether the settings, the database, the chain, the token and the house
//! fit together, one check per line with what to do about a failure. `arcade serve` runs the
//! same checks at start and refuses to start on a fatal one: a failure that would lose money
//! or strand payments if served (the wrong chain, the wrong token), or a secret or key that
//! anyone else knows (a well-known test key, a former built-in secret), on any host.
//!
//! | file | checks |
//! |---|---|
//! | `local.rs` | the database and its migrations, the public URL, the verifier's wasm, secrets |
//! | `chain.rs` | the RPC and its chain id, the token (decimals, EIP-712 domain, EIP-3009), the house's balances, `pay_to` |

mod chain;
mod local;

pub use crate::secrets::public::WELL_KNOWN_TEST_ADDRESSES;

use std::borrow::Cow;
use std::fmt;

use crate::settings::Settings;

/// One check's result.
#[derive(Debug, Clone)]
pub struct Check {
    pub name: Cow<'static, str>,
    pub outcome: Outcome,
}

#[derive(Debug, Clone)]
pub enum Outcome {
    /// Fine: what was found.
    Pass(String),
    /// Not fine: why, and what to do.
    Fail {
        why: String,
        fix: String,
        /// Serving with it would lose money or strand payments: `serve` refuses to start.
        fatal: bool,
    },
}

impl Check {
    fn pass(name: impl Into<Cow<'static, str>>, found: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            outcome: Outcome::Pass(found.into()),
        }
    }

    fn fail(
        name: impl Into<Cow<'static, str>>,
        why: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            outcome: Outcome::Fail {
                why: why.into(),
                fix: fix.into(),
                fatal: false,
            },
        }
    }

    fn fatal(
        name: impl Into<Cow<'static, str>>,
        why: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            outcome: Outcome::Fail {
                why: why.into(),
                fix: fix.into(),
                fatal: true,
            },
        }
    }

    pub fn passed(&self) -> bool {
        matches!(self.outcome, Outcome::Pass(_))
    }

    pub fn is_fatal(&self) -> bool {
        matches!(self.outcome, Outcome::Fail { fatal: true, .. })
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Outcome::Pass(found) => write!(f, "✔ {}: {found}", self.name),
            Outcome::Fail { why, fix, fatal } => {
                let fatal = if *fatal {
                    " (serve refuses to start)"
                } else {
                    ""
                };
                write!(f, "✘ {}: {why}{fatal}\n    → {fix}", self.name)
            }
        }
    }
}

/// Every check, in order. Checks that need a part that failed are left out (a token that
/// cannot be read has no domain to compare).
pub async fn run(settings: &Settings) -> Vec<Check> {
    let mut checks = local::checks(settings).await;
    checks.extend(chain::checks(settings).await);
    checks
}
