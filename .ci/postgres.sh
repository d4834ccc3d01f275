#!/usr/bin/env bash
# Start a throwaway PostgreSQL server from the distribution's packages for the store tests.
#
#   eval "$(.ci/postgres.sh start)"   # installs PostgreSQL if missing, starts a private cluster, exports
#                                      # ROBOTCORE_TEST_DATABASE_URL and ROBOTCORE_TEST_PGDATA
#   .ci/postgres.sh stop               # stops it and removes its files
#
# The cluster lives in a temporary directory, listens on 127.0.0.1 only, trusts local connections and is
# owned by the 'postgres' system user (PostgreSQL refuses to run as root). Nothing of the machine's own
# clusters is touched.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}

start() {
    if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
        echo "installing PostgreSQL from the distribution's packages" >&2
        $SUDO apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql >&2
    fi
    local bin port dir
    bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
    port="${ROBOTCORE_TEST_PGPORT:-55432}"
    while (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
    dir="$(mktemp -d /tmp/robotcore-pg.XXXXXX)"
    chmod 755 "$dir"
    $SUDO chown postgres "$dir"
    as_postgres "$bin/initdb" -D "$dir/data" -A trust -U robotcore -E UTF8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # fsync off: a test database that is thrown away after the run
    as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >&2 \
        || { cat "$dir/server.log" >&2; exit 1; }
    echo "export ROBOTCORE_TEST_DATABASE_URL='postgresql+psycopg://robotcore@127.0.0.1:$port/postgres'"
    echo "export ROBOTCORE_TEST_PGDATA='$dir'"
}

stop() {
    local dir="${ROBOTCORE_TEST_PGDATA:-}"
    [ -n "$dir" ] && [ -d "$dir/data" ] || return 0
    local bin
    bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    $SUDO rm -rf "$dir"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
