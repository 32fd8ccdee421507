//! The Merkle tree of RFC 9162 (Certificate Transparency v2, §2.1), over which a seed batch's
//! commitments are published: leaf `SHA-256(0x00 ‖ data)`, node `SHA-256(0x01 ‖ left ‖ right)`,
//! the left subtree the largest power of two smaller than the number of leaves.
//!
//! ```
//! use arcade_core::merkle::{Tree, leaf_hash, verify_inclusion};
//! let leaves: Vec<[u8; 32]> = (0u8..5).map(|i| leaf_hash(&[i])).collect();
//! let tree = Tree::new(leaves.clone());
//! let path = tree.audit_path(3);
//! assert!(verify_inclusion(3, 5, &leaves[3], &path, &tree.root()));
//! assert!(!verify_inclusion(2, 5, &leaves[3], &path, &tree.root()));
//! ```

use crate::digest::sha256;
use alloc::vec::Vec;

/// A leaf's hash: `SHA-256(0x00 ‖ data)`.
pub fn leaf_hash(data: &[u8]) -> [u8; 32] {
    sha256(&[&[0x00], data])
}

/// An inner node's hash: `SHA-256(0x01 ‖ left ‖ right)`.
pub fn node_hash(left: &[u8; 32], right: &[u8; 32]) -> [u8; 32] {
    sha256(&[&[0x01], left, right])
}

/// The largest power of two smaller than `n` (`n >= 2`).
fn split(n: usize) -> usize {
    1 << (usize::BITS - 1 - (n - 1).leading_zeros())
}

/// A tree over leaf hashes, keeping every complete subtree so that the root and any audit
/// path cost O(log n) hashes.
#[derive(Debug, Clone)]
pub struct Tree {
    /// `levels[h][i]`: the hash of leaves `[i·2^h, (i+1)·2^h)`, for complete subtrees only.
    levels: Vec<Vec<[u8; 32]>>,
}

impl Tree {
    /// Builds the tree over `leaves` (leaf hashes, in index order).
    pub fn new(leaves: Vec<[u8; 32]>) -> Self {
        let mut levels = alloc::vec![leaves];
        while let Some(below) = levels.last().filter(|level| level.len() >= 2) {
            let above = below
                .chunks_exact(2)
                .map(|pair| node_hash(&pair[0], &pair[1]))
                .collect();
            levels.push(above);
        }
        Self { levels }
    }

    /// How many leaves.
    pub fn size(&self) -> usize {
        self.levels[0].len()
    }

    /// The tree head: the hash of every leaf (`SHA-256` of nothing for an empty tree).
    pub fn root(&self) -> [u8; 32] {
        match self.size() {
            0 => sha256(&[]),
            n => self.subtree(0, n),
        }
    }

    /// The hash of leaves `[start, end)` (`end > start`), as RFC 9162's `MTH` defines it.
    fn subtree(&self, start: usize, end: usize) -> [u8; 32] {
        let n = end - start;
        if n.is_power_of_two() && start.is_multiple_of(n) {
            let height = n.trailing_zeros() as usize;
            return self.levels[height][start >> height];
        }
        let k = split(n);
        node_hash(
            &self.subtree(start, start + k),
            &self.subtree(start + k, end),
        )
    }

    /// The audit path of leaf `index` (`< size`), siblings from the leaf up (RFC 9162's
    /// `PATH(m, D[n])`).
    pub fn audit_path(&self, index: usize) -> Vec<[u8; 32]> {
        let mut path = Vec::new();
        self.path_into(index, 0, self.size(), &mut path);
        path
    }

    fn path_into(&self, index: usize, start: usize, end: usize, path: &mut Vec<[u8; 32]>) {
        let n = end - start;
        if n <= 1 {
            return;
        }
        let middle = start + split(n);
        if index < middle {
            self.path_into(index, start, middle, path);
            path.push(self.subtree(middle, end));
        } else {
            self.path_into(index, middle, end, path);
            path.push(self.subtree(start, middle));
        }
    }
}

