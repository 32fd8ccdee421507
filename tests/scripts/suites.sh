# Suites side by side, for tests/run.sh (sourced): each suite's output goes to a log of its own,
# its start and its end (passed or FAILED, and its time) are printed as they happen, and
# `suites_report` prints every suite's time, slowest first, then the end of each failed suite's
# log, and fails when one did.
#   suite NAME COMMAND...    one suite, in the foreground
#   lane NAME...             the suites `suite_NAME` one after another (a function per suite),
#                            each run even when one before it failed; run it in the background
#                            with `&` to run lanes side by side, then `wait`
suites_dir="$PWD/tests/output/suites"
rm -rf "$suites_dir"
mkdir -p "$suites_dir"
suites_started=$SECONDS

suite() {
    local name=$1 start=$SECONDS status=0
    shift
    echo "    [$((SECONDS - suites_started))s] $name: started (log: $suites_dir/$name.log)"
    (set -euo pipefail; "$@") >"$suites_dir/$name.log" 2>&1 </dev/null || status=$?
    echo "$((SECONDS - start)) $status $name" >"$suites_dir/$name.result"
    if [ "$status" = 0 ]; then
        echo "    [$((SECONDS - suites_started))s] $name: passed in $((SECONDS - start))s"
    else
        echo "    [$((SECONDS - suites_started))s] $name: FAILED (exit $status) in $((SECONDS - start))s"
    fi
    return "$status"
}

lane() {
    local name
    for name in "$@"; do
        suite "$name" "suite_$name" || true
    done
}

# Every suite's time, slowest first; then each failed suite's log (its last 200 lines).
suites_report() {
    local failed=0 seconds status name
    echo
    echo "==> suites, slowest first (seconds, exit status, name):"
    sort -rn "$suites_dir"/*.result | while read -r seconds status name; do
        printf '    %5ss  %s  %s\n' "$seconds" "$([ "$status" = 0 ] && echo ok || echo "FAILED($status)")" "$name"
    done
    while read -r seconds status name; do
        [ "$status" = 0 ] && continue
        failed=1
        echo
        echo "==> FAILED: $name (exit $status); the end of $suites_dir/$name.log:"
        tail -n 200 "$suites_dir/$name.log"
    done < <(cat "$suites_dir"/*.result)
    return "$failed"
}
