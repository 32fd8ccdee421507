//! The RPC the chain is read and written through: every `chain.rpc_urls` entry over HTTP, each
//! call bounded by `chain.rpc_timeout_ms`. A call goes to the best-ranked URL (alloy's fallback
//! ranks them by how often and how fast each answered) and, when it fails (no answer, a timeout,
//! a 429 or a 5xx), to the next at once: a dead or rate-limited URL costs the caller one failed
//! attempt, not an error. Every method is tried one URL at a time, never raced, so a
//! transaction is broadcast once per attempt and a metered RPC is charged once per call. When
//! every URL is rate limited or unavailable, the call is retried with backoff (alloy's
//! retry layer) before it fails.

use std::collections::HashSet;
use std::time::Duration;

use alloy::providers::RootProvider;
use alloy::rpc::client::RpcClient;
use alloy::transports::http::{Http, reqwest::Url};
use alloy::transports::layers::{FallbackService, RetryBackoffLayer};

use super::ConnectError;
use crate::settings::{ChainSettings, Secret};

/// Retries after every URL answered 429 or was unavailable, and the first pause (ms).
const RETRIES: u32 = 3;
const FIRST_BACKOFF_MS: u64 = 250;
/// Compute units a second the retry layer budgets for (alloy's unit): unbounded here, the
/// rate-limit buckets already bound what the service asks.
const COMPUTE_UNITS_PER_SECOND: u64 = u64::MAX;

/// The JSON-RPC methods the service calls. Each is sent to one URL at a time (alloy's
/// "sequential" set); a method missing here would be raced on every URL at once.
const METHODS: [&str; 22] = [
    "eth_blockNumber",
    "eth_call",
    "eth_chainId",
    "eth_estimateGas",
    "eth_feeHistory",
    "eth_gasPrice",
    "eth_getBalance",
    "eth_getBlockByHash",
    "eth_getBlockByNumber",
    "eth_getCode",
    "eth_getLogs",
    "eth_getTransactionByHash",
    "eth_getTransactionCount",
    "eth_getTransactionReceipt",
    "eth_maxPriorityFeePerGas",
    "eth_sendRawTransaction",
    "eth_sendRawTransactionSync",
    "eth_sendTransaction",
    "eth_sendTransactionSync",
    "eth_blobBaseFee",
    "net_version",
    "web3_clientVersion",
];

/// A provider over every URL in `urls`, in the settings' order of preference.
pub fn provider(settings: &ChainSettings, urls: &[Secret]) -> Result<RootProvider, ConnectError> {
    let timeout = Duration::from_millis(settings.rpc_timeout_ms);
    let client = reqwest::Client::builder()
        .timeout(timeout)
        .build()
        .map_err(|error| ConnectError::HttpClient(error.to_string()))?;
    let transports = urls
        .iter()
        .map(|url| {
            let url: Url = url.expose().parse().map_err(|_| ConnectError::RpcUrl)?;
            Ok(Http::with_client(client.clone(), url))
        })
        .collect::<Result<Vec<_>, ConnectError>>()?;
    let is_local = transports.iter().all(Http::guess_local);
    let count = transports.len();
    let methods: HashSet<String> = METHODS.iter().map(|m| (*m).to_owned()).collect();
    let fallback = FallbackService::new_with_sequential_methods(transports, count, methods);
    let rpc = RpcClient::builder()
        .layer(RetryBackoffLayer::new(
            RETRIES,
            FIRST_BACKOFF_MS,
            COMPUTE_UNITS_PER_SECOND,
        ))
        .transport(fallback, is_local);
    Ok(RootProvider::new(rpc))
}
