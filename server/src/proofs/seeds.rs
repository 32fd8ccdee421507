//! Pre-committed server seeds. Batch `b`, with the 32 random bytes `salt` drawn when it was
//! created, has the secret `HMAC-SHA256(seeds.secret, "arcade seed batch " + b + " salt " +
//! hex(salt))`, and its seed `i` is `hex(HMAC-SHA256(batch secret, decimal i))`: revealing a seed
//! tells nothing of another, every instance derives the same seeds, and no two batches share
//! seeds even if a restored database hands out a batch id again. Batches published before salts
//! have the secret `HMAC-SHA256(seeds.secret, "arcade seed batch " + b)`. A batch's Merkle tree
//! (RFC 9162) is over its seeds' commitments.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use arcade_core::merkle::{Tree, leaf_hash};
use arcade_core::{Commitment, server_seed_from_bytes};
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// Trees kept in memory, the least recently used dropped first, so the batches whose rounds are
/// being played stay however many were published since. A tree of 1,024 seeds takes ~64 KB and
/// three hashes per index to build (a seed, its commitment and its leaf), so it is built once
/// per batch and kept, not built per play.
const TREES_KEPT: usize = 64;

/// This instance's latest batches, whose trees are never dropped: commits take seeds from them
/// and plays settle them, so no reader of old rounds (each asking for another batch's tree)
/// can make an honest commit or play build its tree again.
const TREES_PINNED: usize = 4;

/// The seeds secret and the trees of the batches in use.
pub struct SeedBook {
    secret: Vec<u8>,
    trees: Mutex<Trees>,
    /// Per batch whose tree is being built, held by its one builder: others asking meanwhile
    /// wait for that build instead of building the same tree again.
    building: Mutex<HashMap<i64, Arc<Mutex<()>>>>,
    /// Trees built so far (each build is three hashes per seed).
    builds: AtomicU64,
}

/// Built trees by batch, each with when it was last asked for.
#[derive(Default)]
struct Trees {
    kept: HashMap<i64, KeptTree>,
    asked: u64,
    /// The batches whose trees stay, newest last (at most `TREES_PINNED`).
    pinned: std::collections::VecDeque<i64>,
}

struct KeptTree {
    tree: Arc<Tree>,
    last_asked: u64,
}

impl Trees {
    fn get(&mut self, batch_id: i64) -> Option<Arc<Tree>> {
        self.asked += 1;
        let kept = self.kept.get_mut(&batch_id)?;
        kept.last_asked = self.asked;
        Some(kept.tree.clone())
    }

    /// Keeps `tree`, dropping the least recently asked for beyond `TREES_KEPT` (never a
    /// pinned one).
    fn keep(&mut self, batch_id: i64, tree: Arc<Tree>) {
        self.asked += 1;
        let last_asked = self.asked;
        self.kept.insert(batch_id, KeptTree { tree, last_asked });
        while self.kept.len() > TREES_KEPT {
            let Some(oldest) = self
                .kept
                .iter()
                .filter(|(batch_id, _)| !self.pinned.contains(batch_id))
                .min_by_key(|(_, kept)| kept.last_asked)
                .map(|(batch_id, _)| *batch_id)
            else {
                break;
            };
            self.kept.remove(&oldest);
        }
    }
}

/// What names a batch's seeds besides the secret: its id and its salt (hex; `None` for batches
/// published before salts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchKey<'a> {
    pub id: i64,
    pub salt: Option<&'a str>,
}

impl std::fmt::Debug for SeedBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SeedBook([redacted])")
    }
}

impl SeedBook {
    pub fn new(secret: &str) -> Self {
        Self {
            secret: secret.as_bytes().to_vec(),
            trees: Mutex::default(),
            building: Mutex::default(),
            builds: AtomicU64::new(0),
        }
    }

    fn batch_key(&self, batch: BatchKey<'_>) -> Hmac<Sha256> {
        batch_key(&self.secret, batch)
    }

    /// Seed `index` of `batch` (64 lowercase hex).
    pub fn seed(&self, batch: BatchKey<'_>, index: i64) -> String {
        seed_of(&self.batch_key(batch), index)
    }

    /// The tree of batch `batch_id` if it is built and kept (asking for it keeps it longer).
    pub fn kept(&self, batch_id: i64) -> Option<Arc<Tree>> {
        self.trees().get(batch_id)
    }

    /// The tree of a batch this instance just published, kept (and never dropped) while it is
    /// among the instance's `TREES_PINNED` latest: its commits and plays never build it again.
    pub fn pin(&self, batch: BatchKey<'_>, size: i64) -> Arc<Tree> {
        let tree = self.tree(batch, size);
        let mut trees = self.trees();
        if !trees.pinned.contains(&batch.id) {
            trees.pinned.push_back(batch.id);
            if trees.pinned.len() > TREES_PINNED {
                trees.pinned.pop_front();
            }
        }
        tree
    }

