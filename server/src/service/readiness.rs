//! Whether this instance can serve now (`GET /readyz`): the database answers, and when a chain
//! is configured, the house's balances were read recently and are above their floors, and the
//! books matched the house's transactions on the chain at their last pass. Cheap enough to poll
//! every second: one `SELECT 1`, the treasury watch's last reading and the books' last state.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use super::books::{Books, BooksState};
use super::payments::Payments;
use super::treasury::TreasuryHealth;
use crate::store::Db;

/// Each part's state: `ok`, or why not.
#[derive(Debug, Clone, Serialize)]
pub struct Readiness {
    pub ready: bool,
    /// `database`, `chain`, `house_gas`, `house_token`, `books`: `"ok"`, `"off"` (no chain
    /// configured) or what is wrong.
    pub checks: BTreeMap<&'static str, String>,
}

impl Readiness {
    /// The parts that are not ok.
    pub fn failing(&self) -> Vec<&'static str> {
        self.checks
            .iter()
            .filter(|(_, state)| !matches!(state.as_str(), "ok" | "off"))
            .map(|(part, _)| *part)
            .collect()
    }
}

const OK: &str = "ok";

/// The books against the chain: no cashout is sent until they match, and no play is taken
/// before they first matched in this process.
fn books(state: BooksState) -> String {
    match state {
        BooksState::InStep => OK.to_owned(),
        BooksState::Unknown => "not yet matched to the house's transactions on the chain: no play or cashout is taken until they are".to_owned(),
        BooksState::Behind(behind) => format!(
            "{behind} house transactions on the chain are not in the books yet (was the database restored from a copy?): no cashout is sent until they are, and no play before they first matched"
        ),
    }
}

/// Reads whether this instance can serve.
#[derive(Clone)]
pub struct ReadinessProbe {
    db: Db,
    payments: Option<Arc<Payments>>,
    books: Books,
}

impl ReadinessProbe {
    pub fn new(db: Db, payments: Option<Arc<Payments>>, books: Books) -> Self {
        Self {
            db,
            payments,
            books,
        }
    }

    pub async fn check(&self) -> Readiness {
        let mut checks = BTreeMap::new();
        let database = match self.db.ping().await {
            Ok(()) => OK.to_owned(),
            Err(error) => format!("the database does not answer: {error}"),
        };
        checks.insert("database", database);
        match &self.payments {
            None => {
                for part in ["chain", "house_gas", "house_token", "books"] {
                    checks.insert(part, "off".to_owned());
                }
            }
            Some(payments) => {
                let (chain, gas, token) = match payments.treasury.health() {
                    TreasuryHealth::Funded => (OK.into(), OK.into(), OK.into()),
                    TreasuryHealth::BelowFloor(low) => {
                        let state = |part| {
                            if low.contains(&part) {
                                format!("the house's {part} balance is under its floor")
                            } else {
                                OK.to_owned()
                            }
                        };
                        (OK.into(), state("gas"), state("token"))
                    }
                    TreasuryHealth::Unknown(why) => {
                        let unknown = "unknown: the chain's last answer is missing".to_owned();
                        (why, unknown.clone(), unknown)
                    }
                };
                checks.insert("chain", chain);
                checks.insert("house_gas", gas);
                checks.insert("house_token", token);
                checks.insert("books", books(self.books.state()));
            }
        }
        let mut readiness = Readiness {
            ready: false,
            checks,
        };
        readiness.ready = readiness.failing().is_empty();
        readiness
    }
}
