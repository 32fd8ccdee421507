//! The verifier page and its assets: the page at `/`, its modules under `/web/` (built into the
//! binary), the wasm packages under `/wasm/` (read from where `wasm_dirs` finds them, the
//! `web`-target packages `wasm/pack.mjs` builds) and the golden vectors under `/vectors/`. `/web/wasm-pins.js` is made here
//! from the wasm files served: their SRI hashes, which `cores.js` fetches them with. The page
//! and its modules carry the page's Content-Security-Policy (`security`). The element's pinned
//! set for other sites is `embed`; it reads its files through `load`.

use std::fmt::Write;
use std::path::PathBuf;
use std::sync::Arc;

use salvo::http::StatusCode;
use salvo::prelude::*;

use super::edge::{Shared, shared};
use super::precompressed::{self, CompressError, Encoded, Source};
use super::security;
use super::wasm_dirs::{NOT_FOUND_FIX, WASM_FILES, WasmDirs};
use crate::error::ApiError;

/// The page's own files, compiled in so the binary serves them from anywhere.
const FILES: [(&str, &str, &str); 18] = [
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("../../../web/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/app.js"),
    ),
    (
        "steps.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/steps.js"),
    ),
    (
        "verifier.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/verifier.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../../../web/style.css"),
    ),
    (
        "monitor.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/monitor.js"),
    ),
    (
        "charts.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/charts.js"),
    ),
    (
        "pin.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/pin.js"),
    ),
    // The audit command's own modules: the page, the element and the monitor check rounds
    // with the same code.
    (
        "stats.mjs",
        "text/javascript; charset=utf-8",
        include_str!("../../../audit/stats.mjs"),
    ),
    (
        "feed.mjs",
        "text/javascript; charset=utf-8",
        include_str!("../../../audit/feed.mjs"),
    ),
    (
        "verdicts.mjs",
        "text/javascript; charset=utf-8",
        include_str!("../../../audit/verdicts.mjs"),
    ),
    (
        "trust.mjs",
        "text/javascript; charset=utf-8",
        include_str!("../../../audit/trust.mjs"),
    ),
    (
        "proofs.mjs",
        "text/javascript; charset=utf-8",
        include_str!("../../../audit/proofs.mjs"),
    ),
    (
        "cores.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/cores.js"),
    ),
    (
        "embed-snippet.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/embed-snippet.js"),
    ),
    (
        "batches.mjs",
        "text/javascript; charset=utf-8",
        include_str!("../../../audit/batches.mjs"),
    ),
    (
        "floor.mjs",
        "text/javascript; charset=utf-8",
        include_str!("../../../audit/floor.mjs"),
    ),
    (
        "bet.mjs",
        "text/javascript; charset=utf-8",
        include_str!("../../../audit/bet.mjs"),
    ),
];
const VECTORS: &str = include_str!("../../../tests/vectors/fairness-v1.json");
const VECTORS_NAME: &str = "fairness-v1.json";

/// The module the server makes: the wasm files' SRI hashes.
const PINS_NAME: &str = "wasm-pins.js";
const JAVASCRIPT: &str = "text/javascript; charset=utf-8";

/// A file the server serves, by its path under the site root, ready to send.
pub struct Loaded {
    pub encoded: Arc<Encoded>,
    pub kind: &'static str,
}

/// A wasm package's file that cannot be read (the package is not built, or not there).
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct NotBuilt {
    path: PathBuf,
    source: std::io::Error,
}

/// Why a path has no file.
#[derive(Debug)]
pub enum Unavailable {
    /// A file of a wasm package not built.
    NotBuilt(NotBuilt),
    /// No file the server serves has that path.
    Unknown,
    /// The file could not be compressed.
    Compression(CompressError),
}

impl From<CompressError> for Unavailable {
    fn from(error: CompressError) -> Self {
        Self::Compression(error)
    }
}

#[handler]
pub async fn page(req: &mut Request, res: &mut Response) -> Result<(), ApiError> {
    let (name, kind, _) = FILES[0];
    let encoded = compiled(name).await.map_err(ApiError::internal)?;
    security::page_policy(res);
    encoded.send(req, res, kind, "no-cache");
    Ok(())
}

#[handler]
pub async fn asset(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
) -> Result<(), ApiError> {
    let name: String = req.param("file").unwrap_or_default();
    let file = match load(shared(depot)?, &format!("web/{name}")).await {
        Ok(file) => file,
        Err(Unavailable::Unknown) => return Err(ApiError::NotFound),
        Err(Unavailable::NotBuilt(error)) => return Err(ApiError::internal(error)),
        Err(Unavailable::Compression(error)) => return Err(ApiError::internal(error)),
    };
    security::page_policy(res);
    file.encoded.send(req, res, file.kind, "no-cache");
    Ok(())
}

