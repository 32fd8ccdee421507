//! Checks against the chain: the RPC and its chain id, the token, the house's balances and
//! where payments go. Without `chain.rpc_urls` there is nothing to check: purchases are off.

use alloy::primitives::{Address, B256};
use alloy::providers::{Provider, RootProvider};
use alloy::signers::local::PrivateKeySigner;

use super::Check;
use crate::chain::token::DollarToken;
use crate::chain::transport;
use crate::settings::{ChainSettings, Settings};

pub async fn checks(settings: &Settings) -> Vec<Check> {
    let chain = &settings.chain;
    if chain.rpc_urls.is_empty() {
        return vec![Check::pass(
            "chain",
            "chain.rpc_urls unset: purchases and cashouts are off (they answer 503 payments_unavailable)",
        )];
    }
    let mut checks = Vec::new();
    if !rpcs(chain, &mut checks).await {
        return checks;
    }
    let provider = match transport::provider(chain, &chain.rpc_urls) {
        Ok(provider) => provider,
        Err(error) => {
            checks.push(Check::fatal("RPC", error.to_string(), RPC_FIX));
            return checks;
        }
    };
    let house = house_key(chain, &mut checks);
    let Some(token) = chain.token else {
        checks.push(Check::fatal(
            "token",
            "chain.token is unset",
            "set chain.token to the dollar token's address (USDC on Base)",
        ));
        return checks;
    };
    let token_ok = token_checks(&provider, chain, token, house, &mut checks).await;
    if let Some(house) = house {
        balances(&provider, settings, token, house, token_ok, &mut checks).await;
        checks.push(pay_to(chain, token, house));
    }
    checks
}

/// The house key's address (a well-known test key is fatal: the secrets check names it).
fn house_key(chain: &ChainSettings, checks: &mut Vec<Check>) -> Option<Address> {
    const NAME: &str = "house key";
    let fix = "set chain.house_key from the environment (ARCADE__CHAIN__HOUSE_KEY) or a file only the service can read; see deploy/README.md";
    let Some(key) = &chain.house_key else {
        checks.push(Check::fatal(NAME, "chain.house_key is unset", fix));
        return None;
    };
    let Ok(signer) = key.expose().parse::<PrivateKeySigner>() else {
        checks.push(Check::fatal(
            NAME,
            "chain.house_key is not a private key (0x + 64 hex)",
            fix,
        ));
        return None;
    };
    let house = signer.address();
    checks.push(Check::pass(
        NAME,
        format!("the house is {house} (it signs settlements and cashouts and pays their gas)"),
    ));
    Some(house)
}

const RPC_FIX: &str = "set chain.rpc_urls (ARCADE__CHAIN__RPC_URLS, or chain.rpc_urls_file) to the chain's JSON-RPC endpoints";

/// Each RPC URL answers, on the configured chain: one check per URL. A URL on another chain is
/// fatal; one that does not answer fails the doctor (the others serve), and fatally when none
/// answers. Says whether the checks can go on.
async fn rpcs(chain: &ChainSettings, checks: &mut Vec<Check>) -> bool {
    let mut answering = 0;
    let mut wrong_chain = false;
    let count = chain.rpc_urls.len();
    for (index, url) in chain.rpc_urls.iter().enumerate() {
        let name = if count == 1 {
            "RPC".to_owned()
        } else {
            format!("RPC [{index}]")
        };
        let provider = match transport::provider(chain, std::slice::from_ref(url)) {
            Ok(provider) => provider,
            Err(error) => {
                checks.push(Check::fatal(name, error.to_string(), RPC_FIX));
                wrong_chain = true;
                continue;
            }
        };
        match provider.get_chain_id().await {
            Ok(id) if id == chain.chain_id => {
                answering += 1;
                checks.push(Check::pass(name, format!("answers, chain id {id}")));
            }
            Ok(id) => {
                wrong_chain = true;
                checks.push(Check::fatal(
                    name,
                    format!(
                        "the RPC serves chain {id}, but chain.chain_id is {}: payers would sign for the wrong chain",
                        chain.chain_id
                    ),
                    "point chain.rpc_urls at nodes of the configured chain, or fix chain.chain_id",
                ));
            }
            Err(error) => {
                let found = format!("does not answer: {}", crate::chain::rpc_error(error));
                let fix = "check the URL, the node, and the network between them";
                checks.push(if count == 1 {
                    Check::fatal(name, found, fix)
                } else {
                    Check::fail(name, found, fix)
                });
            }
        }
    }
    if answering == 0 && count > 1 && !wrong_chain {
        checks.push(Check::fatal(
            "RPC",
            "no URL of chain.rpc_urls answers",
            RPC_FIX,
        ));
    }
    answering > 0 && !wrong_chain
}

/// The token: 6 decimals, the EIP-712 domain the settings expect, EIP-3009 readable. Says
/// whether it is the dollar token the arcade needs.
async fn token_checks(
    provider: &RootProvider,
    chain: &ChainSettings,
    token: Address,
    house: Option<Address>,
    checks: &mut Vec<Check>,
) -> bool {
    token_domain(provider, chain, token, checks).await
        && authorization_state(provider, token, house, checks).await
}

const TOKEN_FIX: &str = "set chain.token to the chain's USDC (see deploy/*.toml)";

