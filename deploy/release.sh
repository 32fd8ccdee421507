#!/usr/bin/env bash
# Builds the release tarball: everything `arcade serve` and `arcade dev` need, without the
# source tree.
#   deploy/release.sh [--profile PROFILE] [--out DIR]
# PROFILE is a cargo profile (default `release`: full LTO, over 20 minutes on 2 cores; the
# tests pass `dev`, since the layout, not the optimisation, is what they check). The tarball is
# DIR/arcade-<version>-x86_64-linux.tar.gz (DIR defaults to dist/), with its .sha256 beside it:
#   bin/arcade                      the server (its migrations and the page's modules inside)
#   share/arcade/wasm/              every file /wasm/ serves: the verifier and the signature
#                                   checker (the binary finds it beside itself; web.dir overrides)
#   share/arcade/devnet/            npm package for `arcade dev`: anvil, the x402 buyer example
#   etc/arcade/                     example settings (Base Sepolia, Base)
#   lib/systemd/system/arcade.service, share/arcade/deploy/ (Containerfile, compose.yaml, Caddyfile)
#   share/doc/arcade/               README, the operator's guide, licences, third-party licences
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
profile=release
out=dist
while [ $# -gt 0 ]; do
    case "$1" in
        --profile) profile=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) echo "usage: deploy/release.sh [--profile PROFILE] [--out DIR]" >&2; exit 2 ;;
    esac
done
say() { echo "[release] $*" >&2; }
version=$(awk -F'"' '/^\[workspace.package\]/{p=1} p && /^version *=/{print $2; exit}' Cargo.toml)
name="arcade-$version-x86_64-linux"
target_dir=${CARGO_TARGET_DIR:-$root/target}
case "$profile" in
    dev) bin_dir=debug ;;
    *) bin_dir=$profile ;;
esac

say "tools (wasm-bindgen-cli, wasm-opt)"
eval "$(tests/scripts/install-tools.sh)"
say "the page's wasm files (web/build.sh)"
web/build.sh
say "the server, cargo profile $profile"
cargo build --locked -p arcade-server --bin arcade --profile "$profile"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
top="$stage/$name"
say "laying out $name"
install -D -m 0755 "$target_dir/$bin_dir/arcade" "$top/bin/arcade"
strip --strip-debug "$top/bin/arcade"
install -d "$top/share/arcade/wasm"
# Every file the server serves at /wasm/ (server/src/api/wasm_dirs.rs, WASM_FILES): the
# packages' modules and their wasm, whatever their names.
install -m 0644 wasm/pkg-web/*.js wasm/pkg-web/*.wasm \
    proofs-wasm/pkg-web/*.js proofs-wasm/pkg-web/*.wasm "$top/share/arcade/wasm/"
install -d "$top/share/arcade/devnet"
install -m 0644 server/devnet/package.json server/devnet/package-lock.json \
    server/devnet/buy-chips.mjs "$top/share/arcade/devnet/"
install -D -m 0644 deploy/base-sepolia.toml "$top/etc/arcade/base-sepolia.toml"
install -D -m 0644 deploy/base-mainnet.toml "$top/etc/arcade/base-mainnet.toml"
install -D -m 0644 deploy/arcade.service "$top/lib/systemd/system/arcade.service"
install -d "$top/share/arcade/deploy"
install -m 0644 deploy/Containerfile deploy/compose.yaml deploy/Caddyfile "$top/share/arcade/deploy/"
install -d "$top/share/doc/arcade"
install -m 0644 deploy/release-readme.md "$top/share/doc/arcade/README.md"
install -m 0644 deploy/README.md "$top/share/doc/arcade/operations.md"
install -m 0644 LICENSE-MIT LICENSE-APACHE "$top/share/doc/arcade/"
{
    echo "# Third-party crates in bin/arcade"
    echo
    echo "Each crate compiled into the binary, with the licence its manifest declares (cargo tree)."
    echo
    cargo tree --locked -p arcade-server -e normal,build --prefix none --format='- {p}: {l}' \
        | sed 's/ (\*)$//; s/ (proc-macro)//' | grep -v '^- arcade-' | sort -u
} > "$top/share/doc/arcade/THIRD-PARTY.md"
cp "$top/share/doc/arcade/README.md" "$top/README.md"

mkdir -p "$out"
tarball="$out/$name.tar.gz"
tar -C "$stage" --owner=0 --group=0 --sort=name -czf "$tarball" "$name"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
say "$tarball: $(du -h "$tarball" | cut -f1), $(tar -tzf "$tarball" | grep -vc '/$') files"
echo "$tarball"
