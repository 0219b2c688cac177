#!/usr/bin/env bash
# Delivery under load (issue 13): downloads/s and MB/s of one version's archive with 50 concurrent clients
# (wrk, keep-alive connections on 127.0.0.1, 10 s) against one `tensorio serve` on SQLite, then against two
# instances sharing one PostgreSQL database and one archive folder (25 clients each, at the same time).
# Release build (make build); wrk from Debian's packages. Writes bench-results/delivery-load.json.
#
#   make bench-delivery            (or: scripts/with-postgres.sh Benchmarks/run-delivery-load.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
TENSORIO=${TENSORIO:-.build/release/tensorio}
BUNDLE=${BUNDLE:-Examples/efficientnet-lite0-uint8.tiobundle}
DURATION=${DURATION:-10s}
[ -x "$TENSORIO" ] || { echo "run make build first" >&2; exit 1; }
[ -n "${TENSORIO_TEST_POSTGRES_URL:-}" ] || { echo "run through scripts/with-postgres.sh" >&2; exit 1; }
if ! command -v wrk >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

folder=$(mktemp -d /tmp/tensorio-delivery-load.XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$folder"; }
trap cleanup EXIT
echo "bench-load-token" > "$folder/token"

# Starts `tensorio serve ARGS…` in the background and prints its URL once it listens.
serve() {
  local log="$folder/serve-$RANDOM"
  "$TENSORIO" serve --port 0 --token-file "$folder/token" "$@" >"$log.out" 2>"$log.err" &
  pids+=($!)
  for _ in $(seq 1 300); do
    if grep -q '^listening on ' "$log.out" 2>/dev/null; then sed -n 's/^listening on //p' "$log.out"; return; fi
    sleep 0.1
  done
  cat "$log.err" >&2; exit 1
}

# wrk's Requests/sec and Transfer/sec (in MB/s) as "requests mb".
measure() {
  wrk -t 1 -c "$2" -d "$DURATION" "$1" | awk '
    /^Requests\/sec:/ { r = $2 }
    /^Transfer\/sec:/ { v = $2; u = substr(v, length(v) - 1); n = v + 0;
                        m = (u == "GB") ? n * 1024 : (u == "MB") ? n : (u == "KB") ? n / 1024 : n / 1048576 }
    END { printf "%s %.1f\n", r, m }'
}

model=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]+"/model.json"))["id"])' "$BUNDLE")
size=$(python3 -c 'import os,sys; print(sum(os.path.getsize(os.path.join(d,f)) for d,_,fs in os.walk(sys.argv[1]) for f in fs))' "$BUNDLE")

one=$(serve --root "$folder/sqlite")
"$TENSORIO" push "$BUNDLE" --to "$one" --token-file "$folder/token" --version 1 >/dev/null
read -r sqlite_rps sqlite_mbs < <(measure "$one/v1/models/$model/versions/1/archive" 50)

database=$(python3 - "$TENSORIO_TEST_POSTGRES_URL" <<'PY'
import sys, urllib.parse
url = urllib.parse.urlsplit(sys.argv[1])
print(urllib.parse.urlunsplit(url._replace(path="/tensorio_delivery_load")))
PY
)
psql "$TENSORIO_TEST_POSTGRES_URL" -q -c "DROP DATABASE IF EXISTS tensorio_delivery_load" -c "CREATE DATABASE tensorio_delivery_load"
a=$(serve --root "$folder/shared" --database "$database")
b=$(serve --root "$folder/shared" --database "$database")
"$TENSORIO" push "$BUNDLE" --to "$a" --token-file "$folder/token" --version 1 >/dev/null
measure "$a/v1/models/$model/versions/1/archive" 25 >"$folder/a" &
measure "$b/v1/models/$model/versions/1/archive" 25 >"$folder/b" &
wait %1 %2 2>/dev/null || wait
read -r a_rps a_mbs <"$folder/a"
read -r b_rps b_mbs <"$folder/b"

mkdir -p bench-results
python3 - "$sqlite_rps" "$sqlite_mbs" "$a_rps" "$a_mbs" "$b_rps" "$b_mbs" "$BUNDLE" "$size" "$DURATION" <<'PY'
import json, sys
s_r, s_m, a_r, a_m, b_r, b_m = map(float, sys.argv[1:7])
result = {
    "bundle": sys.argv[7], "bundle_bytes": int(sys.argv[8]), "duration": sys.argv[9], "clients": 50,
    "one_instance_sqlite": {"downloads_per_s": s_r, "mb_per_s": s_m},
    "two_instances_postgres": {"downloads_per_s": a_r + b_r, "mb_per_s": round(a_m + b_m, 1),
                               "per_instance": [{"downloads_per_s": a_r, "mb_per_s": a_m},
                                                {"downloads_per_s": b_r, "mb_per_s": b_m}]},
}
json.dump(result, open("bench-results/delivery-load.json", "w"), indent=2)
print(f"| 50 clients, {sys.argv[7]} archive | downloads/s | MB/s |")
print("|---|---:|---:|")
print(f"| one instance (SQLite) | {s_r:.0f} | {s_m:.1f} |")
print(f"| two instances (PostgreSQL, shared folder) | {a_r + b_r:.0f} | {a_m + b_m:.1f} |")
PY