/// The token answers as a token with 6 decimals and the EIP-712 domain the settings expect.
/// Says whether it does.
async fn token_domain(
    provider: &RootProvider,
    chain: &ChainSettings,
    token: Address,
    checks: &mut Vec<Check>,
) -> bool {
    const NAME: &str = "token";
    let contract = DollarToken::new(token, provider);
    let read = async {
        let decimals = contract.decimals().call().await?;
        let name = contract.name().call().await?;
        let version = contract.version().call().await?;
        Ok::<_, alloy::contract::Error>((decimals, name, version))
    };
    let (decimals, name, version) = match read.await {
        Ok(found) => found,
        Err(error) => {
            checks.push(Check::fatal(
                NAME,
                format!(
                    "{token} does not answer decimals/name/version ({}): is it a token on this chain?",
                    crate::chain::contract_error(error)
                ),
                TOKEN_FIX,
            ));
            return false;
        }
    };
    if decimals != 6 {
        checks.push(Check::fatal(
            NAME,
            format!("{token} has {decimals} decimals; a dollar token has 6"),
            TOKEN_FIX,
        ));
        return false;
    }
    domain_check(
        chain,
        token,
        crate::chain::TokenDomain { name, version },
        checks,
    )
}

/// The token's EIP-712 domain is the one the settings expect. Says whether it is.
fn domain_check(
    chain: &ChainSettings,
    token: Address,
    domain: crate::chain::TokenDomain,
    checks: &mut Vec<Check>,
) -> bool {
    const NAME: &str = "token";
    if let Some((field, configured, actual)) = domain.differs_from(chain) {
        checks.push(Check::fatal(
            NAME,
            format!(
                "{token} answers EIP-712 {field} {actual:?}, but chain.token_{field} is {configured:?}: every payment would be signed for another domain"
            ),
            format!(
                "set chain.token_{field} to the token's (\"USD Coin\" on Base, \"USDC\" on Base Sepolia), or fix chain.token"
            ),
        ));
        return false;
    }
    let pinned = if chain.token_name.is_some() && chain.token_version.is_some() {
        "as chain.token_name and chain.token_version expect"
    } else {
        "read from the token (pin them with chain.token_name and chain.token_version)"
    };
    checks.push(Check::pass(
        NAME,
        format!(
            "{token}: 6 decimals, EIP-712 name {:?} version {:?}, {pinned}",
            domain.name, domain.version
        ),
    ));
    true
}

/// The token answers EIP-3009's `authorizationState`, so transfers with authorization can
/// settle. Says whether it does.
async fn authorization_state(
    provider: &RootProvider,
    token: Address,
    house: Option<Address>,
    checks: &mut Vec<Check>,
) -> bool {
    let contract = DollarToken::new(token, provider);
    let probe = house.unwrap_or(Address::ZERO);
    match contract.authorizationState(probe, B256::ZERO).call().await {
        Ok(_) => {
            checks.push(Check::pass(
                "EIP-3009",
                "authorizationState answers (eth_call): transfers with authorization can settle",
            ));
            true
        }
        Err(error) => {
            checks.push(Check::fatal(
                "EIP-3009",
                format!(
                    "authorizationState does not answer ({}): payments could not be settled",
                    crate::chain::contract_error(error)
                ),
                TOKEN_FIX,
            ));
            false
        }
    }
}

/// The house's gas and token balances against the treasury's floors.
async fn balances(
    provider: &RootProvider,
    settings: &Settings,
    token: Address,
    house: Address,
    token_ok: bool,
    checks: &mut Vec<Check>,
) {
    let floors = &settings.treasury;
    let fund = |what: &str, setting: &str| {
        format!("send {what} to the house {house}, or lower treasury.{setting}")
    };
    match provider.get_balance(house).await {
        Ok(held) if held >= floors.min_gas_wei.0 => checks.push(Check::pass(
            "house gas",
            format!("{held} wei, floor {}", floors.min_gas_wei),
        )),
        Ok(held) => checks.push(Check::fail(
            "house gas",
            format!(
                "{held} wei, under the floor of {}: settlements and cashouts may soon fail",
                floors.min_gas_wei
            ),
            fund("native gas (ETH)", "min_gas_wei"),
        )),
        Err(error) => checks.push(Check::fail(
            "house gas",
            format!("reading it: {}", crate::chain::rpc_error(error)),
            "check the RPC",
        )),
    }
    if !token_ok {
        return;
    }
    match DollarToken::new(token, provider)
        .balanceOf(house)
        .call()
        .await
    {
        Ok(held) if held >= floors.min_token.0 => checks.push(Check::pass(
            "house tokens",
            format!("{held} base units, floor {}", floors.min_token),
        )),
        Ok(held) => checks.push(Check::fail(
            "house tokens",
            format!(
                "{held} base units, under the floor of {}: cashouts may soon be refused",
                floors.min_token
            ),
            fund("tokens", "min_token"),
        )),
        Err(error) => checks.push(Check::fail(
            "house tokens",
            format!("reading it: {}", crate::chain::contract_error(error)),
            "check the RPC",
        )),
    }
}

/// Where payments go: never nowhere, never the token itself.
fn pay_to(chain: &ChainSettings, token: Address, house: Address) -> Check {
    const NAME: &str = "pay_to";
    let fix = "set chain.pay_to to an address the operator controls, or leave it unset (the house)";
    match chain.pay_to {
        None => Check::pass(NAME, format!("unset: payments go to the house {house}")),
        Some(to) if to == Address::ZERO => Check::fatal(
            NAME,
            "chain.pay_to is the zero address: payments would be burned",
            fix,
        ),
        Some(to) if to == token => Check::fatal(
            NAME,
            "chain.pay_to is the token contract: payments would be stuck in it",
            fix,
        ),
        Some(to) => Check::pass(NAME, format!("payments go to {to}")),
    }
}
