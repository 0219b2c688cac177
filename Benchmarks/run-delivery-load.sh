#!/usr/bin/env bash
# Delivery under load (issue 13), with 50 concurrent clients (wrk, keep-alive connections on 127.0.0.1, 10 s
# each) against one `tensorio serve` on SQLite, then against two instances sharing one PostgreSQL database
# and one archive folder (25 clients each, at the same time): downloads/s and MB/s of one version's
# archive, update checks/s (GET of the model), and assignments/s (POST …/assignment, each request another
# device, against a rollout of 8 rules). Then rollout decisions/s inside one process (`tensorio rollout
# bench`). Release build (make build); wrk from Debian's packages. Writes bench-results/delivery-load.json.
#
#   make bench-delivery            (or: scripts/with-postgres.sh Benchmarks/run-delivery-load.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
TENSORIO=${TENSORIO:-Tools/.build/release/tensorio}
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

# An assignment request per device: wrk's Lua picks another installation id for each request.
cat >"$folder/assign.lua" <<'LUA'
counter = 0
request = function()
  counter = counter + 1
  local body = string.format('{"installationId": "device-%d", "appVersion": "2.%d.0", "platform": "ios", "region": "US", "locale": "en-US", "deviceClass": "phone"}', counter, counter % 7)
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, body)
end
LUA
cat >"$folder/rules.json" <<'JSON'
{"rules": [
  {"name": "qa", "when": {"installationId": ["qa-1", "qa-2"]}, "version": "1"},
  {"name": "beta", "when": {"custom": {"cohort": ["beta"]}}, "version": "1"},
  {"name": "v1-us", "when": {"appVersion": ">=2.4.0 <3", "platform": ["ios"], "region": ["US", "CA"]}, "percent": 10, "version": "1"},
  {"name": "old-os", "when": {"osVersion": "<15"}, "version": "1"},
  {"name": "fr", "when": {"locale": ["fr"]}, "percent": 50, "version": "1"},
  {"name": "tablets", "when": {"deviceClass": ["tablet"]}, "version": "1"},
  {"name": "ab", "when": {"platform": ["android"]}, "split": [{"version": "1", "weight": 50}, {"version": "1b", "weight": 50}]},
  {"name": "rest", "percent": 1, "version": "1"}
]}
JSON

# Pushes the bundle as versions 1 and 1b and sets the rollout, through the server at $1.
seed() {
  "$TENSORIO" push "$BUNDLE" --to "$1" --token-file "$folder/token" --version 1 >/dev/null
  "$TENSORIO" push "$BUNDLE" --to "$1" --token-file "$folder/token" --version 1b --not-canonical >/dev/null
  "$TENSORIO" rollout set "$model" "$folder/rules.json" --to "$1" --token-file "$folder/token" >/dev/null
}

# wrk's Requests/sec and Transfer/sec (in MB/s) as "requests mb"; extra arguments go to wrk. A figure
# that counts error answers measures nothing: any non-2xx answer or socket error stops the benchmark.
measure() {
  local url="$1" clients="$2" report
  shift 2
  report=$(wrk -t 1 -c "$clients" -d "$DURATION" --timeout 30s "$@" "$url")
  if grep -qE "Non-2xx|Socket errors" <<<"$report"; then
    echo "run-delivery-load: errors from $url:" >&2
    echo "$report" >&2
    exit 1
  fi
  awk '
    /^Requests\/sec:/ { r = $2 }
    /^Transfer\/sec:/ { v = $2; u = substr(v, length(v) - 1); n = v + 0;
                        m = (u == "GB") ? n * 1024 : (u == "MB") ? n : (u == "KB") ? n / 1024 : n / 1048576 }
    END { printf "%s %.1f\n", r, m }' <<<"$report"
}

model=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]+"/model.json"))["id"])' "$BUNDLE")
size=$(python3 -c 'import os,sys; print(sum(os.path.getsize(os.path.join(d,f)) for d,_,fs in os.walk(sys.argv[1]) for f in fs))' "$BUNDLE")

one=$(serve --root "$folder/sqlite")
seed "$one"
read -r sqlite_rps sqlite_mbs < <(measure "$one/v1/models/$model/versions/1/archive" 50)
read -r sqlite_checks _ < <(measure "$one/v1/models/$model" 50)
read -r sqlite_assign _ < <(measure "$one/v1/models/$model/assignment" 50 -s "$folder/assign.lua")

