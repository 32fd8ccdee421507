//! The areas and the protocol keep to their layers, checked by reading the sources:
//! - `Arcade` is only the composition root: no file but `service/mod.rs` implements it, so an
//!   operation belongs to its area's struct and reaches only what that struct holds (the house
//!   agents and every edge included: they call `arcade.<area>.<operation>`);
//! - `x402/` is the protocol (wire types, verify, facilitator, client): it names neither the
//!   edge (`crate::api`) nor the routes' presentation (`discovery`), and no service does either:
//!   the 402 challenge, the discovery metadata and the manifest are the edge's.

use std::path::{Path, PathBuf};

use crate::error::layering::sources;

/// Whether a line implements `Arcade` itself, by any path and with or without a trait (not a
/// type whose name starts with it).
fn implements_arcade(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix("impl") else {
        return false;
    };
    let rest = match rest.strip_prefix('<') {
        Some(generic) => generic.split_once('>').map_or("", |(_, after)| after),
        None if rest.starts_with(' ') => rest,
        None => return false,
    };
    let head = rest.split('{').next().unwrap_or_default();
    let head = head.split(" where").next().unwrap_or_default();
    let target = head.rsplit(" for ").next().unwrap_or_default().trim();
    let target = target.split('<').next().unwrap_or_default();
    target.rsplit("::").next() == Some("Arcade")
}

/// Every line under `dir` that `offends`, as `path:line: text`, files in `allowed` aside.
fn offending(dir: &Path, allowed: &[PathBuf], offends: impl Fn(&str) -> bool) -> Vec<String> {
    let mut found = Vec::new();
    for path in sources(dir) {
        if allowed.contains(&path) {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a readable source file");
        for (number, line) in text.lines().enumerate() {
            if offends(line) {
                found.push(format!(
                    "{}:{}: {}",
                    path.display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    found
}

/// Whether a line names the edge or the routes' presentation.
fn names_presentation(line: &str) -> bool {
    line.contains("crate::api") || line.contains("discovery::")
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn only_the_composition_root_implements_arcade() {
    let root = src().join("service/mod.rs");
    let walked = sources(&src());
    assert!(
        walked.contains(&root) && walked.iter().any(|p| p.ends_with("housebots/agent.rs")),
        "the walk must reach every source, the house agents included"
    );
    let offending = offending(&src(), &[root], implements_arcade);
    assert!(
        offending.is_empty(),
        "only service/mod.rs implements Arcade; give the operation to its area's struct:\n{}",
        offending.join("\n")
    );
}

#[test]
fn neither_the_protocol_nor_a_service_names_the_presentation() {
    let found: Vec<String> = ["x402", "service"]
        .into_iter()
        .flat_map(|layer| offending(&src().join(layer), &[], names_presentation))
        .collect();
    assert!(
        found.is_empty(),
        "route presentation (the 402 challenge, discovery metadata) belongs to api/:\n{}",
        found.join("\n")
    );
}

#[test]
fn an_implementation_of_arcade_is_found_by_any_path() {
    for line in [
        "impl Arcade {",
        "    impl super::Arcade {",
        "impl Clone for crate::service::Arcade {",
        "impl<T> Arcade where T: Send {",
    ] {
        assert!(implements_arcade(line), "{line}");
    }
    for line in [
        "impl ArcadeTools {",
        "impl Arcades {",
        "// impl Arcade",
        "implies Arcade",
    ] {
        assert!(!implements_arcade(line), "{line}");
    }
}

#[test]
fn the_checks_name_what_they_refuse() {
    let dir = std::env::temp_dir().join(format!("arcade-areas-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("area")).expect("a temporary folder");
    let root = dir.join("mod.rs");
    std::fs::write(&root, "impl Arcade {\n}\n").expect("a file");
    std::fs::write(dir.join("tools.rs"), "impl ArcadeTools {\n}\n").expect("a file");
    std::fs::write(dir.join("area/op.rs"), "use x;\nimpl Arcade {\n}\n").expect("a file");
    std::fs::write(
        dir.join("area/pay.rs"),
        "use crate::api::discovery::Method;\n",
    )
    .expect("a file");
    let arcade = offending(&dir, &[root], implements_arcade);
    let presentation = offending(&dir, &[], names_presentation);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(arcade.len(), 1, "{arcade:?}");
    assert!(arcade[0].contains("area/op.rs:2: impl Arcade {"));
    assert_eq!(presentation.len(), 1, "{presentation:?}");
    assert!(presentation[0].contains("area/pay.rs:1: use crate::api::discovery::Method;"));
}
