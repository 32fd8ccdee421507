#!/usr/bin/env bash
# Installs every tool the build and the tests need, idempotently, into a per-user cache
# (so a second run on the same machine costs seconds): Rust targets, the wasm-bindgen CLI at
# exactly the version of the `wasm-bindgen` crate in Cargo.lock, and the npm tools (binaryen's
# wasm-opt) under tests/node_modules. wasm/pack.mjs builds the wasm packages with them.
#
# Prints the PATH additions on its last line as `export PATH=...` so callers can `eval` it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tools="${ARCADE_TOOLS_DIR:-$HOME/.cache/arcade/tools}"
mkdir -p "$tools/bin"
export PATH="$tools/bin:$PATH"
say() { echo "[tools] $*" >&2; }

# The CLI must match the crate exactly: it reads the custom sections the crate's macros wrote.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/[^0-9.]/, "", $0); print; exit}' "$root/Cargo.lock")

say "rust targets: wasm32-unknown-unknown (wasm build), riscv32imac-unknown-none-elf (no_std proof)"
rustup target add wasm32-unknown-unknown riscv32imac-unknown-none-elf >&2

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (compiles from source, about 2 minutes on 2 cores)"
  # Not --locked: its lockfile pins a yanked webpki-roots.
  cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --root "$tools" >&2
fi

say "npm tools (binaryen wasm-opt) in tests/"
(cd "$root/tests" && npm ci --no-audit --no-fund --loglevel=error >&2)

echo "export PATH=\"$tools/bin:$root/tests/node_modules/.bin:\$PATH\""