#[handler]
pub async fn vectors(req: &mut Request, res: &mut Response) -> Result<(), ApiError> {
    let encoded = compiled(VECTORS_NAME).await.map_err(ApiError::internal)?;
    encoded.send(req, res, "application/json", "public, max-age=3600");
    Ok(())
}

#[handler]
pub async fn wasm(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
) -> Result<(), ApiError> {
    let name: String = req.param("file").unwrap_or_default();
    match load(shared(depot)?, &format!("wasm/{name}")).await {
        Ok(file) => file.encoded.send(req, res, file.kind, "no-cache"),
        Err(Unavailable::Unknown) => return Err(ApiError::NotFound),
        Err(Unavailable::Compression(error)) => return Err(ApiError::internal(error)),
        Err(Unavailable::NotBuilt(error)) => {
            tracing::warn!(%error, "a wasm file the page loads is missing");
            res.status_code(StatusCode::SERVICE_UNAVAILABLE);
            // The path stays in the log: the body names no directory of the server's.
            res.render(Text::Plain(format!(
                "the wasm files are missing; {NOT_FOUND_FIX}"
            )));
        }
    }
    Ok(())
}

/// The file at `path` under the site root (`web/verifier.js`, `wasm/arcade_wasm_bg.wasm`), as
/// `/web/` and `/wasm/` serve it.
pub async fn load(shared: &Shared, path: &str) -> Result<Loaded, Unavailable> {
    match path.split_once('/') {
        Some(("web", PINS_NAME)) => Ok(Loaded {
            encoded: pins(shared).await?,
            kind: JAVASCRIPT,
        }),
        Some(("web", name)) => {
            let (name, kind, _) = FILES
                .iter()
                .find(|(file, ..)| *file == name)
                .ok_or(Unavailable::Unknown)?;
            Ok(Loaded {
                encoded: compiled(name).await?,
                kind,
            })
        }
        Some(("wasm", name)) => {
            let (file, kind, _) = WASM_FILES
                .iter()
                .find(|(file, ..)| *file == name)
                .ok_or(Unavailable::Unknown)?;
            let encoded = on_disk(wasm_path(shared, file)).await?;
            Ok(Loaded { encoded, kind })
        }
        _ => Err(Unavailable::Unknown),
    }
}

/// Where a wasm package's file is on disk.
fn wasm_path(shared: &Shared, file: &str) -> PathBuf {
    let proofs = WASM_FILES
        .iter()
        .any(|(name, _, proofs)| *name == file && *proofs);
    let dir = if proofs {
        &shared.wasm.proofs
    } else {
        &shared.wasm.verifier
    };
    dir.join(file)
}

/// `wasm-pins.js`: the SRI hash of each `.wasm` served now (a package not built has none, and
/// `cores.js` then refuses to run it). Made from the files, so a rebuilt package is pinned.
async fn pins(shared: &Shared) -> Result<Arc<Encoded>, CompressError> {
    let mut text = String::from(
        "// Made by the server from the wasm files it serves: the SRI hash each is fetched with.\n\
         export const WASM_INTEGRITY = Object.freeze({\n",
    );
    for (file, ..) in WASM_FILES
        .iter()
        .filter(|(file, ..)| file.ends_with(".wasm"))
    {
        if let Ok(encoded) = on_disk(wasm_path(shared, file)).await {
            let _ = writeln!(text, "  '{file}': '{}',", encoded.integrity());
        }
    }
    text.push_str("});\n");
    let read = || async { Ok(text.clone().into_bytes()) };
    precompressed::encoded(Source::Made(text.clone()), read).await
}

/// A compiled-in file (a page file's name, or `VECTORS_NAME`), compressed once.
async fn compiled(name: &'static str) -> Result<Arc<Encoded>, CompressError> {
    let text = FILES
        .iter()
        .find(|(file, ..)| *file == name)
        .map_or(VECTORS, |(.., text)| text);
    let read = || async { Ok(text.as_bytes().to_vec()) };
    precompressed::encoded(Source::Compiled(name), read).await
}

/// A file of a wasm package, compressed once per build of it.
async fn on_disk(path: PathBuf) -> Result<Arc<Encoded>, Unavailable> {
    let read = || async {
        tokio::fs::read(&path).await.map_err(|source| {
            Unavailable::NotBuilt(NotBuilt {
                path: path.clone(),
                source,
            })
        })
    };
    precompressed::encoded(Source::Disk(path.clone()), read).await
}

/// Compresses the files of the page's first screen (its modules and the verifier's wasm), so
/// the first visitor does not wait for them. The rest (the golden vectors, the signature
/// checker) are compressed when first asked for; a package not built yet is skipped.
pub async fn warm(dirs: WasmDirs) {
    for (name, ..) in FILES {
        if let Err(error) = compiled(name).await {
            tracing::error!(name, %error, "the page's file is answered 500 until it compresses");
        }
    }
    for (file, ..) in WASM_FILES.iter().filter(|(.., proofs)| !proofs) {
        let _ = on_disk(dirs.verifier.join(file)).await;
    }
}