    /// The tree of a batch of `size` seeds: built once, then kept while it is asked for. One
    /// build at a time per batch: a caller asking while it is built waits for it (and blocks its
    /// thread, so async callers ask from a blocking task).
    pub fn tree(&self, batch: BatchKey<'_>, size: i64) -> Arc<Tree> {
        if let Some(tree) = self.trees().get(batch.id) {
            return tree;
        }
        let builder = self
            .building
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(batch.id)
            .or_default()
            .clone();
        let _one_build = builder.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tree) = self.trees().get(batch.id) {
            return tree;
        }
        let tree = Arc::new(tree_of(&self.batch_key(batch), size));
        self.builds.fetch_add(1, Ordering::Relaxed);
        self.trees().keep(batch.id, tree.clone());
        self.building
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&batch.id);
        tree
    }

    /// Drops batch `batch_id`'s tree (a batch built but never published: its id was taken).
    pub fn forget(&self, batch_id: i64) {
        let mut trees = self.trees();
        trees.kept.remove(&batch_id);
        trees.pinned.retain(|pinned| *pinned != batch_id);
    }

    /// How many trees were built so far.
    pub fn builds(&self) -> u64 {
        self.builds.load(Ordering::Relaxed)
    }

    /// The tree of a published batch whose root is `root`, built once and kept: under this
    /// deployment's secret, or, for a batch from before salts that it does not give, under the
    /// secret earlier versions built in (such batches' seeds were public anyway, and no commit
    /// takes from them any more). `None` if neither gives the published root.
    pub fn published_tree(
        &self,
        batch: BatchKey<'_>,
        size: i64,
        root: &[u8; 32],
    ) -> Option<Arc<Tree>> {
        let tree = self.tree(batch, size);
        if tree.root() == *root {
            return Some(tree);
        }
        if batch.salt.is_some() {
            return None;
        }
        let former = Arc::new(tree_of(&batch_key(FORMER_BUILT_IN.as_bytes(), batch), size));
        (former.root() == *root).then(|| {
            self.trees().keep(batch.id, former.clone());
            former
        })
    }

    fn trees(&self) -> std::sync::MutexGuard<'_, Trees> {
        self.trees.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The seeds secret earlier versions used when none was set.
const FORMER_BUILT_IN: &str = "arcade-seed-batches";

/// A batch's key under `secret`.
fn batch_key(secret: &[u8], batch: BatchKey<'_>) -> Hmac<Sha256> {
    let mut outer = hmac(secret);
    let name = match batch.salt {
        Some(salt) => format!("arcade seed batch {} salt {salt}", batch.id),
        None => format!("arcade seed batch {}", batch.id),
    };
    outer.update(name.as_bytes());
    hmac(&outer.finalize().into_bytes())
}

/// The tree over the commitments of the first `size` seeds under a batch's key.
fn tree_of(key: &Hmac<Sha256>, size: i64) -> Tree {
    let leaves = (0..size)
        .map(|index| {
            let commitment = Commitment::of(&seed_of(key, index));
            // A commitment is always 64 hex characters.
            leaf_hash(&arcade_core::hex::decode32(commitment.as_str()).unwrap_or_default())
        })
        .collect();
    Tree::new(leaves)
}

fn hmac(key: &[u8]) -> Hmac<Sha256> {
    // HMAC takes a key of any length.
    Hmac::new_from_slice(key).unwrap_or_else(|_| unreachable!("HMAC accepts any key length"))
}

