#!/usr/bin/env bash
# The contract test: a running `tensorio serve` checked against docs/openapi.yaml with schemathesis.
#
# Creates .venv-contract (schemathesis from PyPI, pinned), starts the debug `tensorio serve` on 127.0.0.1
# with a temporary root and a write token, pushes one model version, runs schemathesis on every operation
# with a bounded number of examples and a time budget, stops the server, and fails on any non-conformance.
# Expects `swift build --package-path Tools` (or its `swift test`) to have built tensorio, tensorio-repository (which runs `serve`)
# and tensorio-load-check.
#   SWIFT=swift  CONTRACT_MAX_EXAMPLES=25  CONTRACT_MAX_TIME=180  (seconds)
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
SWIFT=${SWIFT:-swift}
MAX_EXAMPLES=${CONTRACT_MAX_EXAMPLES:-25}
MAX_TIME=${CONTRACT_MAX_TIME:-180}
VENV=.venv-contract

if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q "version $SCHEMATHESIS_VERSION\$"; then
    if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
        echo "contract-test: python3's venv module is missing: sudo apt-get install python3-venv" >&2
        exit 1
    fi
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

BIN=$("$SWIFT" build --package-path Tools --show-bin-path)
TENSORIO="$BIN/tensorio"
[ -x "$TENSORIO" ] && [ -x "$BIN/tensorio-repository" ] && [ -x "$BIN/tensorio-load-check" ] || {
    echo "contract-test: $TENSORIO, tensorio-repository or tensorio-load-check is missing: run swift build first" >&2
    exit 1
}

WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID"
        for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

TOKEN="contract-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s\n' "$TOKEN" > "$WORK/token"
"$TENSORIO" serve --root "$WORK/root" --port 0 --token-file "$WORK/token" --log-level warning \
    > "$WORK/serve.out" 2> "$WORK/serve.err" &
SERVER_PID=$!
URL=
for _ in $(seq 1 300); do
    URL=$(sed -n 's/^listening on //p' "$WORK/serve.out" | head -n 1)
    [ -n "$URL" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$URL" ]; then
    echo "contract-test: tensorio serve did not start:" >&2
    cat "$WORK/serve.err" >&2
    exit 1
fi

# One model with one version, so that the reads have something to find.
"$TENSORIO" push Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle --to "$URL" --token-file "$WORK/token" \
    --version 1 > /dev/null

# Every check but ignored_auth (reads are open on this server, so a read without a token is meant to work)
# and positive_data_acceptance (a valid identifier of a model that does not exist is a 404, as documented).
status=0
SCHEMATHESIS_HOOKS=scripts/contract-hooks.py timeout $((MAX_TIME + 120)) "$VENV/bin/schemathesis" run docs/openapi.yaml \
    --url "$URL" \
    --header "Authorization: Bearer $TOKEN" \
    --checks all --exclude-checks ignored_auth,positive_data_acceptance \
    --max-examples "$MAX_EXAMPLES" --max-time "$MAX_TIME" --request-timeout 30 \
    --workers 1 --seed 13 --generation-database none --no-color \
    || status=$?
if [ "$status" -ne 0 ]; then
    echo "contract-test: the server does not conform to docs/openapi.yaml (schemathesis exit $status)" >&2
    echo "--- the server's stderr (last 40 lines) ---" >&2
    tail -n 40 "$WORK/serve.err" >&2
    exit 1
fi
echo "contract-test: the server conforms to docs/openapi.yaml"
