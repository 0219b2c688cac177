#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server on 127.0.0.1, for the tests of the repository server's
# PostgreSQL index (two `tensorio serve` processes on one database). Installs Debian's postgresql when it is
# missing, creates a cluster in a temporary folder (trust authentication, loopback only, a free port),
# exports TENSORIO_TEST_POSTGRES_URL (the cluster's `postgres` database; tests create their own databases
# in it), runs the command, then stops the server and removes the folder, whatever the command's outcome.
#
#   scripts/with-postgres.sh swift test --filter Postgres
set -euo pipefail
cd "$(dirname "$0")/.."

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
bin=$(find_bin)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "with-postgres: PostgreSQL is not installed; please install it (apt-get install postgresql)" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  bin=$(find_bin)
fi

# PostgreSQL refuses to run as root: as root, the cluster belongs to the postgres user the package made.
as_owner=()
folder=$(mktemp -d /tmp/tensorio-postgres.XXXXXX)
if [ "$(id -u)" -eq 0 ]; then
  chown postgres "$folder"
  as_owner=(runuser -u postgres --)
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
  "${as_owner[@]}" "$bin/pg_ctl" -D "$folder/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$folder"
}
trap stop EXIT

"${as_owner[@]}" "$bin/initdb" -D "$folder/data" -U tensorio --auth=trust --encoding=UTF8 --locale=C >"$folder/initdb.log" 2>&1 \
  || { cat "$folder/initdb.log" >&2; exit 1; }
"${as_owner[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
  -o "-p $port -k $folder -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off" start >/dev/null \
  || { cat "$folder/server.log" >&2; exit 1; }

export TENSORIO_TEST_POSTGRES_URL="postgres://tensorio@127.0.0.1:$port/postgres?sslmode=disable"
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port" >&2
status=0
"$@" || status=$?
exit $status
