#!/usr/bin/env bash
# The release as an operator gets it, away from the source tree:
# - deploy/release.sh builds the tarball (with the dev profile: the layout, not the
#   optimisation, is under test); its file list and size are printed;
# - unpacked into an empty directory outside the checkout, `npm ci` in its share/arcade/devnet
#   (anvil, the x402 buyer), then `bin/arcade dev` run from that directory: it must serve the
#   page's wasm from beside itself, and its page must check the floor's rounds PASS in
#   Chromium (screenshot tests/output/deploy/release-page.png);
# - the systemd unit it ships: `systemd-analyze verify` clean, `systemd-analyze security`
#   (offline) at most EXPOSURE_MAX, and every credential it loads is a secret setting.
# Prints the tarball's path on standard output, and everything else on standard error (the
# container test builds its image from it: release=$(tests/deploy/release.sh)).
set -euo pipefail
exec 3>&1 1>&2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
# systemd-analyze counts exposure in tenths (20: "2.0", the top of "OK")
EXPOSURE_MAX=20
shots="$root/tests/output/deploy"
mkdir -p "$shots"
work=$(mktemp -d)
pid=
cleanup() {
    [ -z "$pid" ] || { kill -- "-$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
    rm -rf "$work"
}
trap cleanup EXIT

echo "==> deploy/release.sh --profile dev"
tarball=$(deploy/release.sh --profile dev --out "$root/dist" | tail -n1)
echo "$tarball: $(stat -c %s "$tarball") bytes"
tar -tzvf "$tarball" | awk '{printf "  %10s  %s\n", $3, $6}'

echo "==> unpacked into $work/unpacked (outside the checkout), arcade dev run from there"
mkdir "$work/unpacked"
tar -xzf "$tarball" -C "$work/unpacked" --strip-components=1
cd "$work/unpacked"
(cd share/arcade/devnet && npm ci --no-audit --no-fund --loglevel=error)
log="$work/dev.log"
ARCADE__SERVER__PORT=0 setsid bin/arcade dev --chain-port 0 >"$log" 2>&1 &
pid=$!
for _ in $(seq 120); do
    if grep -q "arcade listening" "$log" || ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 1
done
url=$(grep -o 'arcade listening url=[^ ]*' "$log" | head -n1 | cut -d= -f2 || true)
[ -n "$url" ] || { cat "$log"; echo "arcade dev did not come up from the release" >&2; exit 1; }
grep "the page's wasm files" "$log" | sed 's/^.*INFO //'
grep -qF "the page's wasm files: $(cd "$work/unpacked" && pwd -P)/share/arcade/wasm (beside the binary)" "$log" \
    || { echo "the release's binary did not serve the wasm beside it" >&2; exit 1; }
buy=$(grep -o 'node [^ ]*buy-chips.mjs' "$log" | head -n1 | cut -d' ' -f2)
node "$buy" "$url" small | grep -q '"chips_credited": 1000' \
    || { echo "the release's buyer example did not buy chips" >&2; exit 1; }
for _ in $(seq 30); do
    [ "$(curl -s "$url/api/arcade/recent?limit=3" | grep -o '"bet_id"' | wc -l)" -ge 3 ] && break
    sleep 1
done
node "$root/tests/browser/served-page.mjs" "$url" "$shots/release-page.png" 3
kill -- "-$pid"; wait "$pid" 2>/dev/null || true; pid=

echo "==> the systemd unit (lib/systemd/system/arcade.service)"
unit="$work/arcade.service"
# As installed under /opt/arcade, here where the release was unpacked.
sed "s#/opt/arcade#$work/unpacked#g" lib/systemd/system/arcade.service > "$unit"
systemd-analyze verify "$unit"
systemd-analyze security --offline=yes --threshold="$EXPOSURE_MAX" "$unit" | grep -v '^✓'
loaded=$(grep -o '^#\?LoadCredential=[^:]*' "$unit" | sed 's/^#\?LoadCredential=//' | sort)
known=$(sed -n '/^pub const SECRET_SETTINGS/,/^];/p' "$root/server/src/settings/secret_files.rs" \
    | grep -o '("[a-z_.]*"' | tr -d '("' | sort)
unknown=$(comm -23 <(echo "$loaded") <(echo "$known"))
[ -z "$unknown" ] || { echo "the unit loads credentials no setting reads: $unknown" >&2; exit 1; }
echo "credentials loaded: $(echo $loaded), each a secret setting"
echo "$tarball" >&3
