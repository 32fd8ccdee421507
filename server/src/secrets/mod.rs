//! The secrets a deployment runs with: the signing key, the seeds secret and the auth secret.
//! Each is the one set in the settings (a value, a file, a systemd credential:
//! `settings::secret_files`), or, unset, one generated once from the operating system's random
//! generator into a file of mode 0600 in the state directory (`files.rs`), where every restart
//! finds it. None is ever stored in the database: it keeps only each secret's fingerprint, and
//! an instance whose secret does not match the deployment's refuses to start. So a database
//! backup alone reveals no seed and cannot sign as the house. Deployments whose older version
//! kept generated secrets in the database (`deployment_secrets`) keep running on them, warned,
//! until `arcade secrets export` moves them into files. None is built in: a configured value
//! that anyone else knows (`public.rs`) is refused by `arcade doctor`, and so by `arcade serve`.

mod files;
pub mod public;

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::settings::{Secret, Settings};
use crate::store::{self, Db, DbErr};
pub use files::StateFiles;

/// The secrets the service runs with, whichever way each was found.
pub struct DeploymentSecrets {
    pub signing_key: Secret,
    pub seeds: Secret,
    pub auth: Secret,
}

/// How a fresh secret is drawn.
type Draw = fn() -> Result<String, SecretsError>;

/// The secrets a deployment generates for itself when unset: their names (the settings', the
/// credentials' and the files') and how a fresh one is drawn.
pub const GENERATED: [(&str, Draw); 3] = [
    ("signing.key", random_key),
    ("seeds.secret", random_hex),
    ("auth.secret", random_hex),
];

#[derive(Debug, thiserror::Error)]
pub enum SecretsError {
    #[error("the secrets' fingerprints in the database: {0}")]
    Database(#[from] DbErr),
    #[error("the operating system's random generator failed: {0}")]
    NoRandomness(String),
    #[error("{path}: {error}")]
    File {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(
        "signing.key, seeds.secret or auth.secret is unset and there is no state directory to generate it into: set server.state_dir (or run under systemd's StateDirectory=), or set the secrets"
    )]
    NoStateDir,
    #[error("{name} ({found}) cannot be used: {why}")]
    Unusable {
        name: &'static str,
        found: String,
        why: String,
    },
    #[error(
        "{name} ({found}) is not this deployment's: its database was started with another one. Every instance of a deployment must run with the same secrets: set {name} as the other instances have it (ARCADE__{env}_FILE, a credential, or a copy of their state directory's secrets/{name})"
    )]
    Mismatch {
        name: &'static str,
        found: String,
        env: String,
    },
}

/// The settings of `GENERATED`'s secrets, in its order.
pub fn configured(settings: &Settings) -> [Option<&Secret>; 3] {
    [
        settings.signing.key.as_ref(),
        settings.seeds.secret.as_ref(),
        settings.auth.secret.as_ref(),
    ]
}

/// The state directory's folder of generated secrets.
pub const STATE_SUBDIR: &str = "secrets";

/// The configured secrets, and generated ones (from the state directory, or new) for those
/// unset; each checked against the fingerprint the database keeps.
pub async fn resolve(settings: &Settings, db: &Db) -> Result<DeploymentSecrets, SecretsError> {
    let files = state_dir(settings)
        .ok()
        .map(|dir| StateFiles::new(&dir.join(STATE_SUBDIR)));
    let mut found = Vec::with_capacity(GENERATED.len());
    for ((name, generate), configured) in GENERATED.into_iter().zip(configured(settings)) {
        let (secret, source) = match configured {
            Some(secret) => (secret.clone(), "as configured".to_owned()),
            None => generated(db, files.as_ref(), name, generate).await?,
        };
        usable(name, &secret, &source)?;
        check_fingerprint(db, name, &secret, &source).await?;
        if source != KEPT_IN_DATABASE && store::secrets::erase_from_database(db, name).await? {
            tracing::warn!(
                secret = name,
                "{name}: the value an older version kept in the database (a restored backup brings it back) is erased: this deployment runs on the one {source}"
            );
        }
        found.push(secret);
    }
    let [signing_key, seeds, auth] = <[Secret; 3]>::try_from(found)
        .unwrap_or_else(|_| unreachable!("one secret per entry of GENERATED"));
    Ok(DeploymentSecrets {
        signing_key,
        seeds,
        auth,
    })
}

/// An unset secret: the state directory's file, else the value an older version kept in the
/// database (warned), else a fresh one written to the state directory. With where it came from.
async fn generated(
    db: &Db,
    files: Option<&StateFiles>,
    name: &'static str,
    generate: Draw,
) -> Result<(Secret, String), SecretsError> {
    if let Some(files) = files
        && let Some(value) = files.read(name)?
    {
        let path = files.path(name);
        tracing::info!(secret = name, path = %path.display(), "{name}: generated earlier, read from the state directory");
        return Ok((Secret::new(value), path.display().to_string()));
    }
    if let Some(value) = store::secrets::kept_in_database(db, name).await? {
        tracing::warn!(
            secret = name,
            "{name} is kept in the database in plain text (an older version put it there): whoever reads a backup holds it. Run `arcade secrets export --dir <dir>` and start with the files it writes"
        );
        return Ok((Secret::new(value), KEPT_IN_DATABASE.to_owned()));
    }
    let files = files.ok_or(SecretsError::NoStateDir)?;
    let path = files.create(name, &generate()?)?;
    tracing::info!(
        secret = name,
        path = %path.display(),
        "{name} is unset: generated a random one into the state directory (mode 0600); every other instance of this deployment needs the same one"
    );
    let value = files.read(name)?.unwrap_or_default();
    Ok((Secret::new(value), path.display().to_string()))
}

