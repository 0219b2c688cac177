#!/usr/bin/env bash
# Runs a test command and, when it fails, repeats its failures at the end of the output: Swift Testing
# prints a failed expectation when it happens, in the middle of hundreds of lines of other tests, and a CI
# log that keeps only its last lines would otherwise show that the run failed but not what failed.
#
#   scripts/failures-last.sh swift test
#
# Passes the command's output through unchanged and exits with its status; on a failure, adds the
# failures with their details, then one line each (at most 15, each cut at 400 characters).
set -uo pipefail

log=$(mktemp "${TMPDIR:-/tmp}/tensorio-test-log.XXXXXX")
trap 'rm -f "$log"' EXIT

"$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# The tests skipped for missing test data, for `make test`'s last line (scripts/testdata-skips.sh).
"$(dirname "$0")/testdata-skips.sh" collect "$log"
if [ "$status" -ne 0 ]; then
  echo
  echo "== what failed, with the lines that follow each (repeated from above) =="
  # Swift Testing marks failures with ✘; the lines after one carry the expectation's values. At most
  # 150 lines, so a cascade does not bury the first failure.
  grep -a -A 6 -E '✘|: error: ' "$log" | grep -a -v -E '^◇|^✔' | head -n 150
  # Then one line per failure, last, for logs that keep only their end.
  echo "== failures, one line each =="
  grep -a -E '✘|: error: ' "$log" | cut -c 1-400 | head -n 15
fi
exit "$status"
