#!/usr/bin/env bash
# The tests skipped for missing test data (Tests/TestSupport/TestData.swift), counted over one `make test`.
#
#   scripts/testdata-skips.sh reset          forgets the last run's skips (`make test-data` does, first)
#   scripts/testdata-skips.sh collect LOG    keeps the skips a test run's LOG shows (scripts/failures-last.sh
#                                            and scripts/consumer-check.sh do)
#   scripts/testdata-skips.sh report         one line: how many tests were skipped, and the command that
#                                            fetches their data
#
# A skip is a line Swift Testing prints for a test whose trait TestData.required(...) turned it off — its
# comment starts with "missing test data" — or a line of the consumer check that starts with
# "consumer-check: skipped (missing test data". The same test skipped in two runs (the tests and TSan)
# counts once.
set -euo pipefail
cd "$(dirname "$0")/.."

skips=.build/testdata-skips.txt

case "${1:-}" in
  reset)
    mkdir -p .build
    : > "$skips"
    ;;
  collect)
    mkdir -p .build
    # Swift Testing: `◇ Test name() skipped: "missing test data: …"` (the symbol varies with the terminal).
    # What identifies the test is the text between "Test " and " skipped".
    grep -a -E '(Test .* skipped: "missing test data|^consumer-check: skipped \(missing test data)' "$2" \
      | sed -E 's/.*Test (.*) skipped: .*/\1/' >> "$skips" || true
    ;;
  report)
    count=0
    [ -f "$skips" ] && count=$(sort -u "$skips" | grep -c . || true)
    # The skipped tests first, one a line; the count last, where a log's last line shows it.
    [ "$count" -gt 0 ] && sort -u "$skips" | sed 's/^/  skipped for missing test data: /'
    echo "make test: $count tests skipped for missing test data$([ "$count" -gt 0 ] && echo "; make test-data fetches it (TENSORIO_TEST_DATA_MIRROR=DIR copies it from a local folder)")"
    ;;
  *)
    echo "usage: scripts/testdata-skips.sh reset | collect LOG | report" >&2
    exit 2
    ;;
esac