/// Where a secret read from `deployment_secrets` is said to come from.
const KEPT_IN_DATABASE: &str = "kept in the database";

/// Every secret, whatever its source (a file a stranger could have planted, a row an older
/// version wrote), must be one nobody else knows: not empty, not short, not a public key.
fn usable(name: &'static str, secret: &Secret, source: &str) -> Result<(), SecretsError> {
    let value = secret.expose();
    let why = if name == "signing.key" {
        public::known_key(value).or_else(|| {
            value
                .parse::<alloy::signers::local::PrivateKeySigner>()
                .is_err()
                .then(|| "not a private key (0x + 64 hex)".to_owned())
        })
    } else {
        public::weak_secret(value)
    };
    match why {
        None => Ok(()),
        Some(why) => Err(SecretsError::Unusable {
            name,
            found: source.to_owned(),
            why,
        }),
    }
}

async fn check_fingerprint(
    db: &Db,
    name: &'static str,
    secret: &Secret,
    source: &str,
) -> Result<(), SecretsError> {
    let mine = fingerprint(name, secret.expose());
    let recorded = store::secrets::fingerprint(db, name, &mine, crate::service::now_ms()).await?;
    if recorded == mine {
        return Ok(());
    }
    Err(SecretsError::Mismatch {
        name,
        found: source.to_owned(),
        env: name.replace('.', "__").to_uppercase(),
    })
}

/// What the database keeps of a secret: sha256 over its name and value, hex. The secrets are
/// 32 random bytes (or refused as weak: `public.rs`), so the hash reveals nothing.
pub fn fingerprint(name: &str, value: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(b"arcade secret fingerprint v1\0");
    hash.update(name.as_bytes());
    hash.update(b"\0");
    hash.update(value.as_bytes());
    alloy::hex::encode(hash.finalize())
}

/// Where generated secrets are kept: `server.state_dir`, else `$STATE_DIRECTORY` (systemd's
/// `StateDirectory=`; its first entry), else the SQLite database's directory (a SQLite
/// deployment's own). On PostgreSQL without either, none: no secret is generated into
/// whatever directory the process happens to run in.
pub fn state_dir(settings: &Settings) -> Result<PathBuf, SecretsError> {
    if let Some(dir) = &settings.server.state_dir {
        return Ok(PathBuf::from(dir));
    }
    if let Some(dirs) = std::env::var_os("STATE_DIRECTORY")
        && let Some(first) = std::env::split_paths(&dirs).next()
    {
        return Ok(first);
    }
    store::sqlite_file(settings.database.url.expose())
        .map(|file| match file.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
            _ => PathBuf::from("."),
        })
        .ok_or(SecretsError::NoStateDir)
}

/// `arcade secrets export`: writes each generated secret this deployment runs with into `dir`
/// (named as the credentials the systemd unit loads, mode 0600), then erases the values an
/// older version kept in the database. A secret that is configured is left where it is; one
/// never generated is generated now. Returns what it wrote.
pub async fn export(
    settings: &Settings,
    db: &Db,
    dir: &Path,
) -> Result<Vec<PathBuf>, SecretsError> {
    let exported = StateFiles::new(dir);
    let secrets = resolve(settings, db).await?;
    let values = [&secrets.signing_key, &secrets.seeds, &secrets.auth];
    let mut written = Vec::new();
    for (((name, _), value), configured) in GENERATED.iter().zip(values).zip(configured(settings)) {
        if configured.is_some() {
            continue;
        }
        written.push(exported.write_same(name, value.expose())?);
        if store::secrets::erase_from_database(db, name).await? {
            tracing::info!(secret = name, "{name}: erased from the database");
        }
    }
    Ok(written)
}

fn random_bytes() -> Result<[u8; 32], SecretsError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| SecretsError::NoRandomness(e.to_string()))?;
    Ok(bytes)
}

fn random_hex() -> Result<String, SecretsError> {
    Ok(alloy::hex::encode(random_bytes()?))
}

/// A private key: 32 random bytes, drawn again in the negligible case they are not one.
fn random_key() -> Result<String, SecretsError> {
    loop {
        let bytes = random_bytes()?;
        if alloy::signers::local::PrivateKeySigner::from_slice(&bytes).is_ok() {
            return Ok(alloy::hex::encode_prefixed(bytes));
        }
    }
}

/// The configured secrets and keys that anyone else knows, each with its setting and why (and
/// a `pay_to` whose key anyone holds: payments to it are anyone's).
pub fn public_values(settings: &Settings) -> Vec<(String, String)> {
    let mut found = Vec::new();
    if let Some(pay_to) = settings.chain.pay_to
        && public::WELL_KNOWN_TEST_ADDRESSES.contains(&pay_to)
    {
        found.push((
            "chain.pay_to".to_owned(),
            format!("{pay_to} is one of anvil's and hardhat's public test accounts: anyone can spend what it is paid"),
        ));
    }
    let keys = [
        ("signing.key", settings.signing.key.as_ref()),
        ("chain.house_key", settings.chain.house_key.as_ref()),
    ];
    let bots = settings.housebots.keys.iter().enumerate();
    let bots = bots.map(|(i, key)| (format!("housebots.keys[{i}]"), Some(key)));
    let keys = keys.into_iter().map(|(n, k)| (n.to_owned(), k)).chain(bots);
    for (name, key) in keys {
        if let Some(why) = key.and_then(|k| public::known_key(k.expose())) {
            found.push((name, why));
        }
    }
    let secrets = [
        ("seeds.secret", settings.seeds.secret.as_ref()),
        ("auth.secret", settings.auth.secret.as_ref()),
    ];
    for (name, secret) in secrets {
        if let Some(why) = secret.and_then(|s| public::weak_secret(s.expose())) {
            found.push((name.to_owned(), why));
        }
    }
    found
}
