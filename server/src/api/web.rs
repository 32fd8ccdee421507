//! The verifier page and its assets: the page at `/`, its modules under `/web/` (built into the
//! binary), the wasm package under `/wasm/` (read from `web.wasm_dir`, the `web`-target
//! wasm-pack output) and the golden vectors under `/vectors/`. CORS (see `cors.rs`) lets any
//! origin load `/web/verifier.js` and the wasm it imports.

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Arc;

use salvo::http::StatusCode;
use salvo::prelude::*;

use super::edge::shared;
use super::precompressed::{self, Encoded, Source};
use crate::error::ApiError;

/// The page's own files, compiled in so the binary serves them from anywhere.
const FILES: [(&str, &str, &str); 16] = [
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
/// The files of the wasm packages the page loads: the fairness verifier (its entry `arcade.js`
/// with the field readers it imports, `fields.js`, wrapping wasm-bindgen's `arcade_wasm.js`),
/// and the signature checker (`true`: from `web.proofs_wasm_dir`).
const WASM_FILES: [(&str, &str, bool); 6] = [
    ("arcade.js", "text/javascript; charset=utf-8", false),
    ("fields.js", "text/javascript; charset=utf-8", false),
    ("arcade_wasm.js", "text/javascript; charset=utf-8", false),
    ("arcade_wasm_bg.wasm", "application/wasm", false),
    ("arcade_proofs.js", "text/javascript; charset=utf-8", true),
    ("arcade_proofs_bg.wasm", "application/wasm", true),
];

#[handler]
pub async fn page(req: &mut Request, res: &mut Response) {
    let (name, kind, _) = FILES[0];
    compiled(name).await.send(req, res, kind, "no-cache");
}

#[handler]
pub async fn asset(req: &mut Request, res: &mut Response) -> Result<(), ApiError> {
    let name: String = req.param("file").unwrap_or_default();
    let (name, kind, _) = FILES
        .iter()
        .find(|(file, ..)| *file == name)
        .ok_or(ApiError::NotFound)?;
    compiled(name).await.send(req, res, kind, "no-cache");
    Ok(())
}

#[handler]
pub async fn vectors(req: &mut Request, res: &mut Response) {
    compiled(VECTORS_NAME)
        .await
        .send(req, res, "application/json", "public, max-age=3600");
}

#[handler]
pub async fn wasm(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
) -> Result<(), ApiError> {
    let name: String = req.param("file").unwrap_or_default();
    let (file, kind, proofs) = WASM_FILES
        .iter()
        .find(|(file, ..)| *file == name)
        .ok_or(ApiError::NotFound)?;
    let shared = shared(depot)?;
    let dir = if *proofs {
        &shared.proofs_wasm_dir
    } else {
        &shared.wasm_dir
    };
    match on_disk(dir.join(file)).await {
        Ok(encoded) => encoded.send(req, res, kind, "no-cache"),
        Err(error) => {
            tracing::warn!(dir = %dir.display(), %error, "the wasm package is not built");
            res.status_code(StatusCode::SERVICE_UNAVAILABLE);
            res.render(Text::Plain(
                "the wasm package is not built: wasm/build.sh web (wasm-pack build and its entry, arcade.js), and proofs-wasm: wasm-pack build proofs-wasm --release --target web --out-dir pkg-web",
            ));
        }
    }
    Ok(())
}

/// A compiled-in file (a page file's name, or `VECTORS_NAME`), compressed once.
async fn compiled(name: &'static str) -> Arc<Encoded> {
    let text = FILES
        .iter()
        .find(|(file, ..)| *file == name)
        .map_or(VECTORS, |(.., text)| text);
    let read = || async { Ok::<_, Infallible>(text.as_bytes().to_vec()) };
    let Ok(encoded) = precompressed::encoded(Source::Compiled(name), read).await;
    encoded
}

/// A file of a wasm package, compressed once per build of it.
async fn on_disk(path: PathBuf) -> std::io::Result<Arc<Encoded>> {
    let read = || tokio::fs::read(path.clone());
    precompressed::encoded(Source::Disk(path.clone()), read).await
}

/// Compresses the files of the page's first screen (its modules and the verifier's wasm), so
/// the first visitor does not wait for them. The rest (the golden vectors, the signature
/// checker) are compressed when first asked for; a package not built yet is skipped.
pub async fn warm(wasm_dir: PathBuf) {
    for (name, ..) in FILES {
        compiled(name).await;
    }
    for (file, ..) in WASM_FILES.iter().filter(|(.., proofs)| !proofs) {
        let _ = on_disk(wasm_dir.join(file)).await;
    }
}
