#!/bin/sh
# Initialises $PGDATA on first start (superuser postgres, UTF8, C locale), then runs PostgreSQL 15
# with TimescaleDB preloaded. See the Dockerfile for the environment it reads.
set -eu
BIN=/usr/lib/postgresql/15/bin
AUTH=${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwopt=""
  if [ "$AUTH" != trust ]; then
    [ -n "${POSTGRES_PASSWORD_FILE:-}" ] && [ -s "$POSTGRES_PASSWORD_FILE" ] || {
      echo "timescaledb error=no-password hint=\"set POSTGRES_PASSWORD_FILE, or POSTGRES_HOST_AUTH_METHOD=trust for tests\"" >&2
      exit 2
    }
    pwopt="--pwfile=$POSTGRES_PASSWORD_FILE"
  fi
  "$BIN/initdb" -D "$PGDATA" -U postgres -E UTF8 --locale=C --auth-local=peer --auth-host="$AUTH" $pwopt >/dev/null
  if [ "${TIMESCALEDB_LICENSE_APACHE_ONLY:-OFF}" = ON ] || [ "${TIMESCALEDB_LICENSE_APACHE_ONLY:-OFF}" = 1 ]; then
    license=apache
  else
    license=timescale
  fi
  cat >>"$PGDATA/postgresql.conf" <<CONF
# fleetscope/timescaledb
shared_preload_libraries = 'timescaledb'
timescaledb.telemetry_level = off
timescaledb.license = '$license'
password_encryption = 'scram-sha-256'
unix_socket_directories = '/var/run/postgresql'
log_line_prefix = '%m [%p] '
CONF
  printf 'local all postgres peer\nhost all all 0.0.0.0/0 %s\nhost all all ::/0 %s\n' "$AUTH" "$AUTH" >"$PGDATA/pg_hba.conf"
  echo "timescaledb initdb=done pgdata=$PGDATA auth=$AUTH license=$license" >&2
fi
exec "$BIN/postgres" -D "$PGDATA" -c listen_addresses="${POSTGRES_LISTEN:-*}" -p "$PGPORT" "$@"
