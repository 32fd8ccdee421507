#!/usr/bin/env bash
# Runs the README's run command as a person would (free ports instead of the defaults), waits
# for it to print where it is, buys chips with the example it prints, sees its house agents
# play, and stops it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
log=$(mktemp)
ARCADE__SERVER__PORT=0 server/devnet/run.sh --chain-port 0 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 900); do
    if grep -q "arcade listening" "$log" || ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 1
done
url=$(grep -o 'arcade listening url=[^ ]*' "$log" | head -n1 | cut -d= -f2 || true)
if [ -z "$url" ]; then
    cat "$log"
    echo "the run command did not come up" >&2
    exit 1
fi
grep -q "node server/devnet/buy-chips.mjs" "$log" || { cat "$log"; echo "no purchase example printed" >&2; exit 1; }
bought=$(node server/devnet/buy-chips.mjs "$url" small)
echo "$bought"
grep -q '"chips_credited": 1000' <<<"$bought" || { echo "the example did not buy 1000 chips" >&2; exit 1; }
# The house agents it starts play the floor the verifier page shows.
for _ in $(seq 30); do
    played=$(curl -s "$url/api/arcade/recent?limit=1" | grep -c '"bet_id"' || true)
    [ "$played" -gt 0 ] && break
    sleep 1
done
[ "${played:-0}" -gt 0 ] || { echo "no house agent played within 30 s" >&2; curl -s "$url/api/housebot/status" >&2; exit 1; }
curl -s "$url/api/housebot/status"; echo
echo "the run command served $url, sold 1000 chips, and its house agents are playing"
