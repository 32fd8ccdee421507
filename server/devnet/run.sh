#!/usr/bin/env bash
# The run command: the arcade on a local dev chain, from a fresh clone, with no step by hand.
#   server/devnet/run.sh [--chain-port N]
# Installs anvil and the x402 example client (npm, into server/devnet), builds every wasm file the
# verifier page loads (web/build.sh: wasm/pkg-web and proofs-wasm/pkg-web) and the server, then
# `arcade dev` starts anvil on 127.0.0.1, deploys the test dollar, funds the house and a demo
# payer, serves the API and the verifier page on http://127.0.0.1:8402 over a fresh SQLite file
# and prints how to buy chips.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
echo "==> npm packages for the dev chain (anvil, the x402 client) in server/devnet"
(cd server/devnet && npm ci --no-audit --no-fund --loglevel=error)
echo "==> the verifier page's wasm files (wasm-bindgen-cli is compiled into ~/.cache/arcade/tools the first time: about 2 minutes)"
eval "$(tests/scripts/install-tools.sh)"
web/build.sh
echo "==> building the arcade (a first build compiles for several minutes) and starting it"
exec cargo run --locked -p arcade-server --bin arcade -- dev "$@"