/// Whether `leaf` (a leaf hash) is leaf `index` of a tree of `size` leaves whose root is
/// `root`, by the audit `path` (RFC 9162 §2.1.3.2: the sides come from `index` and `size`,
/// never from the proof).
pub fn verify_inclusion(
    index: u64,
    size: u64,
    leaf: &[u8; 32],
    path: &[[u8; 32]],
    root: &[u8; 32],
) -> bool {
    if index >= size {
        return false;
    }
    let (mut f, mut s) = (index, size - 1);
    let mut r = *leaf;
    for sibling in path {
        if s == 0 {
            return false;
        }
        if f & 1 == 1 || f == s {
            r = node_hash(sibling, &r);
            while f & 1 == 0 && f != 0 {
                f >>= 1;
                s >>= 1;
            }
        } else {
            r = node_hash(&r, sibling);
        }
        f >>= 1;
        s >>= 1;
    }
    s == 0 && r == *root
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use sha2::Digest;

    /// `MTH` exactly as RFC 9162 writes it, recursively over the leaf data.
    fn naive_root(leaves: &[[u8; 32]]) -> [u8; 32] {
        match leaves.len() {
            0 => sha2::Sha256::digest([]).into(),
            1 => leaves[0],
            n => {
                let k = split(n);
                node_hash(&naive_root(&leaves[..k]), &naive_root(&leaves[k..]))
            }
        }
    }

    fn hex(bytes: &[u8; 32]) -> alloc::string::String {
        crate::hex::encode(bytes)
    }

    /// The test leaves of certificate-transparency's reference implementation and their
    /// published tree heads for sizes 1 to 8.
    #[test]
    fn reference_tree_heads() {
        let data: [&[u8]; 8] = [
            b"",
            &[0x00],
            &[0x10],
            &[0x20, 0x21],
            &[0x30, 0x31],
            &[0x40, 0x41, 0x42, 0x43],
            &[0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57],
            &[
                0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d,
                0x6e, 0x6f,
            ],
        ];
        let heads = [
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
            "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
            "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
            "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
            "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
        ];
        let leaves: Vec<[u8; 32]> = data.iter().map(|d| leaf_hash(d)).collect();
        for (size, head) in heads.iter().enumerate().map(|(i, h)| (i + 1, h)) {
            assert_eq!(hex(&Tree::new(leaves[..size].to_vec()).root()), *head);
        }
        assert_eq!(
            hex(&Tree::new(Vec::new()).root()),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn every_path_of_every_size_verifies_and_nothing_else_does() {
        for size in 1..=70usize {
            let leaves: Vec<[u8; 32]> = (0..size)
                .map(|i| leaf_hash(&(i as u64).to_be_bytes()))
                .collect();
            let tree = Tree::new(leaves.clone());
            let root = tree.root();
            assert_eq!(root, naive_root(&leaves), "size {size}");
            for (index, leaf) in leaves.iter().enumerate() {
                let path = tree.audit_path(index);
                let (i, n) = (index as u64, size as u64);
                assert!(verify_inclusion(i, n, leaf, &path, &root), "{index}/{size}");
                // Another index or leaf, or a changed sibling, fails. (The size is not checked by the
                // path alone: the batch's signed head names it.)
                assert!(!verify_inclusion(i + 1, n, leaf, &path, &root) || size == 1);
                assert!(!verify_inclusion(i, n, &leaf_hash(b"x"), &path, &root));
                if let Some(first) = path.first() {
                    let mut bent = path.clone();
                    bent[0] = node_hash(first, first);
                    assert!(!verify_inclusion(i, n, leaf, &bent, &root));
                    // A path with an extra or a missing hash fails.
                    let mut longer = path.clone();
                    longer.push(root);
                    assert!(!verify_inclusion(i, n, leaf, &longer, &root));
                    assert!(!verify_inclusion(i, n, leaf, &path[1..], &root));
                }
            }
            assert!(!verify_inclusion(
                size as u64,
                size as u64,
                &leaves[0],
                &[],
                &root
            ));
        }
    }

    #[test]
    fn a_single_leaf_is_its_own_root() {
        let leaf = leaf_hash(b"only");
        let tree = Tree::new(vec![leaf]);
        assert_eq!(tree.root(), leaf);
        assert!(tree.audit_path(0).is_empty());
        assert!(verify_inclusion(0, 1, &leaf, &[], &leaf));
    }
}
