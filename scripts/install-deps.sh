#!/usr/bin/env bash
# Installs what StoreSync needs to build and run, only when it is missing:
# libpq headers (pkg-config libpq), the PostgreSQL server binaries (initdb, pg_ctl, postgres,
# pg_basebackup), PgBouncer (the test suite runs the server through it and a streaming standby)
# and, with --bench, the load tools wrk and pgbench. Safe to run again: it changes nothing
# when everything is present.
set -euo pipefail

want_bench=0
[ "${1:-}" = "--bench" ] && want_bench=1

have_libpq() { command -v pkg-config >/dev/null && pkg-config --exists libpq; }
postgres_bindir() {
    if command -v pg_config >/dev/null && [ -x "$(pg_config --bindir)/initdb" ]; then pg_config --bindir; return; fi
    for dir in /usr/lib/postgresql/*/bin /opt/homebrew/opt/postgresql@*/bin /usr/local/opt/postgresql@*/bin; do
        [ -x "$dir/initdb" ] && { echo "$dir"; return; }
    done
    return 1
}
have_postgres() { postgres_bindir >/dev/null 2>&1; }
have_pgbouncer() { command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ]; }
have_bench_tools() { command -v wrk >/dev/null && command -v pgbench >/dev/null; }

missing=()
have_libpq || missing+=("libpq headers")
have_postgres || missing+=("PostgreSQL server")
have_pgbouncer || missing+=("PgBouncer")
[ $want_bench = 1 ] && ! have_bench_tools && missing+=("wrk and pgbench")
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
if command -v apt-get >/dev/null; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo to install: ${missing[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    packages=(pkg-config libpq-dev postgresql postgresql-contrib pgbouncer)
    [ $want_bench = 1 ] && packages+=(wrk postgresql-client)
    export DEBIAN_FRONTEND=noninteractive
    # The postgresql and pgbouncer packages would start system services on ports 5432 and 6432;
    # StoreSync never uses them (it runs its own embedded cluster, and the tests their own
    # PgBouncer), so keep the services from starting.
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
        $sudo chmod +x /usr/sbin/policy-rc.d
        trap '$sudo rm -f /usr/sbin/policy-rc.d' EXIT
    fi
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
elif command -v brew >/dev/null; then
    brew install libpq postgresql@16 pkg-config pgbouncer
    [ $want_bench = 1 ] && brew install wrk
    echo "install-deps: add to your shell: export PKG_CONFIG_PATH=\"$(brew --prefix libpq)/lib/pkgconfig:\$PKG_CONFIG_PATH\""
else
    echo "install-deps: no apt-get or brew here; install ${missing[*]} yourself (Debian: libpq-dev postgresql pgbouncer)" >&2
    exit 1
fi

have_libpq && have_postgres && have_pgbouncer || { echo "install-deps: still missing after install: ${missing[*]}" >&2; exit 1; }
echo "install-deps: done"
