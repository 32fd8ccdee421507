#!/usr/bin/env bash
# Builds the arcade-wasm package for each target named (default: nodejs and web):
#   wasm/build.sh [nodejs] [web] [bundler]
# into wasm/pkg-node, wasm/pkg-web and wasm/pkg-bundler: wasm/pack.mjs (cargo, wasm-bindgen,
# wasm-opt), then wasm/js/package.mjs, which makes the glue (js/arcade.js) the package's entry.
# Needs wasm-bindgen-cli and wasm-opt on PATH: eval "$(tests/scripts/install-tools.sh)".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ $# -gt 0 ] || set -- nodejs web
for target in "$@"; do
    case "$target" in
        nodejs) dir=pkg-node ;;
        web) dir=pkg-web ;;
        bundler) dir=pkg-bundler ;;
        *) echo "unknown target $target (nodejs, web or bundler)" >&2; exit 2 ;;
    esac
    node wasm/pack.mjs wasm "$target" "$dir"
    node wasm/js/package.mjs "wasm/$dir" "$target"
done
