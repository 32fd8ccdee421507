//! The documents an agent reads before it plays, compiled in: `/rules.md` (the fairness rules,
//! `docs/fairness.md`), limbo's golden vectors beside the others and what their fields mean
//! (`/vectors/README.md`, `docs/vectors.md`), served as they are in the repository;
//! `/docs/proofs.md` (the signed types, the seed batches, the proof of address) with this
//! deployment's signer, signing domain and signed marks filled in; and `/llms.txt` (the whole
//! flow in one page, with links to the rest): `docs/llms.txt` with this deployment's payment
//! terms filled in.

use salvo::prelude::*;

use super::edge::arcade;
use super::precompressed::{self, CompressError, Source};
use super::spend_controls::SpendControls;
use crate::error::ApiError;
use crate::proofs::HouseSigner;
use crate::service::seeds::signer_address;
use crate::service::signed_marks::SignedMarks;
use crate::x402::Terms;

/// `/llms.txt` before the payment terms are filled in.
pub const LLMS_TXT: &str = include_str!("../../../docs/llms.txt");
/// Where the payment terms go in it.
pub const PAYMENT_TERMS: &str = "{payment_terms}";

/// The fairness rules, `docs/fairness.md`: `/rules.md`, and the first part of MCP's
/// `arcade://rules` (`mcp::rules`).
pub const RULES_MD: &str = include_str!("../../../docs/fairness.md");

/// `/docs/proofs.md` before this deployment's values are filled in.
pub const PROOFS_MD: &str = include_str!("../../../docs/proofs.md");
/// Where the signer's address goes in it (EIP-55).
pub const SIGNER: &str = "{deployment.signer}";
/// Where the signing domain goes (its JSON, `{name, version, chainId}`).
pub const SIGNING_DOMAIN: &str = "{deployment.signing_domain}";
/// Where the signed marks go (their JSON, as the manifest publishes them).
pub const SIGNED_MARKS: &str = "{deployment.signed_marks}";

/// Each document served as compiled: its path under the site root, its media type and its text.
pub const DOCUMENTS: [(&str, &str, &str); 3] = [
    ("rules.md", "text/markdown; charset=utf-8", RULES_MD),
    (
        "vectors/fairness-v1-limbo.json",
        "application/json",
        include_str!("../../../tests/vectors/fairness-v1-limbo.json"),
    ),
    // The golden vectors' `about` points at the README beside them.
    (
        "vectors/README.md",
        "text/markdown; charset=utf-8",
        include_str!("../../../docs/vectors.md"),
    ),
];

/// The routes: `/llms.txt`, `/docs/proofs.md`, and one per document.
pub fn routes() -> Router {
    let made = Router::new()
        .push(Router::with_path("llms.txt").get(llms_txt))
        .push(Router::with_path("docs/proofs.md").get(proofs_md));
    DOCUMENTS.iter().fold(made, |router, (path, ..)| {
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

#[handler]
async fn proofs_md(
    req: &mut Request,
    depot: &mut Depot,
    res: &mut Response,
) -> Result<(), ApiError> {
    let arcade = arcade(depot)?;
    let text = proofs_text(arcade.seed_batches.signer(), arcade.proofs.marks());
    let read = || async { Ok(text.clone().into_bytes()) };
    let encoded = precompressed::encoded::<CompressError, _, _>(Source::Made(text.clone()), read)
        .await
        .map_err(ApiError::internal)?;
    encoded.send(req, res, "text/markdown; charset=utf-8", "no-cache");
    Ok(())
}

/// `docs/proofs.md` with the values a reader checks against filled in as this deployment
/// publishes them: its signer, its signing domain and its signed marks.
pub fn proofs_text(signer: &HouseSigner, marks: &SignedMarks) -> String {
    // Through a `Value`, so the typed data's members are laid out like the rest.
    let marks = serde_json::to_value(marks)
        .and_then(|marks| serde_json::to_string_pretty(&marks))
        .unwrap_or_default();
    PROOFS_MD
        .replace(SIGNER, &signer_address(signer))
        .replace(SIGNING_DOMAIN, &signer.domain().to_string())
        .replace(SIGNED_MARKS, &marks)
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
