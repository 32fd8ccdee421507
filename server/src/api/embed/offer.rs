//! `GET /api/arcade/embed`'s answer: the set's files with their SRI hashes, and the HTML an
//! embedding site pastes. The snippet pins every file a browser can check: the element's script
//! by its own `integrity`, the modules it imports by the import map's `integrity` entries
//! (applied to every import of those URLs, static or dynamic), and the wasm by the hashes
//! `wasm-pins.js` (itself one of the pinned modules) carries to `cores.js`, which fetches it
//! with them. Changing any byte the element runs makes the browser refuse it.

use salvo::oapi::ToSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::set::{ENTRY, EmbedSet};

#[derive(Debug, Serialize, ToSchema)]
pub struct EmbedSnippet {
    /// The set's version: a digest of every file in it, which every path carries.
    pub version: String,
    /// HTML for the embedding page: an import map with the modules' `integrity`, the element's
    /// script with its own, and an `<arcade-verifier>` to adapt (`bet-id`, or `receipt`) that
    /// pins the house's signer.
    pub snippet: String,
    /// Every file of the set: its path (served immutable) and SRI hash (`sha384-…`).
    pub files: Vec<EmbedFile>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EmbedFile {
    /// `/embed/{version}/web/verifier.js` and the like, `version` the set's.
    pub path: String,
    pub integrity: String,
}

/// The answer for `set`, its URLs on `base_url` (where clients reach the service), the element
/// pinned to `signer` (the house's address that signs every proof).
pub fn answer(base_url: &str, set: &EmbedSet, signer: &str) -> EmbedSnippet {
    let root = format!("/embed/{}/", set.version);
    let files = set
        .files()
        .map(|(path, file)| EmbedFile {
            path: format!("{root}{path}"),
            integrity: file.encoded.integrity().to_owned(),
        })
        .collect();
    let modules: Map<String, Value> = set
        .files()
        .filter(|(_, file)| file.kind.starts_with("text/javascript"))
        .map(|(path, file)| {
            let url = format!("{base_url}{root}{path}");
            (url, json!(file.encoded.integrity()))
        })
        .collect();
    // Cannot fail: a JSON value whose maps have string keys always serializes.
    let map = serde_json::to_string_pretty(&json!({ "integrity": modules }))
        .expect("a map of strings serializes")
        // Inside <script>, `</script` would end the element early; JSON reads \u003c as `<`.
        .replace('<', "\\u003c");
    let entry = set.get(ENTRY).map_or("", |file| file.encoded.integrity());
    let script = attribute(&format!("{base_url}{root}{ENTRY}"));
    let snippet = format!(
        "<script type=\"importmap\">\n{map}\n</script>\n\
         <script type=\"module\" src=\"{script}\" integrity=\"{entry}\" crossorigin=\"anonymous\"></script>\n\
         <arcade-verifier bet-id=\"42\" api=\"{}\" signer=\"{}\"></arcade-verifier>",
        attribute(base_url),
        attribute(signer),
    );
    EmbedSnippet {
        version: set.version.clone(),
        snippet,
        files,
    }
}

/// `text` as an HTML attribute value, inside double quotes.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::attribute;

    #[test]
    fn a_url_cannot_close_its_attribute() {
        assert_eq!(
            attribute("https://a.example/?x=\"><script>"),
            "https://a.example/?x=&quot;&gt;&lt;script&gt;"
        );
    }
}
