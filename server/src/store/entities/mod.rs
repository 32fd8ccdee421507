//! sea-orm entities of the tables in `migrations/src/sql`; the SQL is the source of truth.

pub mod bet;
pub mod cashout;
pub mod house_transaction;
pub mod ledger;
pub mod payment;
pub mod round;
pub mod wallet;
