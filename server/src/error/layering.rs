//! The services do not know the edge: no file under `src/service` names `crate::error` or
//! `ApiError`, so each area's error stays a domain error and only `error/` maps it.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, depth first.
pub(crate) fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {dir:?}: {e}"));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files
}

/// The files under `dir` that name the edge's error, each with the first line that does.
fn naming_the_edge(dir: &Path) -> Vec<String> {
    sources(dir)
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).expect("a readable source file");
            let (number, line) = text
                .lines()
                .enumerate()
                .find(|(_, line)| line.contains("crate::error") || line.contains("ApiError"))?;
            Some(format!(
                "{}:{}: {}",
                path.display(),
                number + 1,
                line.trim()
            ))
        })
        .collect()
}

#[test]
fn no_service_file_imports_the_edge_error() {
    let service = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/service");
    let read = sources(&service);
    assert!(
        read.iter().any(|p| p.ends_with("service/plays/mod.rs"))
            && read.iter().any(|p| p.ends_with("service/cashouts/mod.rs")),
        "the walk must reach the service sources, nested folders included"
    );
    let offending = naming_the_edge(&service);
    assert!(
        offending.is_empty(),
        "service files name the edge's error (return the area's domain error instead):\n{}",
        offending.join("\n")
    );
}

#[test]
fn the_check_names_a_file_that_imports_the_edge_error() {
    let dir = std::env::temp_dir().join(format!("arcade-layering-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("area")).expect("a temporary folder");
    std::fs::write(dir.join("clean.rs"), "use crate::store;\n").expect("a file");
    std::fs::write(dir.join("area/leaky.rs"), "use crate::error::ApiError;\n").expect("a file");
    let offending = naming_the_edge(&dir);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(offending.len(), 1);
    assert!(offending[0].contains("area/leaky.rs:1: use crate::error::ApiError;"));
}
