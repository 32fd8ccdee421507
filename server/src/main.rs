//! `arcade serve` runs the service; `arcade dev` runs it against a local dev chain it starts;
//! `arcade migrate` applies the schema and exits; `arcade doctor` checks that the settings, the
//! database, the chain, the token and the house fit together; `arcade secrets export` moves the
//! generated secrets into files; `arcade health` asks a running instance's `/healthz` (the
//! container's health check).

use std::path::PathBuf;
use std::process::ExitCode;

use arcade_server::settings::Settings;
use arcade_server::startup::Application;
use arcade_server::{dev, doctor, store, telemetry};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    version,
    about = "A provably-fair pay-per-play arcade for automated agents"
)]
struct Cli {
    /// A TOML settings file; `ARCADE__SECTION__KEY` environment variables override it.
    #[arg(long, global = true, env = "ARCADE_CONFIG")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Apply migrations and serve HTTP until SIGINT/SIGTERM.
    Serve,
    /// Start a local chain (anvil, the test dollar, a funded demo payer) and serve against it.
    Dev {
        /// The anvil binary. Unset: the one `server/devnet/run.sh` installs in the source tree
        /// this binary was built from, else `anvil` on PATH.
        #[arg(long)]
        anvil: Option<PathBuf>,
        /// Port of the chain's JSON-RPC on 127.0.0.1 (0: any free port).
        #[arg(long, default_value_t = 8545)]
        chain_port: u16,
    },
    /// Apply migrations and exit.
    Migrate,
    /// Check the settings against the database, the chain, the token and the house; exit 0
    /// only if every check passes.
    Doctor,
    /// The deployment's secrets.
    #[command(subcommand)]
    Secrets(SecretsCommand),
    /// Ask the instance these settings describe (`server.port` on loopback) whether it
    /// answers `/healthz`; exit 0 if it does.
    Health,
}

#[derive(Subcommand)]
enum SecretsCommand {
    /// Write each generated secret (signing.key, seeds.secret, auth.secret: those not set) into
    /// files of mode 0600 in DIR, named as the credentials the systemd unit loads, and erase
    /// the ones an older version kept in the database. Start every instance with them.
    Export {
        /// Where to write them (created with mode 0700).
        #[arg(long)]
        dir: PathBuf,
    },
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let settings = match Settings::load(cli.config.as_deref()) {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("arcade: settings: {error}");
            return ExitCode::from(2);
        }
    };
    telemetry::init(&settings.log);
    let outcome = match cli.command {
        Command::Serve => serve(settings).await,
        Command::Dev { anvil, chain_port } => {
            dev::run(settings, anvil.as_deref(), chain_port).await
        }
        Command::Migrate => migrate(settings).await,
        Command::Doctor => return run_doctor(&settings).await,
        Command::Secrets(SecretsCommand::Export { dir }) => export_secrets(settings, &dir).await,
        Command::Health => return health(&settings).await,
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!("{error}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(settings: Settings) -> Result<(), Box<dyn std::error::Error>> {
    let connection = store::connect(&settings.database).await?;
    store::migrate(&connection).await?;
    drop(connection);
    let checks = doctor::run(&settings).await;
    for check in &checks {
        if check.passed() {
            tracing::info!("doctor: {check}");
        } else {
            tracing::warn!("doctor: {check}");
        }
    }
    let fatal: Vec<&str> = checks
        .iter()
        .filter(|c| c.is_fatal())
        .map(|c| c.name.as_ref())
        .collect();
    if !fatal.is_empty() {
        return Err(format!(
            "refusing to start: {} would lose money or strand payments (see above, or run `arcade doctor`)",
            fatal.join(", ")
        )
        .into());
    }
    let app = Application::build(settings).await?;
    app.run_until_stopped().await;
    Ok(())
}

#[allow(clippy::print_stdout)] // the report is the command's output
async fn run_doctor(settings: &Settings) -> ExitCode {
    let checks = doctor::run(settings).await;
    for check in &checks {
        println!("{check}");
    }
    let failed = checks.iter().filter(|c| !c.passed()).count();
    if failed == 0 {
        println!("all {} checks passed", checks.len());
        ExitCode::SUCCESS
    } else {
        println!("{failed} of {} checks failed", checks.len());
        ExitCode::FAILURE
    }
}

async fn migrate(settings: Settings) -> Result<(), Box<dyn std::error::Error>> {
    let connection = store::connect(&settings.database).await?;
    store::migrate(&connection).await?;
    tracing::info!("migrations applied");
    Ok(())
}

#[allow(clippy::print_stdout)] // the files written are the command's output
async fn export_secrets(
    settings: Settings,
    dir: &std::path::Path,
) -> Result<(), Box<dyn std::error::Error>> {
    let connection = store::connect(&settings.database).await?;
    store::migrate(&connection).await?;
    for path in arcade_server::secrets::export(&settings, &connection, dir).await? {
        println!("{}", path.display());
    }
    Ok(())
}

async fn health(settings: &Settings) -> ExitCode {
    let url = format!("http://127.0.0.1:{}/healthz", settings.server.port);
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(5))
        .build();
    let answered = match client {
        Ok(client) => client.get(&url).send().await,
        Err(error) => Err(error),
    };
    match answered {
        Ok(response) if response.status().is_success() => ExitCode::SUCCESS,
        Ok(response) => {
            eprintln!("arcade: {url} answered {}", response.status());
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("arcade: {url}: {error}");
            ExitCode::FAILURE
        }
    }
}
