//! The documents an agent reads before it plays, compiled in and served as they are in the
//! repository: `/llms.txt` (the whole flow in one page, with links to the rest), `/rules.md`
//! (the fairness rules, `docs/fairness.md`), `/docs/proofs.md` (the signed types and the seed
//! batches) and limbo's golden vectors beside the others.

use salvo::prelude::*;

use super::precompressed::{self, CompressError, Source};
use crate::error::ApiError;

/// Each document: its path under the site root, its media type and its text.
pub const DOCUMENTS: [(&str, &str, &str); 4] = [
    (
        "llms.txt",
        "text/plain; charset=utf-8",
        include_str!("../../../docs/llms.txt"),
    ),
    (
        "rules.md",
        "text/markdown; charset=utf-8",
        include_str!("../../../docs/fairness.md"),
    ),
    (
        "docs/proofs.md",
        "text/markdown; charset=utf-8",
        include_str!("../../../docs/proofs.md"),
    ),
    (
        "vectors/fairness-v1-limbo.json",
        "application/json",
        include_str!("../../../tests/vectors/fairness-v1-limbo.json"),
    ),
];

/// The routes, one per document.
pub fn routes() -> Router {
    DOCUMENTS.iter().fold(Router::new(), |router, (path, ..)| {
        router.push(Router::with_path(*path).get(document))
    })
}

#[handler]
async fn document(req: &mut Request, res: &mut Response) -> Result<(), ApiError> {
    let path = req.uri().path().trim_start_matches('/').to_owned();
    let Some((name, kind, text)) = DOCUMENTS.iter().find(|(name, ..)| *name == path) else {
        return Err(ApiError::NotFound);
    };
    let read = || async { Ok(text.as_bytes().to_vec()) };
    let encoded = precompressed::encoded::<CompressError, _, _>(Source::Compiled(name), read)
        .await
        .map_err(ApiError::internal)?;
    encoded.send(req, res, kind, "public, max-age=300");
    Ok(())
}
