#!/usr/bin/env bash
# pg-server.sh - a throw-away PostgreSQL server for tests and benchmarks.
#
#   pg-server.sh start DIR   initdb a cluster in DIR/data, start it listening only
#                            on a Unix socket in DIR (no TCP), print the libpq URI
#   pg-server.sh stop DIR    stop it (fast shutdown); the caller removes DIR
#
# Uses Debian's binaries (/usr/lib/postgresql/<newest>/bin, or $PGBIN).
# PostgreSQL refuses to run as root: as root the server runs as the
# 'postgres' user (created by Debian's postgresql package) and DIR is given
# to it. Exit status 77 when PostgreSQL is not installed, so tests skip.
# Extra server settings can be passed in PG_SERVER_OPTS (e.g. "-c fsync=off").
set -euo pipefail

PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)}
PORT=${PG_PORT:-5433}

as_pg() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: pg-server.sh start|stop DIR" >&2
  exit 2
fi

case "$cmd" in
start)
  if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ] || [ ! -x "$PGBIN/pg_ctl" ]; then
    echo "pg-server.sh: PostgreSQL server binaries not found (apt install postgresql)" >&2
    exit 77
  fi
  if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
    echo "pg-server.sh: running as root and there is no 'postgres' user to run the server" >&2
    exit 77
  fi
  mkdir -p "$dir"
  chmod 755 "$dir"
  [ "$(id -u)" = 0 ] && chown postgres: "$dir"
  as_pg "$PGBIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync \
    >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
  # shellcheck disable=SC2086
  as_pg "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-k $dir -c listen_addresses= -p $PORT -c max_connections=200 ${PG_SERVER_OPTS:-}" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
  echo "postgresql:///postgres?host=$dir&port=$PORT&user=postgres"
  ;;
stop)
  if [ -n "$PGBIN" ] && [ -f "$dir/data/postmaster.pid" ]; then
    as_pg "$PGBIN/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null || true
  fi
  ;;
*)
  echo "pg-server.sh: $cmd: expected start or stop" >&2
  exit 2
  ;;
esac
