#!/usr/bin/env bash
# Podman as this machine kind runs it (../shared/design/stack-notes.md, "Containers"), set up
# idempotently: Debian's podman, runc and mmdebstrap; no default ulimits (setrlimit fails
# here); and, since no image registry is reachable, `debian:bookworm-slim` bootstrapped from
# Debian's packages (minbase, with ca-certificates and passwd as the real image has its users'
# tools) and imported under its own name, so the Containerfile's `FROM` resolves locally. The
# bootstrap is cached in ~/.cache/arcade. Prints the podman command line to use.
set -euo pipefail
say() { echo "[podman] $*" >&2; }
apt=(apt-get); [ "$(id -u)" = 0 ] || apt=(sudo apt-get)
if ! command -v podman >/dev/null || ! command -v runc >/dev/null || ! command -v mmdebstrap >/dev/null; then
    say "installing Debian's podman, runc and mmdebstrap"
    DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -q podman runc mmdebstrap >&2 \
        || { "${apt[@]}" update -q >&2 && DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -q podman runc mmdebstrap >&2; }
fi
conf=/etc/containers/containers.conf
if ! grep -q '^default_ulimits = \[\]' "$conf" 2>/dev/null; then
    say "containers.conf: no default ulimits"
    printf '[containers]\ndefault_ulimits = []\n' >> "$conf"
fi
podman=(podman --runtime runc --cgroup-manager=cgroupfs)
base=docker.io/library/debian:bookworm-slim
if ! "${podman[@]}" image exists "$base"; then
    cache="$HOME/.cache/arcade/bookworm-minbase.tar"
    if [ ! -f "$cache" ] || [ ! -s "$cache" ]; then
        say "bootstrapping $base from Debian's packages (about 90 s, once)"
        mkdir -p "$(dirname "$cache")"
        rm -rf "$cache" "$cache.part"
        # mmdebstrap picks its output's format from the name's extension unless told: the
        # partial file's `.part` would make it a directory.
        mmdebstrap --variant=minbase --format=tar --include=ca-certificates,passwd bookworm "$cache.part" >&2
        mv "$cache.part" "$cache"
    fi
    "${podman[@]}" import "$cache" "$base" >&2
fi
echo "${podman[*]}"
