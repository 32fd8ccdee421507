//! Each address's statement generations as this instance last read them, so a commit's proof
//! is checked without a read. Never the last word: the transaction that opens the round reads
//! the current generation under the wallet's lock and refuses a commit proven with another
//! (`rounds/batch.rs`), and a proof that does not hold against what is known is checked again
//! against what the database holds.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use alloy::primitives::Address;

use crate::identity::Generation;

/// The most addresses known at once: past it, the map starts again empty.
const CAPACITY: usize = 100_000;

/// An address's current generation and the few before it, newest first.
#[derive(Debug)]
pub struct Generations {
    pub current: Generation,
    pub older: Vec<Generation>,
}

#[derive(Debug, Default)]
pub struct KnownGenerations {
    known: Mutex<HashMap<Address, Arc<Generations>>>,
}

impl KnownGenerations {
    pub fn get(&self, address: &Address) -> Option<Arc<Generations>> {
        self.lock().get(address).cloned()
    }

    pub fn put(&self, address: Address, generations: Generations) {
        let mut known = self.lock();
        if known.len() >= CAPACITY {
            known.clear();
        }
        known.insert(address, Arc::new(generations));
    }

    pub fn forget(&self, address: &Address) {
        self.lock().remove(address);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Address, Arc<Generations>>> {
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }
}
