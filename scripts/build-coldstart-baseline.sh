#!/usr/bin/env bash
# Builds "today's" tensorio for the cold-start benchmark (make bench-coldstart): the tool as it was before
# the cold-start work of issue 12 (commit $COLDSTART_BASELINE, default ef342e9: no weight cache, Swift's
# libraries linked dynamically, one thread per run), built the way it was then
# (`swift build -c release --product tensorio`), from a git worktree in .bench-baseline into
# .build-baseline. Skips the build when the executable is there. About 10 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

commit="${COLDSTART_BASELINE:-ef342e9}"
executable=.build-baseline/release/tensorio
if [ -x "$executable" ] && [ "$(cat .build-baseline/commit 2>/dev/null)" = "$commit" ]; then
  exit 0
fi
if [ ! -d .bench-baseline ]; then
  git worktree add --detach .bench-baseline "$commit" >&2
else
  git -C .bench-baseline checkout --quiet --detach "$commit"
fi
echo "build-coldstart-baseline: building tensorio at $commit into .build-baseline (once)" >&2
(cd .bench-baseline && swift build -c release --product tensorio --scratch-path ../.build-baseline >&2)
echo "$commit" > .build-baseline/commit
