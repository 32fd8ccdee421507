//! Every secret setting's value may come from a file instead: `<name>_file` names it (in the
//! TOML file, or the environment: `ARCADE__CHAIN__HOUSE_KEY_FILE`), or systemd hands it over as
//! a credential (`LoadCredential=<name>:<path>` puts it at `$CREDENTIALS_DIRECTORY/<name>`). A
//! file holds the value, its trailing newline dropped; a list's file holds one value per line.
//! The layers override in order, as for every setting: the TOML file, then the environment,
//! then the credentials. Within one layer, a value and a `_file` for the same setting are
//! refused: which one runs must never be a guess.

use std::path::{Path, PathBuf};

use figment::Figment;
use figment::value::Value;

/// Every secret setting, by its key path, and whether it is a list. A credential has the
/// setting's name.
pub const SECRET_SETTINGS: [(&str, bool); 8] = [
    ("database.url", false),
    ("chain.rpc_urls", true),
    ("chain.house_key", false),
    ("payments.facilitator_url", false),
    ("signing.key", false),
    ("seeds.secret", false),
    ("auth.secret", false),
    ("housebots.keys", true),
];

/// The environment variable systemd names the credentials' directory in.
pub const CREDENTIALS_DIRECTORY: &str = "CREDENTIALS_DIRECTORY";

/// The values read from files, each with its setting's key path: for each secret setting, the
/// file of the highest layer that names one, unless a higher layer gives the value itself.
/// `toml` and `env` are those layers alone (no defaults), `credentials` systemd's directory.
pub fn read(
    toml: &Figment,
    env: &Figment,
    credentials: Option<&Path>,
) -> Result<Vec<(&'static str, Value)>, figment::Error> {
    let mut values = Vec::new();
    for (name, list) in SECRET_SETTINGS {
        let credential = credentials
            .map(|dir| dir.join(name))
            .filter(|path| path.is_file());
        let file = match (credential, named(env, name)?, named(toml, name)?) {
            (Some(file), ..) => Some(file),
            (None, Some(file), _) => Some(file),
            (None, None, _) if env.contains(name) => None,
            (None, None, toml_file) => toml_file,
        };
        if let Some(file) = file {
            values.push((name, value_of(name, &file, list)?));
        }
    }
    Ok(values)
}

/// The file `layer` names for `name` (`<name>_file`), refused beside a value of its own.
fn named(layer: &Figment, name: &str) -> Result<Option<PathBuf>, figment::Error> {
    let Ok(value) = layer.find_value(&format!("{name}_file")) else {
        return Ok(None);
    };
    if layer.contains(name) {
        return Err(twice(name));
    }
    let path = value
        .into_string()
        .ok_or_else(|| figment::Error::from(format!("{name}_file must be a path")))?;
    Ok(Some(PathBuf::from(path)))
}

fn twice(name: &str) -> figment::Error {
    figment::Error::from(format!(
        "{name} is given twice (a value and {name}_file in one place): give it one way"
    ))
}

fn value_of(name: &str, file: &Path, list: bool) -> Result<Value, figment::Error> {
    let text = std::fs::read_to_string(file).map_err(|error| {
        figment::Error::from(format!("{name}: reading {}: {error}", file.display()))
    })?;
    if list {
        let lines = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .map(Value::from)
            .collect::<Vec<_>>();
        return Ok(Value::from(lines));
    }
    let value = text.trim_end_matches(['\n', '\r']);
    if value.is_empty() {
        return Err(figment::Error::from(format!(
            "{name}: {} is empty",
            file.display()
        )));
    }
    Ok(Value::from(value))
}
