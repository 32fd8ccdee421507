//! What a module of the element can load, read from its text: the specifier of each
//! `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`, and each
//! `new URL('…', import.meta.url)` (how a module names a file it fetches, such as its wasm).
//!
//! Only relative references stay inside the versioned set: `/web/x.js` or another origin would
//! load a file no `integrity` pins. Such a reference, or one to a file the server does not
//! serve, is refused when the set is built, so the set is closed by construction. A specifier
//! built at run time (a template string) is not seen here; under `/embed/` it answers 404, so
//! the element fails rather than loading an unpinned file.

use std::sync::LazyLock;

use regex::Regex;

/// `from '…'` and `import '…'` (static), `import('…')` (dynamic), not a method such as
/// `Array.from('…')`; and `new URL('…', import.meta.url)`.
/// A literal pattern, compiled by every test below: it cannot fail at run time.
static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?m)(?:^|[^.\w$])(?:(?:from|import)\s*|import\s*\(\s*)['"](?P<module>[^'"\n]+)['"]|\bnew\s+URL\(\s*['"](?P<url>[^'"\n]+)['"]\s*,\s*import\.meta\.url"#,
    )
    .expect("the pattern compiles")
});

/// One reference of a module's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reference<'a> {
    /// A module specifier: relative only when it starts with `./` or `../`.
    Module(&'a str),
    /// A URL resolved against the module's own: relative unless it has a scheme or a `/`.
    Url(&'a str),
}

pub fn references(text: &str) -> impl Iterator<Item = Reference<'_>> {
    REFERENCE.captures_iter(text).filter_map(|found| {
        found
            .name("module")
            .map(|m| Reference::Module(m.as_str()))
            .or_else(|| found.name("url").map(|u| Reference::Url(u.as_str())))
    })
}

/// The path under the site root (`wasm/arcade.js`) that `reference` names from the module at
/// `from` (`web/verifier.js`); `None` when it does not stay inside the root by a relative
/// path.
pub fn resolve(from: &str, reference: Reference<'_>) -> Option<String> {
    let relative = match reference {
        Reference::Module(spec) => spec.starts_with("./") || spec.starts_with("../"),
        Reference::Url(spec) => !spec.starts_with('/') && !has_scheme(spec),
    };
    let (Reference::Module(spec) | Reference::Url(spec)) = reference;
    if !relative || spec.contains(['?', '#', '\\']) {
        return None;
    }
    let mut segments: Vec<&str> = from.split('/').collect();
    segments.pop();
    for segment in spec.split('/') {
        match segment {
            "." => {}
            ".." => {
                segments.pop()?;
            }
            "" => return None,
            name => segments.push(name),
        }
    }
    (!segments.is_empty()).then(|| segments.join("/"))
}

/// Whether `spec` starts with a URL scheme (`https:`, `data:`, `node:`).
fn has_scheme(spec: &str) -> bool {
    spec.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_reference_is_read() {
        let text = r#"
            import init, { verify } from '../wasm/arcade.js';
            import { explain } from "./steps.js";
            export { default, initSync } from './arcade_wasm.js';
            import './side-effect.js';
            const later = import('../wasm/arcade_proofs.js');
            const wasm = new URL('arcade_wasm_bg.wasm', import.meta.url);
            // not imports: fetch('./x.js'), Array.from('abc'), Buffer.from("x"), "information"
        "#;
        let found: Vec<_> = references(text).collect();
        assert_eq!(
            found,
            [
                Reference::Module("../wasm/arcade.js"),
                Reference::Module("./steps.js"),
                Reference::Module("./arcade_wasm.js"),
                Reference::Module("./side-effect.js"),
                Reference::Module("../wasm/arcade_proofs.js"),
                Reference::Url("arcade_wasm_bg.wasm"),
            ]
        );
    }

    #[test]
    fn relative_references_resolve_under_the_root() {
        let from = "web/verifier.js";
        let module = |spec| resolve(from, Reference::Module(spec));
        assert_eq!(module("./steps.js").as_deref(), Some("web/steps.js"));
        assert_eq!(
            module("../wasm/arcade.js").as_deref(),
            Some("wasm/arcade.js")
        );
        assert_eq!(
            resolve("wasm/arcade_wasm.js", Reference::Url("arcade_wasm_bg.wasm")).as_deref(),
            Some("wasm/arcade_wasm_bg.wasm")
        );
    }

    #[test]
    fn references_that_leave_the_set_resolve_to_nothing() {
        let from = "web/verifier.js";
        for spec in [
            "/web/steps.js",
            "https://cdn.example/x.js",
            "//cdn.example/x.js",
            "steps.js",
            "node:fs",
            "../../etc/passwd",
            "./steps.js?v=1",
            "./a//b.js",
            "..\\wasm\\arcade.js",
        ] {
            assert_eq!(resolve(from, Reference::Module(spec)), None, "{spec}");
        }
        for spec in [
            "/wasm/x.wasm",
            "data:application/wasm;base64,AA",
            "../../x.wasm",
        ] {
            assert_eq!(resolve(from, Reference::Url(spec)), None, "{spec}");
        }
    }
}
