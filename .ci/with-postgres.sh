#!/usr/bin/env bash
# Run a command with DATABASE_URL pointing at a throw-away PostgreSQL server on this machine.
# Uses Debian's PostgreSQL (installed here when missing); the cluster lives in a temp folder and is thrown away
# afterwards, so it runs without durability (fsync, synchronous commit, full-page writes off): the tests' commits
# and TRUNCATEs do not wait for the disk. No autovacuum (the tests' databases live minutes; its workers ran
# beside the tests). The tests reach it through its Unix socket (a query's round trip 170 us, against 240 us over
# TCP on loopback); it listens on 127.0.0.1 too.
set -euo pipefail
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PGDATA=$(mktemp -d /tmp/ci-pg.XXXXXX)
PORT=${PGPORT_CI:-54329}
if [ "$(id -u)" = 0 ]; then
  chown postgres "$PGDATA"
  run_pg() { su postgres -s /bin/sh -c "$*"; }
else
  run_pg() { sh -c "$*"; }
fi
run_pg "$PGBIN/initdb -D $PGDATA -A trust -U postgres -E UTF8 --locale=C.UTF-8" >/dev/null
run_pg "$PGBIN/pg_ctl -D $PGDATA -l $PGDATA/server.log -o \"-k $PGDATA -p $PORT -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c autovacuum=off\" -w start" >/dev/null
trap 'run_pg "$PGBIN/pg_ctl -D $PGDATA -m fast -w stop" >/dev/null 2>&1 || true; rm -rf "$PGDATA"' EXIT

# the socket folder as the URL's host, its slashes escaped (dj-database-url unescapes them)
export DATABASE_URL="postgres://postgres@${PGDATA//\//%2F}:$PORT/tournament"
# DATABASE_URL makes the settings a server's (config/settings.py): a throw-away key, and plain HTTP on loopback
export SECRET_KEY="${SECRET_KEY:-$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')}"
export HTTPS="${HTTPS:-0}"
"$PGBIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qc "CREATE DATABASE tournament" >/dev/null
"$@"
