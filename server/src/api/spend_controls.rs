//! How an official x402 client is told to allow this deployment's token: the clients (npm
//! `@x402/fetch` with `@x402/evm`, PyPI `x402`) refuse to pay in an asset their spend controls do
//! not list, and only USDC is listed until the caller adds another. `/llms.txt` prints these
//! lines, and the 402 carries them in its `extensions` (`spend-controls`), where x402 lets a
//! server add what clients that do not know it ignore.

use serde_json::{Value, json};

use crate::x402::Terms;

/// The key of the snippet in the 402's `extensions`.
pub const EXTENSION: &str = "spend-controls";

/// The lines that allow this deployment's token, per client library.
pub struct SpendControls {
    /// `client.setSpendControls(…)` for npm `@x402/fetch` and `@x402/evm`.
    pub npm: String,
    /// `client.set_spend_controls(…)` for PyPI `x402`.
    pub pypi: String,
}

impl SpendControls {
    pub fn of(terms: &Terms) -> Self {
        let (network, asset) = (&terms.network, terms.asset.to_checksum(None));
        Self {
            npm: format!(
                r#"client.setSpendControls({{ allowedAssets: [{{ network: "{network}", asset: "{asset}" }}] }});"#
            ),
            pypi: format!(
                r#"client.set_spend_controls({{"allowed_assets": [{{"network": "{network}", "asset": "{asset}"}}]}})"#
            ),
        }
    }

    /// The 402's `spend-controls` extension: the asset to allow and the lines that allow it.
    pub fn extension(terms: &Terms) -> Value {
        let lines = Self::of(terms);
        json!({
            "info": {
                "allowedAssets": [{
                    "network": terms.network,
                    "asset": terms.asset.to_checksum(None),
                }],
                "npm": lines.npm,
                "pypi": lines.pypi,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::discovery::tests::terms;

    #[test]
    fn both_clients_allow_the_offered_asset_on_its_network() {
        let terms = terms();
        let asset = terms.asset.to_checksum(None);
        let lines = SpendControls::of(&terms);
        assert_eq!(
            lines.npm,
            format!(
                r#"client.setSpendControls({{ allowedAssets: [{{ network: "eip155:8453", asset: "{asset}" }}] }});"#
            )
        );
        assert!(lines.pypi.contains(&format!(r#""asset": "{asset}""#)));
        let extension = SpendControls::extension(&terms);
        assert_eq!(extension["info"]["allowedAssets"][0]["asset"], asset);
        assert_eq!(extension["info"]["npm"], lines.npm);
    }
}
