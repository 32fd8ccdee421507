//! Where the wasm files the page, the element and the monitor load (`/wasm/…`) are on disk,
//! whatever the working directory: `web.dir` when set (one directory holding all of them);
//! else beside the binary, as a release and the container image lay them out
//! (`<prefix>/bin/arcade`, `<prefix>/share/arcade/wasm/`); else the source tree the binary was
//! built from (`wasm/pkg-web` and `proofs-wasm/pkg-web`, which `web/build.sh` builds).

use std::path::{Path, PathBuf};

/// The files of the wasm packages the page loads: the fairness verifier (its entry `arcade.js`
/// with what it imports, the field readers `fields.js`, each game's slots `slots.js` and the
/// games' descriptions `games.js`, wrapping wasm-bindgen's `arcade_wasm.js`), and the signature checker (`true`: from
/// [`WasmDirs::proofs`]).
pub const WASM_FILES: [(&str, &str, bool); 8] = [
    ("arcade.js", "text/javascript; charset=utf-8", false),
    ("fields.js", "text/javascript; charset=utf-8", false),
    ("slots.js", "text/javascript; charset=utf-8", false),
    ("games.js", "text/javascript; charset=utf-8", false),
    ("arcade_wasm.js", "text/javascript; charset=utf-8", false),
    ("arcade_wasm_bg.wasm", "application/wasm", false),
    ("arcade_proofs.js", "text/javascript; charset=utf-8", true),
    ("arcade_proofs_bg.wasm", "application/wasm", true),
];

/// Every wasm package file the server serves, each with the directory it is in.
pub fn files(dirs: &WasmDirs) -> impl Iterator<Item = (&'static str, &Path)> {
    WASM_FILES.iter().map(move |(file, _, proofs)| {
        let dir = if *proofs {
            &dirs.proofs
        } else {
            &dirs.verifier
        };
        (*file, dir.as_path())
    })
}

/// What `/wasm/` serves from, and how it was chosen.
#[derive(Debug, Clone)]
pub struct WasmDirs {
    /// The fairness verifier's package (`arcade.js`, `fields.js`, `slots.js`, `games.js`,
    /// `arcade_wasm*`).
    pub verifier: PathBuf,
    /// The signature checker's package (`arcade_proofs*`).
    pub proofs: PathBuf,
    /// Which rule chose them, for the log and `arcade doctor`.
    pub found: Found,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// `web.dir`, as configured.
    Configured,
    /// `share/arcade/wasm` beside the binary.
    BesideBinary,
    /// The source tree's build output.
    SourceTree,
    /// Nowhere: the paths are the source tree's, for the message that says how to build them.
    Nowhere,
}

/// The file every complete set holds; a directory without it is not a candidate.
const MARKER: &str = "arcade_wasm_bg.wasm";
/// The release layout's directory, relative to the binary's own directory.
pub const BESIDE_BINARY: &str = "../share/arcade/wasm";
/// What builds the source tree's packages.
pub const BUILD_COMMAND: &str = "web/build.sh";

impl WasmDirs {
    /// The directories `/wasm/` serves from (see the module's rules).
    pub fn locate(configured: Option<&str>) -> Self {
        if let Some(dir) = configured {
            return Self::one(PathBuf::from(dir), Found::Configured);
        }
        let beside = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(|dir| dir.join(BESIDE_BINARY)));
        if let Some(dir) = beside.filter(|dir| dir.join(MARKER).is_file()) {
            let dir = dir.canonicalize().unwrap_or(dir);
            return Self::one(dir, Found::BesideBinary);
        }
        let server = Path::new(env!("CARGO_MANIFEST_DIR"));
        let tree = server.parent().unwrap_or(server);
        let verifier = tree.join("wasm/pkg-web");
        let found = if verifier.join(MARKER).is_file() {
            Found::SourceTree
        } else {
            Found::Nowhere
        };
        Self {
            verifier,
            proofs: tree.join("proofs-wasm/pkg-web"),
            found,
        }
    }

    fn one(dir: PathBuf, found: Found) -> Self {
        Self {
            verifier: dir.clone(),
            proofs: dir,
            found,
        }
    }

    /// Where they are, in words.
    pub fn describe(&self) -> String {
        let dirs = if self.verifier == self.proofs {
            self.verifier.display().to_string()
        } else {
            format!("{} and {}", self.verifier.display(), self.proofs.display())
        };
        match self.found {
            Found::Configured => format!("{dirs} (web.dir)"),
            Found::BesideBinary => format!("{dirs} (beside the binary)"),
            Found::SourceTree => format!("{dirs} (the source tree the binary was built from)"),
            Found::Nowhere => format!(
                "nowhere: not in web.dir (unset), not in {BESIDE_BINARY} beside the binary, not built in the source tree ({BUILD_COMMAND})"
            ),
        }
    }
}

/// What to do when a file is missing, for the 503 and the doctor.
pub const NOT_FOUND_FIX: &str = "set web.dir to the directory holding the release's share/arcade/wasm files, or build them in the source tree with web/build.sh";
