//! The buckets' key map, bounded: past `max_clients` keys, a new client shares the
//! [`ClientKey::Overflow`] bucket until the janitor drops idle keys (whose buckets are full
//! again, so dropping them forgets nothing). The buckets themselves are `governor`'s.

use dashmap::DashMap;
use governor::nanos::Nanos;
use governor::state::keyed::{DefaultHasher, ShrinkableKeyedStateStore};
use governor::state::{InMemoryState, StateStore};

use super::client::ClientKey;

pub struct BoundedStore {
    buckets: DashMap<ClientKey, InMemoryState, DefaultHasher>,
    max_clients: usize,
}

impl BoundedStore {
    pub fn new(max_clients: usize) -> Self {
        Self {
            buckets: DashMap::default(),
            max_clients: max_clients.max(1),
        }
    }

    fn bucket_of<'k>(&self, key: &'k ClientKey) -> &'k ClientKey {
        if self.buckets.contains_key(key) || self.buckets.len() < self.max_clients {
            key
        } else {
            &ClientKey::Overflow
        }
    }
}

impl StateStore for BoundedStore {
    type Key = ClientKey;

    fn measure_and_replace<T, F, E>(&self, key: &ClientKey, f: F) -> Result<T, E>
    where
        F: Fn(Option<Nanos>) -> Result<(T, Nanos), E>,
    {
        self.buckets.measure_and_replace(self.bucket_of(key), f)
    }
}

impl ShrinkableKeyedStateStore<ClientKey> for BoundedStore {
    fn retain_recent(&self, drop_below: Nanos) {
        self.buckets.retain_recent(drop_below);
    }

    fn shrink_to_fit(&self) {
        ShrinkableKeyedStateStore::shrink_to_fit(&self.buckets);
    }

    fn len(&self) -> usize {
        self.buckets.len()
    }

    fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }
}
