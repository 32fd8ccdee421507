//! The documents an agent reads before it plays, compiled in and served as they are in the
//! repository: `/rules.md` (the fairness rules, `docs/fairness.md`), `/docs/proofs.md` (the
//! signed types and the seed batches) and limbo's golden vectors beside the others; and
//! `/llms.txt` (the whole flow in one page, with links to the rest): `docs/llms.txt` with this
//! deployment's payment terms filled in.

use salvo::prelude::*;

use super::edge::arcade;
use super::precompressed::{self, CompressError, Source};
use super::spend_controls::SpendControls;
use crate::error::ApiError;
use crate::x402::Terms;

/// `/llms.txt` before the payment terms are filled in.
pub const LLMS_TXT: &str = include_str!("../../../docs/llms.txt");
/// Where the payment terms go in it.
pub const PAYMENT_TERMS: &str = "{payment_terms}";

/// The fairness rules, `docs/fairness.md`: `/rules.md`, and the first part of MCP's
/// `arcade://rules` (`mcp::rules`).
pub const RULES_MD: &str = include_str!("../../../docs/fairness.md");

/// Each document: its path under the site root, its media type and its text.
pub const DOCUMENTS: [(&str, &str, &str); 3] = [
    ("rules.md", "text/markdown; charset=utf-8", RULES_MD),
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

/// The routes: `/llms.txt`, and one per document.
pub fn routes() -> Router {
    let llms = Router::new().push(Router::with_path("llms.txt").get(llms_txt));
    DOCUMENTS.iter().fold(llms, |router, (path, ..)| {
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

#[handler]
async fn llms_txt(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
) -> Result<(), ApiError> {
    let terms = arcade(depot)?
        .purchases
        .payments()
        .ok()
        .map(|payments| &payments.terms);
    let text = LLMS_TXT.replace(PAYMENT_TERMS, &payment_terms(terms));
    let read = || async { Ok(text.clone().into_bytes()) };
    let encoded = precompressed::encoded::<CompressError, _, _>(Source::Made(text.clone()), read)
        .await
        .map_err(ApiError::internal)?;
    encoded.send(req, res, "text/plain; charset=utf-8", "no-cache");
    Ok(())
}

/// This deployment's payment terms, and how the official clients are told to allow its token.
pub fn payment_terms(terms: Option<&Terms>) -> String {
    let Some(terms) = terms else {
        return "This deployment sells no chips: no chain is configured. Free chips still play."
            .to_owned();
    };
    let lines = SpendControls::of(terms);
    format!(
        "Payments are on `{network}` in the token `{asset}` (EIP-712 domain `{name}`, version \
         `{version}`). Allow it before paying (the 402 carries the same lines in \
         `extensions[\"spend-controls\"]`):\n\n\
         ```ts\n\
         // npm @x402/fetch + @x402/evm\n\
         {npm}\n\
         ```\n\n\
         ```python\n\
         # PyPI x402\n\
         {pypi}\n\
         ```",
        network = terms.network,
        asset = terms.asset.to_checksum(None),
        name = terms.token_name,
        version = terms.token_version,
        npm = lines.npm,
        pypi = lines.pypi,
    )
}
