//! The house's seeds and their batches: the seeds (`house.rs`: derived, committed and signed),
//! publishing them in batches and taking a batch's next index (`batches.rs`), a seed's audit
//! path (`paths.rs`), bounded reads of a batch's rows (`reads.rs`), and the batches as the
//! public sees them (`views.rs`). Why a read is refused: `error.rs`.

pub mod batches;
pub mod error;
pub mod house;
mod paths;
pub mod reads;
pub mod views;

pub use batches::{SeedBatches, signer_address};
pub use error::SeedBatchError;
pub use house::Seeds;
pub use views::{RowsPage, SeedBatchView, SeedRowView};
