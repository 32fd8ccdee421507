#!/usr/bin/env bash
# Builds every wasm file the verifier page, the embeddable element and the page's audit load
# (what the server serves under /wasm/), into the source tree where the server finds them:
#   web/build.sh
# wasm/pkg-web: the fairness verifier (arcade-wasm, `web` target, with its entry arcade.js);
# proofs-wasm/pkg-web: the signature checker (arcade-proofs, `web` target).
# Needs wasm-bindgen-cli and wasm-opt on PATH: eval "$(tests/scripts/install-tools.sh)".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
echo "[web] the fairness verifier (wasm/pkg-web)" >&2
wasm/build.sh web
echo "[web] the signature checker (proofs-wasm/pkg-web)" >&2
node wasm/pack.mjs proofs-wasm web pkg-web
