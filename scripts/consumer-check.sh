#!/usr/bin/env bash
# The package as a consumer sees it: builds Tests/ConsumerPackage (the TensorIO library alone, no traits)
# in .build-consumer with the README's Swift examples compiled in, runs it on a fixture bundle and runs the
# README's inference example, and fails when SwiftPM resolved any package beyond the expected ones for it
# (docs/packages.md), or when the consumer's own code (the README's examples) builds with a warning. Part of
# `make test`.
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

# The README's Swift examples (the blocks that start with `import TensorIO`), each as a function of the
# consumer — async when the example awaits — so they compile against the public API exactly as a consumer
# sees it; the first one runs below.
mkdir -p .build-consumer
python3 - <<'PY'
import json, re
readme = open("README.md", encoding="utf-8").read()
# Each Swift block with the README line of its first line.
swift_blocks = [(readme.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in re.finditer(r"```swift\n(.*?)```", readme, re.S)]
# For each file written, its line numbers (from 1) that come from the README, with the README's line.
readme_lines = {}

def write(path, header, blocks, effects_of):
    out = header[:]
    lines = {}
    for number, (first_line, block) in enumerate(blocks, start=1):
        out.append(f"func readmeExample{number}() {effects_of(block)} {{")
        for offset, line in enumerate(block.splitlines()):
            if line.startswith("import "):
                continue
            out.append("    " + line if line else "")
            lines[len(out)] = first_line + offset
        out += ["}", ""]
    open(path, "w", encoding="utf-8").write("\n".join(out))
    readme_lines[path] = lines

blocks = [(n, b) for n, b in swift_blocks if b.splitlines()[0] == "import TensorIO"]
if len(blocks) < 2:
    raise SystemExit("consumer-check: expected the README's inference and training examples")
# Async when the example itself awaits (not a function it declares).
write("Tests/ConsumerPackage/Sources/Consumer/ReadmeExamples.swift",
      ["// Written by scripts/consumer-check.sh from README.md; do not edit.", "import Foundation", "import TensorIO", ""],
      blocks,
      lambda block: "async throws" if any("await " in line and not line[:1].isspace() for line in block.splitlines()) else "throws")
# The audio and text examples (blocks starting with `import TensorIOAudio` or `import TensorIOText`), for
# the consumer that uses those libraries.
blocks = [(n, b) for n, b in swift_blocks if b.splitlines()[0] in ("import TensorIOAudio", "import TensorIOText")]
if len(blocks) != 2:
    raise SystemExit("consumer-check: expected the README's audio and text examples")
write("Tests/ConsumerPackage/Sources/SoundAndTextConsumer/ReadmeExamples.swift",
      ["// Written by scripts/consumer-check.sh from README.md; do not edit.", "import Foundation", "import TensorIO",
       "import TensorIOAudio", "import TensorIOText", ""],
      blocks, lambda block: "throws")
json.dump(readme_lines, open(".build-consumer/readme-lines.json", "w"))
PY

# The consumer's own code, the README's examples above all, builds without a warning (an unused value in an
# example is a slip a reader copies). The examples are written anew each time, so they are compiled again.
log=.build-consumer/consumer-build.log
swift build "${consumer[@]}" 2>&1 | tee "$log"
warnings=$(python3 - "$log" <<'PY'
import json, os, re, sys
root = os.getcwd() + "/"
readme_lines = json.load(open(".build-consumer/readme-lines.json"))
seen = set()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    match = re.match(r"(.*?Tests/ConsumerPackage/[^:]+):(\d+):(\d+): warning: (.*)", line.rstrip("\n"))
    if not match:
        continue
    path = match.group(1).removeprefix(root)
    where = f"{path}:{match.group(2)}:{match.group(3)}"
    readme_line = readme_lines.get(path, {}).get(match.group(2))
    if readme_line:
        where = f"README.md:{readme_line} (written into {where})"
    text = f"{where}: {match.group(4)}"
    if text not in seen:
        seen.add(text)
        print(text)
PY
)
if [ -n "$warnings" ]; then
  while IFS= read -r warning; do
    echo "consumer-check: warning in the consumer's code: $warning" >&2
  done <<< "$warnings"
  exit 1
fi
identifier=$(.build-consumer/debug/Consumer Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle)
if [ "$identifier" != "1_in_1_out_number_test" ]; then
  echo "consumer-check: the consumer printed \"$identifier\", expected 1_in_1_out_number_test" >&2
  exit 1
fi
echo "consumer-check: built and ran against the TensorIO library alone"

# The README's inference example prints what its comments say.
# What an example prints on stderr is shown only when it fails.
example_errors=$(mktemp "${TMPDIR:-/tmp}/consumer-stderr.XXXXXX")
trap 'rm -f "$example_errors"' EXIT
if ! printed=$(.build-consumer/debug/Consumer --readme 2>"$example_errors"); then
  echo "consumer-check: the README's inference example failed: $(tr '\n' ' ' < "$example_errors")" >&2
  exit 1
fi
expected=$'25.0\n240.0 [64.0]\nEgyptian cat\ngamma 4.0\ndelta 4.0'
if [ "$printed" != "$expected" ]; then
  echo "consumer-check: the README's example printed:" >&2
  echo "$printed" >&2
  echo "consumer-check: expected what its comments say:" >&2
  echo "$expected" >&2
  exit 1
fi
echo "consumer-check: the README's examples compile, and the first prints what its comments say"

# An app using TensorIO alone links none of the audio, text and video libraries' C libraries (FFmpeg's
# among them); the audio and text examples run and print what their comments say.
linked=$(ldd .build-consumer/debug/Consumer | grep -oE 'lib(sndfile|soxr|re2|sentencepiece|avformat|avcodec|avutil|swscale|swresample)[^ ]*' || true)
if [ -n "$linked" ]; then
  echo "consumer-check: the TensorIO-only consumer links ${linked//$'\n'/ }: those belong to TensorIOAudio, TensorIOText or TensorIOVideo" >&2
  exit 1
fi
# The audio and text examples read the TFLite Task Library's files from the test-data cache, by the path the
# README gives (~/.cache/tensorio/test-data); without them they are compiled but not run, a skip that
# `make test` counts (scripts/testdata-skips.sh).
example_data=(
  task-models/tflite-support/audio/yamnet_audio_classifier_with_metadata.tflite
  task-models/tflite-support/audio/speech.wav
  task-models/tflite-support/text/test_model_nl_classifier_with_regex_tokenizer.tflite
)
for name in "${example_data[@]}"; do
  if ! python3 scripts/testdata.py path "$name" >/dev/null; then
    skip_log=$(mktemp "${TMPDIR:-/tmp}/consumer-skip.XXXXXX")
    echo "consumer-check: skipped (missing test data: $name) running the README's audio and text examples (make test-data fetches it)" | tee "$skip_log"
    scripts/testdata-skips.sh collect "$skip_log"
    rm -f "$skip_log"
    echo "consumer-check: the TensorIO-only consumer links no audio, text or video library"
    exit 0
  fi
done
# Where TENSORIO_TEST_DATA_CACHE moves the cache, the examples run with a home whose ~/.cache/tensorio/test-data
# is that folder (the runtimes are still found in the real ~/.local/share).
run_home=$HOME
cache=$(python3 -c 'import sys; sys.path.insert(0, "scripts"); import testdata; print(testdata.cache_dir().resolve())')
if [ "$cache" != "$(cd "$HOME" && pwd -P)/.cache/tensorio/test-data" ]; then
  run_home=$(mktemp -d "${TMPDIR:-/tmp}/consumer-home.XXXXXX")
  trap 'rm -rf "$run_home" "$example_errors"' EXIT
  mkdir -p "$run_home/.cache/tensorio"
  ln -s "$cache" "$run_home/.cache/tensorio/test-data"
fi
data_home=${XDG_DATA_HOME:-$HOME/.local/share}  # before HOME changes below: the runtimes stay where they are
if ! printed=$(HOME=$run_home XDG_DATA_HOME=$data_home .build-consumer/debug/SoundAndTextConsumer 2>"$example_errors" | tr '\n' ' '); then
  echo "consumer-check: the README's audio and text examples failed: $(tr '\n' ' ' < "$example_errors")" >&2
  exit 1
fi
expected_audio='0 ["Speech"] 975 ["Speech"]'
if [[ "$printed" != "$expected_audio"* ]] || [[ "$printed" != *"Positive"* ]]; then
  echo "consumer-check: the README's audio and text examples printed: $printed" >&2
  exit 1
fi
echo "consumer-check: the TensorIO-only consumer links no audio, text or video library; the audio and text examples run"
