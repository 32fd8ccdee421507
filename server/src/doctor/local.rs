//! Checks that need no chain: the database, the public URL, the verifier page's wasm, secrets
//! or keys that anyone else knows, and the payment rail.

use std::time::Duration;

use super::Check;
use crate::api::wasm_dirs::{self, NOT_FOUND_FIX, WasmDirs};
use crate::public_url::PublicUrl;
use crate::public_url::is_loopback_host;
use crate::service::purchases::rails::{REGISTERED, Rails};
use crate::settings::Settings;
use crate::store;

const DATABASE_TIMEOUT: Duration = Duration::from_secs(15);

pub async fn checks(settings: &Settings) -> Vec<Check> {
    vec![
        database(settings).await,
        public_url(settings),
        wasm(&WasmDirs::locate(settings.web.dir.as_deref())),
        secrets(settings),
        payment_rail(settings),
    ]
}

/// The rail `serve` would choose: settings it would refuse to start with are fatal here too.
fn payment_rail(settings: &Settings) -> Check {
    const NAME: &str = "payment rail";
    match Rails::from_settings(settings, REGISTERED) {
        Ok(rails) => Check::pass(
            NAME,
            format!(
                "chip purchases settle through the {} rail",
                rails.chosen_name()
            ),
        ),
        Err(error) => {
            let known: Vec<&str> = REGISTERED.iter().map(|entry| entry.name).collect();
            Check::fatal(
                NAME,
                error.to_string(),
                format!(
                    "set payments.rail (ARCADE__PAYMENTS__RAIL) to one of {} and set only that rail's own settings",
                    known.join(", ")
                ),
            )
        }
    }
}

async fn database(settings: &Settings) -> Check {
    const NAME: &str = "database";
    let url = settings.database.url.expose();
    let backend = if url.starts_with("sqlite:") {
        "SQLite"
    } else {
        "PostgreSQL"
    };
    let fix = "check database.url (ARCADE__DATABASE__URL) and that the database server runs";
    let connected =
        tokio::time::timeout(DATABASE_TIMEOUT, store::connect(&settings.database)).await;
    let db = match connected {
        Ok(Ok(db)) => db,
        Ok(Err(error)) => return Check::fail(NAME, format!("{backend} refused: {error}"), fix),
        Err(_) => return Check::fail(NAME, format!("{backend} did not answer in 15 s"), fix),
    };
    match store::pending_migrations(&db).await {
        Ok(0) => Check::pass(
            NAME,
            format!("{backend} reachable, every migration applied"),
        ),
        Ok(pending) => Check::fail(
            NAME,
            format!("{backend} reachable, but {pending} migration(s) are not applied"),
            "run `arcade migrate` (`arcade serve` also applies them at start)",
        ),
        Err(error) => Check::fail(NAME, format!("reading the migrations: {error}"), fix),
    }
}

fn public_url(settings: &Settings) -> Check {
    const NAME: &str = "public URL";
    let host = &settings.server.host;
    match &settings.server.public_url {
        Some(url) => match PublicUrl::parse(url) {
            Ok(_) => Check::pass(NAME, format!("{url} (the auth statement names it)")),
            Err(_) => Check::fail(
                NAME,
                format!("server.public_url {url:?} is not an http(s) URL"),
                "set server.public_url to the URL clients reach the service at",
            ),
        },
        None if is_loopback_host(host) => Check::pass(
            NAME,
            format!("unset; listening on loopback {host}, so http://{host}:<port> is used"),
        ),
        None => Check::fail(
            NAME,
            format!("unset while listening on {host}, a non-loopback host"),
            "set server.public_url (ARCADE__SERVER__PUBLIC_URL) to the URL clients reach the service at",
        ),
    }
}

/// The page's wasm files, where the server will look for them.
fn wasm(dirs: &WasmDirs) -> Check {
    const NAME: &str = "verifier wasm";
    let missing: Vec<&str> = wasm_dirs::files(dirs)
        .filter(|(file, dir)| !dir.join(file).is_file())
        .map(|(file, _)| file)
        .collect();
    if missing.is_empty() {
        Check::pass(NAME, format!("served from {}", dirs.describe()))
    } else {
        Check::fail(
            NAME,
            format!(
                "{} missing; looked in {}: the verifier page cannot check rounds",
                missing.join(", "),
                dirs.describe()
            ),
            NOT_FOUND_FIX,
        )
    }
}

/// Every secret and key the service holds: none may be one that anyone else knows, on any
/// host (loopback behind a proxy is the usual deployment). Unset secrets are generated once into
/// the state directory.
fn secrets(settings: &Settings) -> Check {
    const NAME: &str = "secrets";
    let public = crate::secrets::public_values(settings);
    if public.is_empty() {
        let generated: Vec<&str> = crate::secrets::GENERATED
            .iter()
            .zip(crate::secrets::configured(settings))
            .filter_map(|((name, _), configured)| configured.is_none().then_some(*name))
            .collect();
        let found = if generated.is_empty() {
            "every secret and key is set, and none is a public one".to_owned()
        } else {
            match crate::secrets::state_dir(settings) {
                Ok(dir) => format!(
                    "none is a public one; {} unset: generated once into {} (mode 0600; every instance needs the same)",
                    generated.join(", "),
                    dir.join(crate::secrets::STATE_SUBDIR).display()
                ),
                Err(error) => {
                    return Check::fatal(
                        NAME,
                        error.to_string(),
                        "set server.state_dir (ARCADE__SERVER__STATE_DIR), or set every secret; see deploy/README.md",
                    );
                }
            }
        };
        return Check::pass(NAME, found);
    }
    let why: Vec<String> = public
        .iter()
        .map(|(name, why)| format!("{name}: {why}"))
        .collect();
    Check::fatal(
        NAME,
        format!("anyone else knows these: {}", why.join("; ")),
        "generate each with `openssl rand -hex 32` (keys: 0x + 64 hex) and set it from the environment (ARCADE__SIGNING__KEY, ARCADE__SEEDS__SECRET, ARCADE__AUTH__SECRET, ARCADE__CHAIN__HOUSE_KEY), or unset signing.key, seeds.secret and auth.secret to have them generated into the state directory; see deploy/README.md",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Secret;

    #[test]
    fn a_rail_serve_would_refuse_is_fatal() {
        let mut settings = Settings::default();
        assert!(payment_rail(&settings).passed());
        settings.payments.rail = Some("house".into());
        settings.payments.facilitator_url = Some(Secret::new("http://127.0.0.1:1"));
        let check = payment_rail(&settings);
        assert!(check.is_fatal(), "{check}");
        assert!(
            check.to_string().contains("payments.facilitator_url"),
            "{check}"
        );
        settings.payments.rail = Some("carrier-pigeon".into());
        assert!(payment_rail(&settings).is_fatal());
    }
}
