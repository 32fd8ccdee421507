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
