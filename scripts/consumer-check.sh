#!/usr/bin/env bash
# The package as a consumer sees it: builds Tests/ConsumerPackage (the TensorIO library alone, no traits)
# in .build-consumer, runs it on a fixture bundle, and fails when SwiftPM resolved any package beyond the
# expected ones for it (docs/packages.md). Part of `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."

expected="swift-log"
consumer=(--package-path Tests/ConsumerPackage --scratch-path .build-consumer)

swift package "${consumer[@]}" resolve
# Every package in the consumer's graph, by identity, but the consumer and this package (named TensorIO).
resolved=$(swift package "${consumer[@]}" show-dependencies --format json | python3 -c '
import json, sys
seen = set()
def walk(node):
    for child in node.get("dependencies", []):
        if child["name"] != "TensorIO":
            seen.add(child["identity"])
        walk(child)
root = json.load(sys.stdin)
walk(root)
for identity in sorted(seen):
    print(identity)
')
echo "consumer-check: packages resolved for the TensorIO library alone: ${resolved//$'\n'/ }"
unexpected=$(comm -23 <(echo "$resolved" | sort) <(echo "$expected" | tr ' ' '\n' | sort))
if [ -n "$unexpected" ]; then
  echo "consumer-check: unexpected packages for a consumer of TensorIO alone: ${unexpected//$'\n'/ }" >&2
  echo "consumer-check: guard the new dependency with a trait in Package.swift (docs/packages.md)" >&2
  exit 1
fi

swift build "${consumer[@]}"
identifier=$(.build-consumer/debug/Consumer Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle)
if [ "$identifier" != "1_in_1_out_number_test" ]; then
  echo "consumer-check: the consumer printed \"$identifier\", expected 1_in_1_out_number_test" >&2
  exit 1
fi
echo "consumer-check: built and ran against the TensorIO library alone"
