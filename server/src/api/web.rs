//! The verifier page and its assets: the page at `/`, its modules under `/web/` (built into the
//! binary), the wasm package under `/wasm/` (read from `web.wasm_dir`, the `web`-target
//! wasm-pack output) and the golden vectors under `/vectors/`. CORS (see `cors.rs`) lets any
//! origin load `/web/verifier.js` and the wasm it imports.

use salvo::http::StatusCode;
use salvo::prelude::*;

use super::edge::shared;
use crate::error::ApiError;

/// The page's own files, compiled in so the binary serves them from anywhere.
const FILES: [(&str, &str, &str); 11] = [
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
    // The audit command's own modules: the monitor checks rounds with the same code.
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
        "rounds.mjs",
        "text/javascript; charset=utf-8",
        include_str!("../../../audit/rounds.mjs"),
    ),
    (
        "proofs.mjs",
        "text/javascript; charset=utf-8",
        include_str!("../../../audit/proofs.mjs"),
    ),
];
const VECTORS: &str = include_str!("../../../tests/vectors/fairness-v1.json");
/// The files of the wasm packages the page loads: the fairness verifier (its entry `arcade.js`,
/// which wraps wasm-bindgen's `arcade_wasm.js`), and the signature checker (`true`: from
/// `web.proofs_wasm_dir`).
const WASM_FILES: [(&str, &str, bool); 5] = [
    ("arcade.js", "text/javascript; charset=utf-8", false),
    ("arcade_wasm.js", "text/javascript; charset=utf-8", false),
    ("arcade_wasm_bg.wasm", "application/wasm", false),
    ("arcade_proofs.js", "text/javascript; charset=utf-8", true),
    ("arcade_proofs_bg.wasm", "application/wasm", true),
];

#[handler]
pub async fn page(res: &mut Response) {
    send(res, FILES[0].1, FILES[0].2.as_bytes().to_vec(), "no-cache");
}

#[handler]
pub async fn asset(req: &mut Request, res: &mut Response) -> Result<(), ApiError> {
    let name: String = req.param("file").unwrap_or_default();
    let (_, kind, body) = FILES
        .iter()
        .find(|(file, ..)| *file == name)
        .ok_or(ApiError::NotFound)?;
    send(res, kind, body.as_bytes().to_vec(), "no-cache");
    Ok(())
}

#[handler]
pub async fn vectors(res: &mut Response) {
    send(
        res,
        "application/json",
        VECTORS.as_bytes().to_vec(),
        "public, max-age=3600",
    );
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
    match tokio::fs::read(dir.join(file)).await {
        Ok(bytes) => send(res, kind, bytes, "no-cache"),
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

fn send(res: &mut Response, kind: &str, body: Vec<u8>, cache: &str) {
    res.add_header("content-type", kind, true).ok();
    res.add_header("cache-control", cache, true).ok();
    res.write_body(body).ok();
}
