//! Black-box tests of the REST API: the real server on port 0, a fresh database per test, on
//! SQLite and on PostgreSQL, spoken to over HTTP with independently made signatures.

mod all_in;
mod attacks;
mod bounded;
mod cashout_failures;
mod cashouts;
mod chain_control;
mod clocks;
mod crashes;
mod discovery;
mod facilitator;
mod helpers;
mod lying_facilitator;
mod mcp_client;
mod migrations;
mod money_audit;
mod open_rounds;
mod paying;
mod payment_attempts;
mod public_secrets;
mod restore;
mod rpc;
mod secrets;

mod batches;
mod feed;
mod housebots;
mod identity;
mod openapi;
mod operations;
mod play;
mod pockets;
mod purchase_refusals;
mod purchases;
mod races;
mod rate_limits;
mod replays;
mod revocation;
mod rules;
mod seed_batches;
mod stats;
mod terms;
mod two_instances;
mod validation;
mod web;
