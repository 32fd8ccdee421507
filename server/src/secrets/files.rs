//! Secrets as files of mode 0600 in a directory of mode 0700, one per secret, named as the
//! setting (and the systemd credential): `signing.key`, `seeds.secret`, `auth.secret`. A file
//! is created once, whole, and never rewritten, so two instances starting at once on one state
//! directory end with the same value.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::SecretsError;

/// A directory of secret files.
pub struct StateFiles {
    dir: PathBuf,
}

impl StateFiles {
    pub fn new(dir: &Path) -> Self {
        Self {
            dir: dir.to_owned(),
        }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The value in `name`'s file, if there is one. A file others may read is warned about.
    pub fn read(&self, name: &str) -> Result<Option<String>, SecretsError> {
        let path = self.path(name);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(SecretsError::File { path, error }),
        };
        let mode = std::fs::metadata(&path)
            .map(|meta| meta.permissions().mode())
            .unwrap_or(0);
        if mode & 0o077 != 0 {
            tracing::warn!(path = %path.display(), "{name}'s file may be read by other users (mode {:o}): chmod 600 it", mode & 0o777);
        }
        Ok(Some(text.trim_end_matches(['\n', '\r']).to_owned()))
    }

    /// Creates `name`'s file holding `value`, unless it exists (another process made it first:
    /// read it back). Written whole to a file of its own, then linked under its name, so no
    /// reader ever sees a file half written. Its path.
    pub fn create(&self, name: &str, value: &str) -> Result<PathBuf, SecretsError> {
        let path = self.path(name);
        let failed = |error| SecretsError::File {
            path: path.clone(),
            error,
        };
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.dir)
            .map_err(failed)?;
        let draft = self
            .dir
            .join(format!(".{name}.{}.draft", std::process::id()));
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&draft)
            .map_err(failed)?;
        let written = file
            .write_all(format!("{value}\n").as_bytes())
            .and_then(|()| file.sync_all());
        let linked = written.and_then(|()| match std::fs::hard_link(&draft, &path) {
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
            other => other,
        });
        let _ = std::fs::remove_file(&draft);
        linked.map_err(failed)?;
        Ok(path)
    }

    /// `name`'s file holding exactly `value`: created, or found so. A file holding another
    /// value is refused, never overwritten.
    pub fn write_same(&self, name: &str, value: &str) -> Result<PathBuf, SecretsError> {
        let path = self.create(name, value)?;
        match self.read(name)? {
            Some(found) if found == value => Ok(path),
            _ => Err(SecretsError::File {
                path,
                error: std::io::Error::other("holds another value; move it away first"),
            }),
        }
    }
}
