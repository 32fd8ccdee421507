//! sea-orm entities of the tables in `migrations/src/sql`; the SQL is the source of truth.

pub mod auth_generation;
pub mod bet;
pub mod cashout;
pub mod deployment_secret;
pub mod floor_total;
pub mod floor_watermark;
pub mod house_book;
pub mod house_transaction;
pub mod instance;
pub mod ledger;
pub mod payment;
pub mod round;
pub mod secret_fingerprint;
pub mod seed_batch;
pub mod signed_mark;
pub mod wallet;
