#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on loopback for the test suite (installing Debian's
# `postgresql` if it is missing) and prints the admin URL. Stop it with `postgres.sh stop`
# (fast: its connections are cut) and start the same cluster again, data kept, with
# `postgres.sh resume` (the outage test does both to a cluster of its own). `postgres.sh install`
# only installs the package when it is missing (tests/run.sh does it in the background).
# ARCADE_TEST_PG_OPTIONS adds server settings (`-c shared_buffers=2GB`, for the growth bench).
set -euo pipefail

PORT="${ARCADE_TEST_PG_PORT:-54329}"
DATA="${ARCADE_TEST_PG_DIR:-/tmp/arcade-test-pg}"
LOG="$DATA.log"

find_bin() {
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    [[ -n "$dir" && -x "$dir/pg_ctl" ]] && echo "$dir"
}

as_owner() {
    if [[ "$(id -u)" == 0 ]]; then
        su postgres -s /bin/bash -c "$*"
    else
        bash -c "$*"
    fi
}

start_cluster() {
    as_owner "'$BIN/pg_ctl' -D '$DATA' -l '$LOG' -w -o \"-h 127.0.0.1 -p $PORT -k /tmp -c max_connections=400 -c fsync=off ${ARCADE_TEST_PG_OPTIONS:-}\" start >/dev/null"
}

BIN="$(find_bin || true)"
if [[ "${1:-start}" == stop ]]; then
    [[ -n "$BIN" && -d "$DATA" ]] && as_owner "'$BIN/pg_ctl' -D '$DATA' -m fast stop" >/dev/null 2>&1 || true
    exit 0
fi
if [[ "${1:-start}" == resume ]]; then
    start_cluster
    exit 0
fi

if [[ -z "$BIN" ]]; then
    echo "installing PostgreSQL (Debian package postgresql)" >&2
    if [[ "$(id -u)" == 0 ]]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >&2
    BIN="$(find_bin)"
fi
[[ "${1:-start}" == install ]] && exit 0

# A fresh cluster per run: initdb (as the postgres user when running as root) on a private dir.
as_owner "'$BIN/pg_ctl' -D '$DATA' -m immediate stop" >/dev/null 2>&1 || true
rm -rf "$DATA" "$LOG"
mkdir -p "$DATA"
[[ "$(id -u)" == 0 ]] && chown postgres:postgres "$DATA"
as_owner "'$BIN/initdb' -D '$DATA' -U postgres --auth=trust -E UTF8 >/dev/null"
touch "$LOG"
[[ "$(id -u)" == 0 ]] && chown postgres:postgres "$LOG"
start_cluster
echo "postgres://postgres@127.0.0.1:$PORT/postgres"
