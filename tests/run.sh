#!/usr/bin/env bash
# The test command: everything CI runs, runnable by anyone from a fresh clone.
#   tests/run.sh
# Installs what it needs (Rust targets, wasm-pack, wasm-bindgen-cli, npm packages, PostgreSQL),
# then runs formatting and lint checks, every Rust test (the API suite on SQLite and on a
# throwaway PostgreSQL cluster on loopback), the no_std build, the wasm build, the Node suite
# of the built wasm package and the Node API test. Exits non-zero when anything fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
started=$SECONDS
stage() { echo; echo "==> [$((SECONDS - started))s] $*"; }

stage "tools"
eval "$(tests/scripts/install-tools.sh)"

stage "format and lints"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo clippy -p arcade-wasm --target wasm32-unknown-unknown --locked -- -D warnings

stage "PostgreSQL for the API suite (a fresh cluster on 127.0.0.1)"
ARCADE_TEST_POSTGRES_URL=$(tests/scripts/postgres.sh)
export ARCADE_TEST_POSTGRES_URL
trap 'tests/scripts/postgres.sh stop; rm -rf "${TMPDIR:-/tmp}/arcade-tests"' EXIT
echo "$ARCADE_TEST_POSTGRES_URL"

stage "Rust tests (unit, golden vectors, properties, doc, API on SQLite and PostgreSQL)"
cargo test --workspace --locked

stage "arcade-core builds for a target without std"
cargo build -p arcade-core --target riscv32imac-unknown-none-elf --locked
cargo build -p arcade-core --features serde --target riscv32imac-unknown-none-elf --locked

stage "wasm package (web and nodejs targets)"
wasm-pack build wasm --release --target nodejs --out-dir pkg-node
wasm-pack build wasm --release --target web --out-dir pkg-web
echo "arcade_wasm_bg.wasm: $(wc -c < wasm/pkg-web/arcade_wasm_bg.wasm) bytes"

stage "Node suite of the installed wasm package"
(cd tests/wasm-node && npm ci --install-links --no-audit --no-fund --loglevel=error && node --test)

stage "Node: a viem-signed player against the real server"
cargo build -p arcade-server --locked
(cd tests/api-node && npm ci --no-audit --no-fund --loglevel=error \
    && ARCADE_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/arcade" node --test)

stage "all passed in $((SECONDS - started))s"
