//! Black-box tests of the REST API: the real server on port 0, a fresh database per test, on
//! SQLite and on PostgreSQL, spoken to over HTTP with independently made signatures.

mod attacks;
mod bounded;
mod bounded_cost;
mod cashout_failures;
mod cashouts;
mod chain_control;
mod crashes;
mod discovery;
mod facilitator;
mod helpers;
mod lying_facilitator;
mod mcp_client;
mod migrations;
mod money_audit;
mod paying;
mod rpc;
mod secrets;

mod batches;
mod feed;
mod house_journal;
mod housebots;
mod identity;
mod openapi;
mod operations;
mod play;
mod purchase_refusals;
mod purchases;
mod races;
mod rate_limits;
mod replays;
mod revocation;
mod rules;
mod seed_batches;
mod stats;
mod two_instances;
mod validation;
mod web;