database=$(python3 - "$TENSORIO_TEST_POSTGRES_URL" <<'PY'
import sys, urllib.parse
url = urllib.parse.urlsplit(sys.argv[1])
print(urllib.parse.urlunsplit(url._replace(path="/tensorio_delivery_load")))
PY
)
psql "$TENSORIO_TEST_POSTGRES_URL" -q -c "DROP DATABASE IF EXISTS tensorio_delivery_load" -c "CREATE DATABASE tensorio_delivery_load"
a=$(serve --root "$folder/shared" --database "$database")
b=$(serve --root "$folder/shared" --database "$database")
seed "$a"
# Both instances at once, 25 clients each; prints the two "requests mb" lines summed.
pair() {
  measure "$a$1" 25 "${@:2}" >"$folder/a" &
  local first=$!
  measure "$b$1" 25 "${@:2}" >"$folder/b"
  wait "$first"
  read -r ar am <"$folder/a"
  read -r br bm <"$folder/b"
  python3 -c 'import sys; a, b, c, d = map(float, sys.argv[1:]); print(f"{a + c:.1f} {b + d:.1f} {a:.1f} {b:.1f} {c:.1f} {d:.1f}")' "$ar" "$am" "$br" "$bm"
}
read -r pg_rps pg_mbs a_rps a_mbs b_rps b_mbs < <(pair "/v1/models/$model/versions/1/archive")
read -r pg_checks _ _ _ _ _ < <(pair "/v1/models/$model")
read -r pg_assign _ _ _ _ _ < <(pair "/v1/models/$model/assignment" -s "$folder/assign.lua")
decisions=$("$TENSORIO" rollout bench --decisions 2000000 --json)
decisions2=$("$TENSORIO" rollout bench --decisions 2000000 --threads 2 --json)

mkdir -p bench-results
python3 - "$BUNDLE" "$size" "$DURATION" "$sqlite_rps" "$sqlite_mbs" "$sqlite_checks" "$sqlite_assign" \
  "$pg_rps" "$pg_mbs" "$pg_checks" "$pg_assign" "$a_rps" "$a_mbs" "$b_rps" "$b_mbs" "$decisions" "$decisions2" <<'PY'
import json, sys
bundle, size, duration = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s_r, s_m, s_c, s_a, p_r, p_m, p_c, p_a, a_r, a_m, b_r, b_m = map(float, sys.argv[4:16])
one, two = json.loads(sys.argv[16]), json.loads(sys.argv[17])
result = {
    "bundle": bundle, "bundle_bytes": size, "duration": duration, "clients": 50,
    "one_instance_sqlite": {"downloads_per_s": s_r, "mb_per_s": s_m, "update_checks_per_s": s_c, "assignments_per_s": s_a},
    "two_instances_postgres": {"downloads_per_s": p_r, "mb_per_s": p_m, "update_checks_per_s": p_c, "assignments_per_s": p_a,
                               "per_instance_downloads": [{"downloads_per_s": a_r, "mb_per_s": a_m},
                                                          {"downloads_per_s": b_r, "mb_per_s": b_m}]},
    "rollout_decisions_in_process": {"one_thread": one, "two_threads": two},
}
json.dump(result, open("bench-results/delivery-load.json", "w"), indent=2)
def rate(report):
    for key in ("decisions_per_second", "decisionsPerSecond", "decisions_per_s"):
        if key in report: return report[key]
    return report
print(f"| 50 clients on 127.0.0.1 ({bundle}, {size / 1e6:.1f} MB) | downloads/s | MB/s | update checks/s | assignments/s |")
print("|---|---:|---:|---:|---:|")
print(f"| one instance (SQLite) | {s_r:.0f} | {s_m:.0f} | {s_c:.0f} | {s_a:.0f} |")
print(f"| two instances (PostgreSQL, shared folder) | {p_r:.0f} | {p_m:.0f} | {p_c:.0f} | {p_a:.0f} |")
print(f"rollout decisions/s in one process: {rate(one)} (1 thread), {rate(two)} (2 threads)")
PY
