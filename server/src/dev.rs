//! `arcade dev`: the whole service on one machine with no setup. Starts anvil on loopback,
//! deploys the test dollar, funds the house and a demo payer, points the server at it over a
//! fresh SQLite file, and prints how to buy chips.

use std::path::{Path, PathBuf};

use crate::chain::devnet::{self, Devnet};
use crate::settings::{Secret, Settings};
use crate::startup::Application;

/// Where `npm ci` puts anvil, relative to the dev chain's npm package (`server/devnet` in the
/// source tree, `share/arcade/devnet` in a release).
const NPM_ANVIL: &str = "node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil";
/// The dev chain's npm package in a release, relative to the binary's directory.
const RELEASE_DEVNET: &str = "../share/arcade/devnet";
/// The dev database, recreated on every start because the dev chain is too.
const DEV_DIR: &str = ".dev";

pub async fn run(
    mut settings: Settings,
    anvil: Option<&Path>,
    chain_port: u16,
) -> Result<(), Box<dyn std::error::Error>> {
    if settings.database.url.expose() == Settings::default().database.url.expose() {
        settings.database.url = Secret::new(fresh_database()?);
    } else {
        only_a_new_sqlite_file(settings.database.url.expose())?;
    }
    let anvil = find_anvil(anvil)?;
    let chain = Devnet::start(&anvil, chain_port).await?;
    settings.chain.chain_id = devnet::CHAIN_ID;
    settings.chain.rpc_urls = vec![Secret::new(chain.rpc_url())];
    settings.chain.token = Some(chain.token);
    settings.chain.house_key = Some(Secret::new(alloy::hex::encode_prefixed(
        chain.house.to_bytes(),
    )));
    fund_house_agents(&mut settings, &chain).await?;
    let app = Application::build(settings).await?;
    tracing::info!(
        rpc = %chain.rpc_url(),
        token = %chain.token,
        house = %chain.house.address(),
        payer = %chain.payer.address(),
        "dev chain ready"
    );
    print_welcome(app.base_url(), &chain);
    app.run_until_stopped().await;
    drop(chain);
    Ok(())
}

/// The dev chain's npm package (anvil, the x402 buyer example): a release's, beside the binary,
/// else the source tree's the binary was built from.
fn devnet_dirs() -> impl Iterator<Item = PathBuf> {
    let release = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(RELEASE_DEVNET)));
    let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("devnet");
    // (the server crate's own directory: `server/devnet`)
    release.into_iter().chain(std::iter::once(tree))
}

/// The anvil to start: the one given; else the one `npm ci` installed in the dev chain's npm
/// package (`devnet_dirs`); else `anvil` on `PATH`. The working directory never matters.
fn find_anvil(given: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(path) = given {
        return path
            .is_file()
            .then(|| path.to_owned())
            .ok_or_else(|| format!("no anvil at {}", path.display()));
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .map(|dir| dir.join("anvil"));
    devnet_dirs()
        .map(|dir| dir.join(NPM_ANVIL))
        .chain(on_path)
        .find(|path| path.is_file())
        .ok_or_else(|| {
            "no anvil found: run `npm ci` in share/arcade/devnet (a release) or server/devnet (the source tree, or server/devnet/run.sh), pass --anvil <path>, or put one on PATH".to_owned()
        })
}

/// How to run the x402 buyer example from here: `server/devnet/buy-chips.mjs` in the source
/// tree's root, else the first copy found, by its full path.
fn buy_chips_script() -> String {
    let here = Path::new("server/devnet/buy-chips.mjs");
    if here.is_file() {
        return here.display().to_string();
    }
    devnet_dirs()
        .map(|dir| dir.join("buy-chips.mjs"))
        .find(|path| path.is_file())
        .and_then(|path| path.canonicalize().ok())
        .map_or_else(
            || here.display().to_string(),
            |path| path.display().to_string(),
        )
}

/// Three house agents play the floor, with anvil's public test accounts 2 to 4, funded with
/// test dollars (so they buy chips over x402 once their free chips run low).
async fn fund_house_agents(
    settings: &mut Settings,
    chain: &Devnet,
) -> Result<(), devnet::DevnetError> {
    settings.housebots.enabled = true;
    settings.housebots.keys.clear();
    for key in chain.anvil.keys().iter().skip(2).take(3) {
        let agent = alloy::signers::local::PrivateKeySigner::from(key.clone());
        devnet::mint(
            &chain.rpc_url(),
            &chain.house,
            chain.token,
            agent.address(),
            alloy::primitives::U256::from(devnet::STARTING_DOLLARS / 10),
        )
        .await?;
        settings
            .housebots
            .keys
            .push(Secret::new(alloy::hex::encode_prefixed(agent.to_bytes())));
    }
    Ok(())
}

/// `arcade dev` mints its chips from a chain whose keys are public (anvil's): it never runs on a
/// database that may hold anything else, which a configured one may (a production database
/// would credit those chips, cashable there). A configured database must be a SQLite file
/// that does not exist yet, or is empty.
fn only_a_new_sqlite_file(url: &str) -> Result<(), String> {
    let fresh = crate::store::sqlite_file(url).is_some_and(|path| match std::fs::metadata(path) {
        Ok(meta) => meta.is_file() && meta.len() == 0,
        Err(_) => true,
    });
    if fresh {
        return Ok(());
    }
    Err("arcade dev runs only on a database of its own (unset database.url, or a SQLite file that does not exist yet): its chain's keys are public, and the chips they buy must not reach a real database".into())
}

/// A new SQLite file under `.dev/` (the chain starts fresh on every run, so does the data).
fn fresh_database() -> std::io::Result<String> {
    let dir = PathBuf::from(DEV_DIR);
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir_all(&dir)?;
    Ok(format!(
        "sqlite://{}?mode=rwc",
        dir.join("arcade.db").display()
    ))
}

/// For the person who just ran the command: where things are and what to paste next.
#[allow(clippy::print_stdout)]
fn print_welcome(base_url: &str, chain: &Devnet) {
    let payer = chain.payer.address();
    println!(
        r#"
  arcade is up: {base_url}   (verifier page: {base_url}/ · OpenAPI: {base_url}/api/docs/ · MCP: {base_url}/api/mcp)
  dev chain:    {rpc} (anvil, chain id {chain_id}), test dollar {token}
  demo payer:   {payer} holds 1000 test dollars (anvil's public test account 1)

  Buy chips (x402, signed by the demo payer with the official @x402/fetch client):
    curl -si {base_url}/api/arcade/chips | head -n 20                  # the 402 challenge
    node {buy_chips} {base_url} small                  # pay 0.10, get 1000 chips
    curl -s {base_url}/api/arcade/balance/{payer}

  Three house agents play the floor (GET {base_url}/api/housebot/status); watch them on the page.

  Stop with Ctrl-C (the chain and .dev/arcade.db start fresh next time).
"#,
        rpc = chain.rpc_url(),
        chain_id = devnet::CHAIN_ID,
        token = chain.token,
        buy_chips = buy_chips_script(),
    );
}
