#!/usr/bin/env bash
# Runs each libFuzzer target of the Fuzz package (Fuzz/Package.swift) for a bounded time (FUZZ_SECONDS
# each, default 60), seeded from the project's own fixtures, with AddressSanitizer. Crashes, timeouts and
# out-of-memory inputs are written to .fuzz/findings/TARGET-*; the script exits non-zero when any target
# found one. Turn each finding into a regression case in Tests/Fixtures/Hostile/ (see its README).
#
# These targets check the model-file verifier alone. What it lets through reaches LiteRT, in process:
# `make fuzz-models` (scripts/mutate-models.py) runs mutated fixture models through the release `tensorio
# inspect` and `tensorio run` and keeps the ones that die by a signal or hang in .fuzz/campaign/.
#
#   scripts/fuzz.sh                      all targets, 60 s each
#   FUZZ_SECONDS=600 scripts/fuzz.sh fuzz-archive
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-60}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz-model-json fuzz-model-file fuzz-image fuzz-audio fuzz-video fuzz-text fuzz-archive fuzz-training-data fuzz-numpy fuzz-delivery)

# The fuzz targets are a package of their own (a plain `swift build` of TensorIO leaves them out). lld:
# gold cannot link sanitizer-instrumented Swift here. .build-fuzz keeps the instrumented build apart.
flags=(--package-path Fuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld)

seed() {
  local target="$1" corpus=".fuzz/corpus/$1"
  mkdir -p "$corpus"
  # Seeds kept for a target (Fuzz/Seeds/TARGET/): inputs the fixtures do not cover, such as model.json
  # documents with a detection entry (written by tensorio init; see Fuzz/Seeds/README.md).
  if [ -d "Fuzz/Seeds/$target" ]; then cp Fuzz/Seeds/"$target"/* "$corpus/"; fi
  case "$target" in
    fuzz-model-json) find Tests/Fixtures Examples -name model.json -exec cp {} "$corpus/" \; ;;
    fuzz-model-file) find Tests/Fixtures -name '*.tflite' -size -400k -exec cp {} "$corpus/" \; ;;
    fuzz-image) find Tests/Fixtures Examples -size -300k \( -name '*.jpg' -o -name '*.png' \) -exec cp {} "$corpus/" \; ;;
    fuzz-audio) cp Tests/Fixtures/AudioFormats/* "$corpus/"; rm -f "$corpus/README.md" ;;
    # Tiny clips (64×48, 6 frames) in every container and codec TensorIOVideo reads, a rotated one and an
    # audio-only one, made from the repository's photos with Debian's ffmpeg: no clip is committed.
    fuzz-video) scripts/fixtures/make_video_clips.sh "$corpus" --tiny ;;
    fuzz-text)
      # The first byte picks: 0 a regex vocabulary, 1 a WordPiece vocabulary, 2 a SentencePiece model, 3 a text.
      { printf '\0'; printf '<PAD> 0\n<START> 1\n<UNKNOWN> 2\ngood 3\n'; } > "$corpus/regex-vocab"
      { printf '\1'; cat Tests/Fixtures/Text/wordpiece/vocab.txt; } > "$corpus/wordpiece-vocab"
      python3 - "$corpus" <<'PY'
import io, sys, zipfile
# The SentencePiece model packed in the echo model (a zip appended to the .tflite).
data = open("Tests/Fixtures/Text/sentencepiece/bert_spm_identity_echo.tflite", "rb").read()
with zipfile.ZipFile(io.BytesIO(data)) as archive:
    open(sys.argv[1] + "/sentencepiece-model", "wb").write(b"\x02" + archive.read("sentencepiece.model"))
PY
      printf '\3This is the best movie I'"'"'ve seen. Café naïve 好 😀' > "$corpus/text" ;;
    fuzz-delivery)
      # The first byte picks: 0 rollout rules, 1 an assignment request, 2 a release signature file.
      printf '0{"rules": [{"name": "beta", "when": {"appVersion": ">=2.4.0 <3", "region": ["US"]}, "percent": 10, "version": "2"}, {"name": "ab", "split": [{"version": "3", "weight": 30}, {"version": "4", "weight": 70}]}], "revision": 3}' > "$corpus/rules.json"
      printf '1{"installationId": "3f2504e0", "appVersion": "2.4.1", "platform": "ios", "locale": "fr_CA", "custom": {"cohort": "beta"}, "installedVersion": "1"}' > "$corpus/assignment.json"
      printf '2{"format": "tensorio-release-signature-v1", "model_id": "fuzz", "version": "1", "files": [{"path": "model.json", "size": 44, "sha256": "%064d"}], "key_id": "0123456789abcdef", "signature": "%s"}' 0 "$(head -c 64 /dev/zero | base64 -w0)" > "$corpus/signature.json" ;;
    fuzz-training-data)
      # The first byte picks the format: even ("J") for JSON, odd ("C") for CSV; 20 items of each.
      python3 -c 'import json,sys; print("J" + json.dumps(json.load(open(sys.argv[1]))[:20]), end="")' \
        Examples/digits-training/data/test.json > "$corpus/test.json"
      { printf 'C'; head -n 21 Examples/digits-training/data/test.csv; } > "$corpus/test.csv" ;;
    fuzz-numpy)
      # The first byte picks: even (0) for an .npy array, odd (1) for an .npz archive.
      for file in Tests/Fixtures/NumPy/*.npy; do { printf '0'; cat "$file"; } > "$corpus/$(basename "$file")"; done
      for file in Tests/Fixtures/NumPy/*.npz; do { printf '1'; cat "$file"; } > "$corpus/$(basename "$file")"; done ;;
    fuzz-archive)
      for bundle in Tests/Fixtures/Bundles/1_in_1_out_number_test.tiobundle Tests/Fixtures/Bundles/labeled_vectors_test.tiobundle; do
        (cd "$(dirname "$bundle")" && python3 -m zipfile -c "$OLDPWD/$corpus/$(basename "$bundle").zip" "$(basename "$bundle")")
      done
      # numpy.savez archives: ZIP64 sizes in local headers, as Python writes them.
      cp Tests/Fixtures/NumPy/*.npz "$corpus/" ;;
  esac
}

# Leaks inside Debian's libraries on malformed input, which TensorIO cannot free (Fuzz/lsan-suppressions.txt).
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

status=0
mkdir -p .fuzz/findings
for target in "${targets[@]}"; do
  swift build "${flags[@]}" --product "$target"
  seed "$target"
  echo "fuzz: $target for ${seconds}s"
  if ! ".build-fuzz/debug/$target" ".fuzz/corpus/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix=".fuzz/findings/$target-" -print_final_stats=1 2>".fuzz/$target.log"; then
    echo "fuzz: $target found a failure: $(ls .fuzz/findings | grep "^$target-" | tr '\n' ' ')" >&2
    tail -n 40 ".fuzz/$target.log" >&2
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" ".fuzz/$target.log" | sed "s/^/fuzz: $target /"
  fi
done
exit $status