/// Seed `index` under a batch's key.
pub fn seed_of(batch_key: &Hmac<Sha256>, index: i64) -> String {
    let mut mac = batch_key.clone();
    mac.update(index.to_string().as_bytes());
    server_seed_from_bytes(&mac.finalize().into_bytes().into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use arcade_core::merkle::verify_inclusion;

    fn old(id: i64) -> BatchKey<'static> {
        BatchKey { id, salt: None }
    }

    fn salted(id: i64, salt: &str) -> BatchKey<'_> {
        BatchKey {
            id,
            salt: Some(salt),
        }
    }

    #[test]
    fn seeds_are_fixed_by_the_secret_and_differ_by_batch_salt_and_index() {
        let book = SeedBook::new("s");
        assert_eq!(book.seed(old(1), 0), SeedBook::new("s").seed(old(1), 0));
        assert_ne!(book.seed(old(1), 0), book.seed(old(1), 1));
        assert_ne!(book.seed(old(1), 0), book.seed(old(2), 0));
        assert_ne!(book.seed(old(1), 0), SeedBook::new("t").seed(old(1), 0));
        assert_eq!(book.seed(old(1), 0).len(), 64);
        // The same id again (a restored database) with a fresh salt: other seeds.
        assert_ne!(book.seed(salted(1, "aa"), 0), book.seed(salted(1, "bb"), 0));
        assert_ne!(book.seed(salted(1, "aa"), 0), book.seed(old(1), 0));
    }

    #[test]
    fn the_derivation_is_the_documented_one() {
        let mac = |key: &[u8], message: &str| {
            let mut mac = hmac(key);
            mac.update(message.as_bytes());
            mac.finalize().into_bytes()
        };
        let batch_secret = mac(b"s", "arcade seed batch 7 salt 0a0b");
        let seed = alloy::hex::encode(mac(&batch_secret, "5"));
        assert_eq!(SeedBook::new("s").seed(salted(7, "0a0b"), 5), seed);
        let batch_secret = mac(b"s", "arcade seed batch 7");
        let seed = alloy::hex::encode(mac(&batch_secret, "5"));
        assert_eq!(SeedBook::new("s").seed(old(7), 5), seed);
    }

    #[test]
    fn a_tree_asked_for_stays_built_while_newer_batches_come_and_go() {
        let book = SeedBook::new("s");
        let newest = i64::try_from(TREES_KEPT).unwrap() * 3;
        // The newer batches are built first (published ahead), then an older one is played.
        for batch_id in 100..100 + newest {
            book.tree(old(batch_id), 4);
        }
        let played = book.tree(old(1), 4);
        assert!(Arc::ptr_eq(&played, &book.tree(old(1), 4)), "built again");
        let early = book.tree(old(1_000), 4);
        for batch_id in 1_001..1_000 + newest {
            book.tree(old(batch_id), 4);
            assert!(
                Arc::ptr_eq(&played, &book.tree(old(1), 4)),
                "dropped while in use"
            );
        }
        assert_eq!(book.trees().kept.len(), TREES_KEPT);
        // One not asked for since goes, and is built again, the same.
        let again = book.tree(old(1_000), 4);
        assert!(!Arc::ptr_eq(&early, &again));
        assert_eq!(early.root(), again.root());
    }

    #[test]
    fn the_latest_pinned_trees_stay_however_many_others_are_asked_for() {
        let book = SeedBook::new("s");
        let pinned: Vec<Arc<Tree>> = (1..=i64::try_from(TREES_PINNED).unwrap() + 1)
            .map(|batch_id| book.pin(salted(batch_id, "aa"), 4))
            .collect();
        let many = i64::try_from(TREES_KEPT).unwrap() * 2;
        for batch_id in 100..100 + many {
            book.tree(old(batch_id), 4);
        }
        // The latest four stay built; the first, pinned before them, went like any other.
        for (batch_id, tree) in (2..).zip(&pinned[1..]) {
            let again = book.kept(batch_id).expect("a pinned tree was dropped");
            assert!(Arc::ptr_eq(tree, &again));
        }
        assert!(book.kept(1).is_none());
        assert_eq!(book.trees().kept.len(), TREES_KEPT);
    }

    #[test]
    fn callers_asking_for_one_tree_at_once_share_one_build() {
        let book = Arc::new(SeedBook::new("s"));
        let start = Arc::new(std::sync::Barrier::new(8));
        let trees: Vec<Arc<Tree>> = (0..8)
            .map(|_| {
                let (book, start) = (book.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    book.tree(salted(9, "ab"), 50_000)
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|thread| thread.join().unwrap())
            .collect();
        assert_eq!(book.builds(), 1, "the same tree built more than once");
        assert!(trees.iter().all(|tree| Arc::ptr_eq(tree, &trees[0])));
        assert!(book.building.lock().unwrap().is_empty());
        // Another batch is built on its own.
        book.tree(salted(10, "ab"), 4);
        assert_eq!(book.builds(), 2);
    }

    #[test]
    fn a_batch_from_before_salts_keeps_its_tree_under_the_former_built_in_secret() {
        let former = SeedBook::new(FORMER_BUILT_IN).tree(old(4), 8).root();
        let now = SeedBook::new("a secret generated since");
        let tree = now
            .published_tree(old(4), 8, &former)
            .expect("its published tree");
        assert_eq!(tree.root(), former);
        // A salted batch is only ever under the deployment's own secret.
        let salted_root = SeedBook::new(FORMER_BUILT_IN)
            .tree(salted(5, "aa"), 8)
            .root();
        assert!(
            now.published_tree(salted(5, "aa"), 8, &salted_root)
                .is_none()
        );
        // A root that no secret gives has no tree: its audit paths are empty, and fail.
        assert!(now.published_tree(old(6), 8, &[7; 32]).is_none());
    }

    #[test]
    fn every_seed_is_in_its_batch_tree() {
        let book = SeedBook::new("s");
        let batch = salted(3, "c0ffee");
        let tree = book.tree(batch, 10);
        for index in 0..10u16 {
            let commitment = Commitment::of(&book.seed(batch, i64::from(index)));
            let leaf = leaf_hash(&arcade_core::hex::decode32(commitment.as_str()).unwrap());
            let path = tree.audit_path(usize::from(index));
            assert!(verify_inclusion(
                u64::from(index),
                10,
                &leaf,
                &path,
                &tree.root()
            ));
        }
    }
}
