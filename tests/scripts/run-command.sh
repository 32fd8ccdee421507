#!/usr/bin/env bash
# Runs the README's run command as a newcomer does: in a fresh clone of this commit, where
# nothing of the project is built (no wasm package, no node_modules, no binary), exactly as
# written (free ports instead of the defaults). Waits for it to print where it is, buys chips
# with the example it prints, sees its house agents play, and checks their rounds on the page
# it serves in Chromium (each must say PASS: re-derived and signatures checked in the browser).
# Then the same clone's run command once more from another working directory, its page again.
# Screenshots in tests/output/run-command/.
#
# Cargo's compiled dependencies are shared with the rest of the run (CARGO_TARGET_DIR), as a
# machine that built anything before shares its cargo cache; the clone's own crates compile
# from its sources.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shots="$root/tests/output/run-command"
mkdir -p "$shots"
work=$(mktemp -d)
clone="$work/arcade"
git clone --quiet --no-hardlinks "$root" "$clone"
echo "a fresh clone of $(git -C "$clone" rev-parse --short HEAD) in $clone"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
log="$work/run.log"
pid=
# The run command's session leader: its processes (cargo, the server, anvil) are its group.
stop() {
    if [ -n "$pid" ]; then
        kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        pid=
    fi
}
cleanup() {
    stop
    rm -rf "$work"
    # The clone built the workspace's crates into the shared target directory, newer than this
    # tree's sources: mark them changed, so the next build here compiles this tree's own.
    git -C "$root" ls-files -z -- '*.rs' '*.sql' '*.toml' '*.js' '*.mjs' '*.md' '*.json' \
        | (cd "$root" && xargs -0 touch -c)
}
trap cleanup EXIT

# Starts `server/devnet/run.sh` of the clone from directory $1; sets pid and url.
start() {
    # Its own session, so stopping it stops what it started (cargo, the server, anvil). setsid
    # forks when it is a process group leader, so the session's pid is the one its shell
    # writes, not `$!`.
    rm -f "$work/pid"
    ARCADE__SERVER__PORT=0 setsid bash -c 'echo $$ >"$3"; cd "$1" && exec "$2/server/devnet/run.sh" --chain-port 0' \
        _ "$1" "$clone" "$work/pid" >"$log" 2>&1 &
    for _ in $(seq 100); do [ -s "$work/pid" ] && break; sleep 0.1; done
    pid=$(cat "$work/pid" 2>/dev/null || true)
    [ -n "$pid" ] || { cat "$log"; echo "the run command did not start" >&2; exit 1; }
    for _ in $(seq 1800); do
        if grep -q "arcade listening" "$log" || ! kill -0 "$pid" 2>/dev/null; then break; fi
        sleep 1
    done
    url=$(grep -o 'arcade listening url=[^ ]*' "$log" | head -n1 | cut -d= -f2 || true)
    if [ -z "$url" ]; then
        cat "$log"
        echo "the run command did not come up" >&2
        exit 1
    fi
}

# The page's verdicts on the house agents' rounds, in Chromium; $1 names the screenshot.
page_passes() {
    for _ in $(seq 30); do
        played=$(curl -s "$url/api/arcade/recent?limit=3" | grep -o '"bet_id"' | wc -l || true)
        [ "$played" -ge 3 ] && break
        sleep 1
    done
    [ "${played:-0}" -ge 3 ] || { echo "no house agent played within 30 s" >&2; curl -s "$url/api/housebot/status" >&2; exit 1; }
    node "$root/tests/browser/served-page.mjs" "$url" "$shots/$1.png" 3 \
        || { grep -E "wasm files|ERROR" "$log" >&2; echo "the page did not pass the floor's rounds" >&2; exit 1; }
}

echo "==> server/devnet/run.sh, from the clone's root (its progress is in its log)"
start "$clone"
grep -q "node server/devnet/buy-chips.mjs" "$log" || { cat "$log"; echo "no purchase example printed" >&2; exit 1; }
{ grep -E "the page's wasm files" "$log" || true; } | sed 's/^.*INFO //'
bought=$(cd "$clone" && node server/devnet/buy-chips.mjs "$url" small)
echo "$bought"
grep -q '"chips_credited": 1000' <<<"$bought" || { echo "the example did not buy 1000 chips" >&2; exit 1; }
page_passes fresh-clone
curl -s "$url/api/housebot/status"; echo
stop

echo "==> the same run command from another working directory (/)"
start /
{ grep -E "the page's wasm files" "$log" || true; } | sed 's/^.*INFO //'
page_passes another-directory
stop
echo "the run command served its page from a fresh clone, from its root and from /: every round checked said PASS"
