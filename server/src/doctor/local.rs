//! Checks that need no chain: the database, the public URL, the verifier page's wasm, and
//! secrets left at their built-in values.

use std::path::Path;
use std::time::Duration;

use super::Check;
use crate::public_url::PublicUrl;
use crate::settings::Settings;
use crate::startup::is_loopback;
use crate::store;

const DATABASE_TIMEOUT: Duration = Duration::from_secs(15);

pub async fn checks(settings: &Settings) -> Vec<Check> {
    vec![
        database(settings).await,
        public_url(settings),
        wasm(
            "verifier wasm",
            &settings.web.wasm_dir,
            "web.wasm_dir",
            &["arcade.js", "arcade_wasm.js", "arcade_wasm_bg.wasm"],
            "wasm/build.sh web",
        ),
        wasm(
            "signature checker wasm",
            &settings.web.proofs_wasm_dir,
            "web.proofs_wasm_dir",
            &["arcade_proofs.js", "arcade_proofs_bg.wasm"],
            "wasm-pack build proofs-wasm --release --target web --out-dir pkg-web",
        ),
        secrets(settings),
    ]
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
        None if is_loopback(host) => Check::pass(
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

fn wasm(name: &'static str, dir: &str, setting: &str, files: &[&str], build: &str) -> Check {
    let missing: Vec<&str> = files
        .iter()
        .copied()
        .filter(|file| !Path::new(dir).join(file).is_file())
        .collect();
    if missing.is_empty() {
        Check::pass(name, format!("built in {dir}"))
    } else {
        Check::fail(
            name,
            format!(
                "{} missing in {dir}: the verifier page cannot load",
                missing.join(", ")
            ),
            format!("run `{build}`, or point {setting} at the built package"),
        )
    }
}

fn secrets(settings: &Settings) -> Check {
    const NAME: &str = "secrets";
    let defaults = Settings::default();
    let built_in: Vec<&str> = [
        ("signing.key", &settings.signing.key, &defaults.signing.key),
        ("auth.secret", &settings.auth.secret, &defaults.auth.secret),
        (
            "seeds.secret",
            &settings.seeds.secret,
            &defaults.seeds.secret,
        ),
    ]
    .into_iter()
    .filter(|(_, set, default)| set.expose() == default.expose())
    .map(|(name, ..)| name)
    .collect();
    if built_in.is_empty() {
        return Check::pass(NAME, "signing.key, auth.secret and seeds.secret are set");
    }
    let list = built_in.join(", ");
    if is_loopback(&settings.server.host) {
        return Check::pass(
            NAME,
            format!("{list} at the built-in values: fine on loopback, never in a deployment"),
        );
    }
    Check::fail(
        NAME,
        format!("{list} at the built-in values, which are public, while serving beyond loopback"),
        "set them from the environment (ARCADE__SIGNING__KEY, ARCADE__AUTH__SECRET, ARCADE__SEEDS__SECRET); see deploy/README.md",
    )
}
