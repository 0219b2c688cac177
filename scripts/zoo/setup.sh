#!/usr/bin/env bash
# Sets up the model zoo test (Tests/TensorIOTests/ModelZooTests.swift; Tests/Fixtures/README.md, "The model zoo"):
#   .venv-zoo                        Python's ai_edge_litert and NumPy (scripts/zoo/requirements.txt), which
#                                    compute the reference outputs (scripts/zoo/reference.py)
#   .build/zoo/mediapipe-modules/    the .tflite files under mediapipe/modules/ of the pinned mediapipe wheel
#                                    (downloaded with pip into .build/zoo/cache/, never installed)
#   .build/zoo/derived/coco_ssd_detector_metadata.tflite
#                                    the DETECTOR_METADATA test model (Tests/Fixtures/Detection/README.md):
#                                    the test data's COCO SSD (make test-data) without its post-process op,
#                                    with the committed metadata and label zip
#                                    (scripts/fixtures/detector_metadata_model.py); skipped, with a line,
#                                    when the SSD is not in the test-data cache (its tests are skipped then)
# Idempotent and quiet: what is already there is skipped. Fails loudly.
set -euo pipefail
cd "$(dirname "$0")/../.."

mediapipe_version=0.10.21
# The models are the same in every wheel of a release: take one fixed wheel whatever the local Python or
# machine (pip downloads it for that platform; it is only unzipped, never installed).
mediapipe_python=3.11
mediapipe_platform=manylinux_2_28_x86_64

venv=.venv-zoo
requirements=scripts/zoo/requirements.txt
stamp=$venv/.zoo-requirements
if ! cmp -s "$requirements" "$stamp" 2>/dev/null || [ ! -x "$venv/bin/python" ]; then
  echo "setup-zoo: installing $(grep -v '^#' "$requirements" | xargs) into $venv" >&2
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$stamp"
fi

modules=.build/zoo/mediapipe-modules
done_marker=$modules/.mediapipe-$mediapipe_version
if [ ! -f "$done_marker" ]; then
  cache=.build/zoo/cache
  mkdir -p "$cache"
  wheel=$(ls "$cache"/mediapipe-"$mediapipe_version"-*.whl 2>/dev/null | head -n 1 || true)
  if [ -z "$wheel" ]; then
    echo "setup-zoo: downloading mediapipe==$mediapipe_version (its wheel, for the models in mediapipe/modules/)" >&2
    python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
      --python-version "$mediapipe_python" --platform "$mediapipe_platform" \
      "mediapipe==$mediapipe_version" -d "$cache"
    wheel=$(ls "$cache"/mediapipe-"$mediapipe_version"-*.whl | head -n 1)
  fi
  rm -rf "$modules.partial"
  mkdir -p "$modules.partial"
  python3 - "$wheel" "$modules.partial" <<'PY'
import os, shutil, sys, zipfile
wheel, target = sys.argv[1], sys.argv[2]
count = 0
with zipfile.ZipFile(wheel) as archive:
    for name in archive.namelist():
        if not (name.startswith("mediapipe/modules/") and name.endswith(".tflite")):
            continue
        relative = name[len("mediapipe/modules/"):]
        if relative.startswith("/") or ".." in relative.split("/"):
            sys.exit(f"setup-zoo: unexpected path in the wheel: {name}")
        destination = os.path.join(target, relative)
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        with archive.open(name) as source, open(destination, "wb") as out:
            shutil.copyfileobj(source, out, 1 << 20)
        count += 1
if count == 0:
    sys.exit(f"setup-zoo: no mediapipe/modules/**.tflite in {wheel}")
PY
  touch "$modules.partial/.mediapipe-$mediapipe_version"
  rm -rf "$modules"
  mv "$modules.partial" "$modules"
fi

# The DETECTOR_METADATA model: rebuilt when it is missing or when one of its inputs (the test data's SSD, the
# two committed fixtures, the script) changed; the stamp next to it holds their sha256. A failed derivation
# leaves no model behind.
derived=.build/zoo/derived
detector_model=$derived/coco_ssd_detector_metadata.tflite
ssd=$(python3 scripts/testdata.py path task-models/tflite-support/vision/coco_ssd_mobilenet_v1_1.0_quant_2018_06_29.tflite || true)
detector_inputs=(
  "$ssd"
  Tests/Fixtures/Detection/coco-ssd-detector-metadata.metadata.bin
  Tests/Fixtures/Detection/coco-ssd-detector-metadata.associated-files.zip
  scripts/fixtures/detector_metadata_model.py
)
for input in "${detector_inputs[@]:1}"; do
  [ -f "$input" ] || { echo "setup-zoo: missing $input (needed for $detector_model)" >&2; exit 1; }
done
if [ ! -f "$ssd" ]; then
  echo "setup-zoo: the COCO SSD is not in the test-data cache (make test-data fetches it): $detector_model not derived" >&2
  rm -f "$detector_model" "$detector_model.inputs"
elif detector_sums=$(sha256sum "${detector_inputs[@]}") &&
     { [ ! -f "$detector_model" ] || [ "$(cat "$detector_model.inputs" 2>/dev/null)" != "$detector_sums" ]; }; then
  echo "setup-zoo: deriving $detector_model" >&2
  mkdir -p "$derived"
  rm -f "$detector_model" "$detector_model.inputs" "$detector_model".partial*
  "$venv/bin/python" scripts/fixtures/detector_metadata_model.py "$detector_model.partial"
  mv "$detector_model.partial" "$detector_model"
  printf '%s\n' "$detector_sums" > "$detector_model.inputs"
fi

# The wake-phrase model of PyPI's word-activation-recognition 0.1.1 (44.1 kHz audio; the audio references of
# Tests/Fixtures/Audio/README.md): unzipped from its wheel (downloaded with pip into .build/zoo/cache/, never
# installed) and checked against the sha256 the references were computed with.
wake_package=word-activation-recognition==0.1.1
wake_wheel=word_activation_recognition-0.1.1-py3-none-any.whl
wake_member=word_activation_recognition/models/star_trek_activation_phrase_v2.tflite
wake_sha256=1c016cd5f9f474300efab376e4b36010856979c31a9cf7ee9392f1dae0fe3785
wake_model=.build/zoo/wake-phrase/star_trek_activation_phrase_v2.tflite
if [ ! -f "$wake_model" ] || [ "$(sha256sum "$wake_model" | cut -d' ' -f1)" != "$wake_sha256" ]; then
  cache=.build/zoo/cache
  mkdir -p "$cache" "$(dirname "$wake_model")"
  if [ ! -f "$cache/$wake_wheel" ]; then
    echo "setup-zoo: downloading $wake_package (its wheel, for the wake-phrase model)" >&2
    python3 -m pip download --quiet --disable-pip-version-check --no-deps "$wake_package" -d "$cache"
  fi
  python3 - "$cache/$wake_wheel" "$wake_member" "$wake_model.partial" <<'PY'
import sys, zipfile
wheel, member, target = sys.argv[1:]
with zipfile.ZipFile(wheel) as archive, open(target, "wb") as out:
    out.write(archive.read(member))
PY
  if [ "$(sha256sum "$wake_model.partial" | cut -d' ' -f1)" != "$wake_sha256" ]; then
    rm -f "$wake_model.partial"
    echo "setup-zoo: $wake_member in $wake_wheel is not the model the audio references were computed with" >&2
    exit 1
  fi
  mv "$wake_model.partial" "$wake_model"
fi
