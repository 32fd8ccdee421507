//! Black-box tests of the REST API: the real server on port 0, a fresh database per test, on
//! SQLite and on PostgreSQL, spoken to over HTTP with independently made signatures.

mod cashouts;
mod crashes;
mod facilitator;
mod helpers;
mod paying;

mod housebots;
mod identity;
mod openapi;
mod play;
mod purchases;
mod races;
mod rules;
mod stats;
mod two_instances;
mod validation;
mod web;
