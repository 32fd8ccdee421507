//! Static files compressed once, not per request. A file's brotli (`brotli_quality`) and gzip
//! bodies are made the first time it is asked for, or when the service starts (`web::warm`), off
//! the request threads, and kept. A request gets the smallest body its `Accept-Encoding` takes,
//! with an `ETag`, so a revisit revalidates to a `304` with no body.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::SystemTime;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use salvo::http::StatusCode;
use salvo::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY,
};
use salvo::prelude::*;
use sha2::{Digest, Sha256, Sha384};
use tokio::sync::OnceCell;

/// A file could not be compressed: a write into memory failed, or the compressing task
/// ended without an answer.
#[derive(Debug, thiserror::Error)]
#[error("compressing a file: {0}")]
pub struct CompressError(String);

/// One file's bodies, one per encoding, and the tag they share (suffixed per encoding).
#[derive(Debug)]
pub struct Encoded {
    identity: Vec<u8>,
    brotli: Vec<u8>,
    gzip: Vec<u8>,
    tag: String,
    /// The SRI hash of `identity` (`sha384-…`), which a browser checks a loaded file against.
    integrity: String,
}

/// The encodings served, smallest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

impl Encoding {
    fn token(self) -> &'static str {
        match self {
            Self::Brotli => "br",
            Self::Gzip => "gzip",
            Self::Identity => "identity",
        }
    }
}

impl Encoded {
    /// Compresses `identity` (CPU-bound: call it off the async threads).
    pub fn new(identity: Vec<u8>) -> Result<Self, CompressError> {
        let failed = |error: std::io::Error| CompressError(error.to_string());
        let digest = Sha256::digest(&identity);
        let tag = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
        let mut brotli = Vec::new();
        {
            let params = brotli::enc::BrotliEncoderParams {
                quality: brotli_quality(identity.len()),
                ..Default::default()
            };
            let mut writer = brotli::CompressorWriter::with_params(&mut brotli, 32 * 1024, &params);
            writer.write_all(&identity).map_err(failed)?;
        }
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gzip.write_all(&identity).map_err(failed)?;
        let gzip = gzip.finish().map_err(failed)?;
        let integrity = format!("sha384-{}", STANDARD.encode(Sha384::digest(&identity)));
        Ok(Self {
            identity,
            brotli,
            gzip,
            tag,
            integrity,
        })
    }

    /// The file's own bytes, before any encoding.
    pub fn bytes(&self) -> &[u8] {
        &self.identity
    }

    /// The SRI hash of the file's bytes (`sha384-…`).
    pub fn integrity(&self) -> &str {
        &self.integrity
    }

    fn body(&self, encoding: Encoding) -> &[u8] {
        match encoding {
            Encoding::Brotli => &self.brotli,
            Encoding::Gzip => &self.gzip,
            Encoding::Identity => &self.identity,
        }
    }

    /// The strong tag of one encoding's bytes: each encoding is a representation of its own.
    fn etag(&self, encoding: Encoding) -> String {
        match encoding {
            Encoding::Identity => format!("\"{}\"", self.tag),
            other => format!("\"{}-{}\"", self.tag, other.token()),
        }
    }

    /// Answers `req` with the smallest body it accepts, or `304` when it holds that body's tag.
    pub fn send(&self, req: &Request, res: &mut Response, kind: &str, cache: &str) {
        let accepted = req
            .headers()
            .get(ACCEPT_ENCODING)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("");
        let encoding = [Encoding::Brotli, Encoding::Gzip]
            .into_iter()
            .filter(|e| self.body(*e).len() < self.identity.len())
            .find(|e| accepts(accepted, e.token()))
            .unwrap_or(Encoding::Identity);
        let etag = self.etag(encoding);
        res.add_header(CACHE_CONTROL, cache, true).ok();
        res.add_header(VARY, "accept-encoding", true).ok();
        res.add_header(ETAG, &etag, true).ok();
        let held = req
            .headers()
            .get(IF_NONE_MATCH)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
        if held {
            res.status_code(StatusCode::NOT_MODIFIED);
            return;
        }
        res.add_header(CONTENT_TYPE, kind, true).ok();
        if encoding != Encoding::Identity {
            res.add_header(CONTENT_ENCODING, encoding.token(), true)
                .ok();
        }
        res.write_body(self.body(encoding).to_vec()).ok();
    }
}

/// Brotli's best (11) up to 100 KB; above, quality 9, which compresses about ten times faster
/// for about 10% more bytes, so a first request for a large file does not wait on the best.
fn brotli_quality(bytes: usize) -> i32 {
    if bytes <= 100 * 1024 { 11 } else { 9 }
}

/// Whether an `Accept-Encoding` value takes `token` (named or by `*`, with a q above 0).
fn accepts(accepted: &str, token: &str) -> bool {
    let mut star = false;
    for item in accepted.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let refused = parts.any(|p| {
            let p = p.trim();
            p.strip_prefix("q=")
                .is_some_and(|q| q.trim().parse::<f32>().is_ok_and(|q| q <= 0.0))
        });
        if name.eq_ignore_ascii_case(token) {
            return !refused;
        }
        if name == "*" {
            star = !refused;
        }
    }
    star
}

/// Where a file's bytes come from: compiled into the binary, a file read from disk (kept
/// until its length or modification time changes, so a rebuilt wasm package is picked up), or
/// a text the server makes (kept by its content).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Source {
    Compiled(&'static str),
    Disk(PathBuf),
    Made(String),
}

type Stamp = Option<(u64, SystemTime)>;
type Cell = Arc<OnceCell<Arc<Encoded>>>;

static CACHE: LazyLock<Mutex<HashMap<Source, (Stamp, Cell)>>> = LazyLock::new(Mutex::default);

/// The file's encoded bodies, made once per content. `read` gives its bytes when they are not
/// kept yet; its error, and a failed compression, are the caller's to answer.
pub async fn encoded<E, F, R>(source: Source, read: F) -> Result<Arc<Encoded>, E>
where
    E: From<CompressError>,
    F: FnOnce() -> R,
    R: Future<Output = Result<Vec<u8>, E>>,
{
    let stamp = match &source {
        Source::Compiled(_) | Source::Made(_) => None,
        Source::Disk(path) => tokio::fs::metadata(path)
            .await
            .ok()
            .and_then(|m| Some((m.len(), m.modified().ok()?))),
    };
    let cell = {
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        let entry = cache
            .entry(source)
            .or_insert_with(|| (stamp, Cell::default()));
        if entry.0 != stamp {
            *entry = (stamp, Cell::default());
        }
        entry.1.clone()
    };
    cell.get_or_try_init(|| async {
        let identity = read().await?;
        let encoded = tokio::task::spawn_blocking(move || Encoded::new(identity))
            .await
            .map_err(|error| CompressError(error.to_string()))??;
        Ok(Arc::new(encoded))
    })
    .await
    .cloned()
}

#[cfg(test)]
mod tests {
    use super::accepts;

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        assert!(accepts("gzip, deflate, br, zstd", "br"));
        assert!(accepts("gzip, deflate, br, zstd", "gzip"));
        assert!(!accepts("gzip, deflate", "br"));
        assert!(!accepts("br;q=0, gzip", "br"));
        assert!(accepts("br;q=0.5", "br"));
        assert!(accepts("*", "br"));
        assert!(!accepts("*, br;q=0", "br"));
        assert!(!accepts("", "gzip"));
    }
}
