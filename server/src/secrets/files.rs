//! Secrets as files of mode 0600 in a directory of mode 0700, one per secret, named as the
//! setting (and the systemd credential): `signing.key`, `seeds.secret`, `auth.secret`. A file
//! is created once, whole, and never rewritten, so two instances starting at once on one state
//! directory end with the same value.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
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

    /// The value in `name`'s file, if there is one. Only a file this process's user owns, that
    /// nobody else may read or write, in a directory nobody else may write, and not a link, is
    /// taken: anything else may have been planted (a secret chosen by someone else) or read.
    pub fn read(&self, name: &str) -> Result<Option<String>, SecretsError> {
        let path = self.path(name);
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(SecretsError::File { path, error }),
        };
        let refuse = |why: String| SecretsError::File {
            path: path.clone(),
            error: std::io::Error::other(why),
        };
        let me = std::fs::metadata("/proc/self").map(|m| m.uid()).ok();
        let dir = std::fs::metadata(&self.dir).map_err(|error| refuse(error.to_string()))?;
        if !meta.file_type().is_file() {
            return Err(refuse("not a regular file (a link?): refused".into()));
        }
        if me.is_some_and(|me| meta.uid() != me || dir.uid() != me) {
            return Err(refuse("owned by another user: refused".into()));
        }
        if meta.permissions().mode() & 0o077 != 0 || dir.permissions().mode() & 0o022 != 0 {
            return Err(refuse(format!(
                "others may read it or write its directory (modes {:o}, {:o}): refused; chmod 600 the file, 700 the directory",
                meta.permissions().mode() & 0o777,
                dir.permissions().mode() & 0o777
            )));
        }
        let text = std::fs::read_to_string(&path).map_err(|error| SecretsError::File {
            path: path.clone(),
            error,
        })?;
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
        // A name nobody can guess, created exclusively: never a file someone else made.
        let mut token = [0u8; 16];
        getrandom::fill(&mut token).map_err(|e| failed(std::io::Error::other(e.to_string())))?;
        let draft = self
            .dir
            .join(format!(".{name}.{}.draft", alloy::hex::encode(token)));
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
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
