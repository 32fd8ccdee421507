//! The secrets a deployment runs with: the signing key, the seeds secret and the auth secret.
//! Each is the one set in the settings, or, unset, one generated once from the operating
//! system's random generator and kept in the database (`deployment_secrets`), where every
//! instance of the deployment finds the same value across restarts. None is built in. A
//! configured value that anyone else knows (`public.rs`) is refused by `arcade doctor`, and so
//! by `arcade serve`.

pub mod public;

use crate::settings::{Secret, Settings};
use crate::store::{self, Db, DbErr};

/// The secrets the service runs with, whichever way each was found.
pub struct DeploymentSecrets {
    pub signing_key: Secret,
    pub seeds: Secret,
    pub auth: Secret,
}

#[derive(Debug, thiserror::Error)]
pub enum SecretsError {
    #[error("keeping a generated secret in the database: {0}")]
    Database(#[from] DbErr),
    #[error("the operating system's random generator failed: {0}")]
    NoRandomness(String),
}

/// The configured secrets, and generated ones (from the database, or new) for those unset.
pub async fn resolve(settings: &Settings, db: &Db) -> Result<DeploymentSecrets, SecretsError> {
    Ok(DeploymentSecrets {
        signing_key: one(db, "signing.key", settings.signing.key.as_ref(), random_key).await?,
        seeds: one(
            db,
            "seeds.secret",
            settings.seeds.secret.as_ref(),
            random_hex,
        )
        .await?,
        auth: one(db, "auth.secret", settings.auth.secret.as_ref(), random_hex).await?,
    })
}

async fn one(
    db: &Db,
    name: &'static str,
    configured: Option<&Secret>,
    generate: fn() -> Result<String, SecretsError>,
) -> Result<Secret, SecretsError> {
    if let Some(secret) = configured {
        if store::secrets::kept(db, name)
            .await?
            .is_some_and(|kept| kept != secret.expose())
        {
            tracing::warn!(
                secret = name,
                "{name} is set, and differs from the one this deployment generated and kept earlier: what depends on it changes (the signer, the first statements, the seeds of new batches)"
            );
        }
        return Ok(secret.clone());
    }
    let kept = store::secrets::keep(db, name, &generate()?, crate::service::now_ms()).await?;
    if kept.created {
        tracing::info!(
            secret = name,
            "{name} is unset: generated a random one and kept it in the database, where every instance finds it (set it to keep it outside the database)"
        );
    } else {
        tracing::info!(
            secret = name,
            "{name}: the one generated for this deployment, read from the database"
        );
    }
    Ok(Secret::new(kept.value))
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
