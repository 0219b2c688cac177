#!/usr/bin/env bash
# Writes the clip of the video benchmarks (Benchmarks/run-video-benchmarks.py, docs/performance.md): 30 s of
# 1280×720 H.264 at 30 frames per second (900 frames), with Debian's ffmpeg (5.1), from the gesture photo
# task-data/gestures/call/0413d5c5-….jpg of the test data (a person from the waist up; read from the test-data
# cache, `make test-data`): the photo scaled to 1600×1200, turned back and forth by up to 0.2 rad, and a
# 1280×720 window panning and bobbing across it, so the body moves, turns and changes size the whole time.
# Deterministic: one encoder thread, fixed settings (the same bytes on any machine with the same ffmpeg).
#
#   scripts/make_benchmark_clip.sh OUTPUT.mp4
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: make_benchmark_clip.sh OUTPUT.mp4}"
gesture="$(python3 "$root/scripts/testdata.py" path task-data/gestures/call/0413d5c5-f5ba-476f-a921-ea5e967692a9.jpg)"
mkdir -p "$(dirname "$out")"
ffmpeg -hide_banner -loglevel error -nostdin -y -threads 1 -filter_threads 1 -loop 1 -framerate 30 -i "$gesture" \
  -frames:v 900 \
  -vf "scale=1600:1200,setsar=1,rotate='0.2*sin(2*PI*t/7)':ow=1600:oh=1200:c=black,crop=1280:720:'160+150*sin(2*PI*t/11)':'60+60*sin(2*PI*t/5)'" \
  -c:v libx264 -preset veryfast -crf 23 -threads 1 -g 60 -pix_fmt yuv420p -fflags +bitexact -flags:v +bitexact -an \
  -movflags +faststart "$out.partial.mp4"
mv "$out.partial.mp4" "$out"
