//! The embeddable `<arcade-verifier>` for other sites, pinned: its files at versioned,
//! immutable paths (`/embed/<version>/web/verifier.js`, `…/wasm/arcade_wasm_bg.wasm`; `set`)
//! and the snippet that carries their SRI hashes (`GET /api/arcade/embed`; `offer`). A server
//! that changes any of those bytes later, for every embedding site at once, gets its change
//! refused by each reader's browser; the page's own `/web/` and `/wasm/` paths stay as they are.

mod imports;
mod offer;
mod set;

use salvo::prelude::*;

use self::offer::EmbedSnippet;
use self::set::SetError;
use super::edge::{Shared, arcade, shared};
use crate::error::ApiError;
use crate::service::seeds;

/// A version's files never change: a year, and no revalidation.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The snippet that embeds `<arcade-verifier>` in another site, with every file it loads at a
/// versioned path and pinned by its SRI hash (`integrity`): a changed script, module or wasm
/// file is refused by the reader's browser. The version changes whenever any of them does.
/// The element in the snippet pins the house's signer too (`signer`).
#[endpoint(tags("verifier"))]
pub async fn snippet(depot: &mut Depot) -> Result<Json<EmbedSnippet>, ApiError> {
    let signer = seeds::signer_address(arcade(depot)?.seed_batches.signer());
    let shared = shared(depot)?;
    let set = current(shared).await?;
    Ok(Json(offer::answer(&shared.base_url, &set, &signer)))
}

/// `GET /embed/{version}/{dir}/{file}`: a file of the current set, immutable; any other
/// version, or a file outside the set, is a 404 (which no cache keeps long).
#[handler]
pub async fn file(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
) -> Result<(), ApiError> {
    let version: String = req.param("version").unwrap_or_default();
    let path = format!(
        "{}/{}",
        req.param::<String>("dir").unwrap_or_default(),
        req.param::<String>("file").unwrap_or_default()
    );
    let set = current(shared(depot)?).await?;
    let found = (version == set.version)
        .then(|| set.get(&path))
        .flatten()
        .ok_or(ApiError::NotFound)?;
    found.encoded.send(req, res, found.kind, IMMUTABLE);
    Ok(())
}

async fn current(shared: &Shared) -> Result<set::EmbedSet, ApiError> {
    set::current(shared).await.map_err(|error| match error {
        SetError::NotBuilt(error) => {
            tracing::warn!(%error, "the wasm package is not built");
            ApiError::WasmNotBuilt
        }
        outside @ SetError::Outside { .. } => ApiError::internal(outside),
        compression @ SetError::Compression(_) => ApiError::internal(compression),
    })
}
