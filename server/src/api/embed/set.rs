//! The element's set: every file its module graph can load, walked from `web/verifier.js`
//! through what each module imports or fetches (`imports`), and named by a digest of all of
//! them. The set is served under `/embed/<version>/` with the site root's layout (`web/…`,
//! `wasm/…`), so the modules' relative imports stay inside it; a file changed anywhere in the
//! set changes the version, so a version's path never names two contents.

use std::collections::BTreeMap;
use std::fmt::Write;

use sha2::{Digest, Sha256};

use super::imports::{self, Reference};
use crate::api::edge::Shared;
use crate::api::precompressed::CompressError;
use crate::api::web::{self, Loaded, NotBuilt, Unavailable};

/// The element's script, where the walk starts.
pub const ENTRY: &str = "web/verifier.js";
/// Hex digits of the version (64 bits): it tells sets apart, while each file's `integrity`
/// (SHA-384) is what a browser checks.
const VERSION_DIGITS: usize = 16;

pub struct EmbedSet {
    pub version: String,
    /// By path under the site root (`web/verifier.js`), in order.
    files: BTreeMap<String, Loaded>,
}

impl EmbedSet {
    pub fn get(&self, path: &str) -> Option<&Loaded> {
        self.files.get(path)
    }

    pub fn files(&self) -> impl Iterator<Item = (&str, &Loaded)> {
        self.files.iter().map(|(path, file)| (path.as_str(), file))
    }
}

/// Why the set cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum SetError {
    #[error(transparent)]
    NotBuilt(NotBuilt),
    #[error(transparent)]
    Compression(CompressError),
    /// A module refers to a file by a path that leaves the set, or to one the server does not
    /// serve: serving the rest would let that file load unpinned, or fail later.
    #[error("{from} refers to {reference:?}, which is not a file of the versioned set")]
    Outside { from: String, reference: String },
}

/// The set as the files stand now (the wasm packages are read from disk, so a rebuild makes a
/// new version).
pub async fn current(shared: &Shared) -> Result<EmbedSet, SetError> {
    let mut files = BTreeMap::new();
    let mut pending = vec![(String::new(), ENTRY.to_owned())];
    while let Some((from, path)) = pending.pop() {
        if files.contains_key(&path) {
            continue;
        }
        let file = match web::load(shared, &path).await {
            Ok(file) => file,
            Err(Unavailable::NotBuilt(error)) => return Err(SetError::NotBuilt(error)),
            Err(Unavailable::Compression(error)) => return Err(SetError::Compression(error)),
            Err(Unavailable::Unknown) => {
                return Err(SetError::Outside {
                    from,
                    reference: path,
                });
            }
        };
        if file.kind.starts_with("text/javascript") {
            let text = String::from_utf8_lossy(file.encoded.bytes());
            for reference in imports::references(&text) {
                pending.push((path.clone(), within(&path, reference)?));
            }
        }
        files.insert(path, file);
    }
    Ok(EmbedSet {
        version: version(&files),
        files,
    })
}

fn within(from: &str, reference: Reference<'_>) -> Result<String, SetError> {
    imports::resolve(from, reference).ok_or_else(|| {
        let (Reference::Module(spec) | Reference::Url(spec)) = reference;
        SetError::Outside {
            from: from.to_owned(),
            reference: spec.to_owned(),
        }
    })
}

/// The digest of every path with its file's hash.
fn version(files: &BTreeMap<String, Loaded>) -> String {
    let mut listing = String::new();
    for (path, file) in files {
        let _ = writeln!(listing, "{path} {}", file.encoded.integrity());
    }
    let digest = Sha256::digest(listing.as_bytes());
    let mut hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    hex.truncate(VERSION_DIGITS);
    hex
}
