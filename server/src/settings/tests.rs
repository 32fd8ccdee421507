use super::*;

#[test]
fn secrets_stay_out_of_debug_output() {
    let mut settings = Settings::default();
    settings.database.url = Secret::new("postgres://arcade:hunter2@db/arcade");
    settings.chain.house_key = Some(Secret::new("0xhouse-key-hunter3"));
    settings.signing.key = Some(Secret::new("0xsigning-key-hunter4"));
    settings.seeds.secret = Some(Secret::new("seeds-hunter5"));
    let shown = format!("{settings:?}");
    for secret in ["hunter2", "hunter3", "hunter4", "hunter5"] {
        assert!(!shown.contains(secret));
    }
}

#[test]
fn addresses_are_read_once_in_any_case() {
    figment::Jail::expect_with(|jail| {
        jail.create_file(
            "arcade.toml",
            "[house]\nwallets = [\"0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED\"]\n",
        )?;
        jail.set_env(
            "ARCADE__CHAIN__TOKEN",
            "0x5fbdb2315678afecb367f032d93f642f64180aa3",
        );
        let settings = Settings::load(Some(Path::new("arcade.toml")))?;
        assert_eq!(
            settings.chain.token.map(|a| a.to_checksum(None)).as_deref(),
            Some("0x5FbDB2315678afecb367f032d93F642f64180aa3")
        );
        assert_eq!(
            settings.house.wallets[0].to_checksum(None),
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
        );
        jail.set_env("ARCADE__CHAIN__PAY_TO", "0x123");
        assert!(
            Settings::load(None).is_err(),
            "not an address: refused at start"
        );
        Ok(())
    });
}

#[test]
fn file_then_environment_override_defaults() {
    figment::Jail::expect_with(|jail| {
        jail.create_file(
            "arcade.toml",
            "[server]\nport = 9000\n[chain]\nchain_id = 8453\n",
        )?;
        jail.set_env("ARCADE__CHAIN__CHAIN_ID", "31337");
        jail.set_env("ARCADE__RATE_LIMITS__ENABLED", "false");
        let settings = Settings::load(Some(Path::new("arcade.toml")))?;
        assert_eq!(settings.server.port, 9000);
        assert_eq!(settings.chain.chain_id, 31337);
        assert_eq!(settings.server.host, "127.0.0.1");
        assert!(!settings.rate_limits.enabled, "one switch turns them off");
        assert!(Settings::default().rate_limits.enabled, "on by default");
        Ok(())
    });
}

#[test]
fn every_secret_may_come_from_a_file_or_a_credential() {
    figment::Jail::expect_with(|jail| {
        jail.create_file("house_key", "0xfeed\n")?;
        jail.create_file("urls", "http://127.0.0.1:1\n\nhttp://127.0.0.1:2\n")?;
        jail.create_dir("credentials")?;
        jail.create_file("credentials/seeds.secret", "from-systemd\n")?;
        jail.set_env("ARCADE__CHAIN__HOUSE_KEY_FILE", "house_key");
        jail.create_file("arcade.toml", "[chain]\nrpc_urls_file = \"urls\"\n")?;
        let credentials = jail.directory().join("credentials");
        let settings = Settings::load_from(Some(Path::new("arcade.toml")), Some(&credentials))?;
        assert_eq!(settings.chain.house_key.unwrap().expose(), "0xfeed");
        let urls: Vec<&str> = settings.chain.rpc_urls.iter().map(Secret::expose).collect();
        assert_eq!(urls, ["http://127.0.0.1:1", "http://127.0.0.1:2"]);
        assert_eq!(settings.seeds.secret.unwrap().expose(), "from-systemd");
        assert!(settings.auth.secret.is_none(), "no credential: unset");

        // The environment's value overrides the TOML file's `_file`, as any setting.
        jail.set_env("ARCADE__CHAIN__RPC_URLS", "http://127.0.0.1:3");
        let settings = Settings::load_from(Some(Path::new("arcade.toml")), None)?;
        assert_eq!(settings.chain.rpc_urls[0].expose(), "http://127.0.0.1:3");
        // One layer giving both: refused.
        jail.set_env("ARCADE__CHAIN__HOUSE_KEY", "0xbeef");
        let twice = Settings::load_from(None, None).unwrap_err().to_string();
        assert!(twice.contains("chain.house_key is given twice"), "{twice}");
        Ok(())
    });
}

#[test]
fn one_rpc_url_is_a_list_of_one_and_renamed_settings_are_refused() {
    figment::Jail::expect_with(|jail| {
        jail.set_env("ARCADE__CHAIN__RPC_URLS", "http://127.0.0.1:8545");
        let settings = Settings::load(None)?;
        assert_eq!(settings.chain.rpc_urls.len(), 1);
        jail.set_env("ARCADE__CHAIN__RPC_URL", "http://127.0.0.1:8545");
        let refused = Settings::load(None).unwrap_err().to_string();
        assert!(
            refused.contains("chain.rpc_url is now chain.rpc_urls"),
            "{refused}"
        );
        Ok(())
    });
}

/// Every setting's dotted key: the leaves of the settings as serialized (a rate bucket is one
/// setting, `{every_ms, burst}`).
fn setting_keys(value: &serde_json::Value, prefix: &str, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(fields) if !fields.contains_key("every_ms") => {
            for (name, inner) in fields {
                let key = if prefix.is_empty() {
                    name.clone()
                } else {
                    format!("{prefix}.{name}")
                };
                setting_keys(inner, &key, out);
            }
        }
        _ => out.push(prefix.to_owned()),
    }
}

/// The keys docs/configuration.md's table names, each written out: its cells abbreviate a
/// sibling as `.name` after the first (`rate_limits.free`, `.commit`).
fn documented_keys() -> Vec<String> {
    let document = include_str!("../../../docs/configuration.md");
    let mut keys = Vec::new();
    for line in document.lines().filter(|line| line.starts_with("| `")) {
        let cell = line.split(" | ").next().unwrap_or_default();
        let mut section = String::new();
        for named in cell.split('`').skip(1).step_by(2) {
            match named.strip_prefix('.') {
                Some(sibling) => keys.push(format!("{section}.{sibling}")),
                None => {
                    section = named.split('.').next().unwrap_or_default().to_owned();
                    keys.push(named.to_owned());
                }
            }
        }
    }
    keys
}

/// docs/configuration.md documents every setting `Settings` reads, and no other.
#[test]
fn the_configuration_document_lists_every_setting_and_no_other() {
    let mut read = Vec::new();
    setting_keys(
        &serde_json::to_value(Settings::default()).expect("settings serialize"),
        "",
        &mut read,
    );
    read.sort();
    let mut documented = documented_keys();
    documented.sort();
    assert_eq!(documented, read);
}
