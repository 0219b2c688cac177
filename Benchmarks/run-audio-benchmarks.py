"""Audio classification of a 10-minute recording, side by side in one run (issue 29, point 6; `make bench-audio`).

  per recording  audio-classification-benchmark (TensorIO: AudioBuffer(contentsOf:), then Model.classify's
                 async call: mix to mono, resample to 16 kHz with libsoxr, every window) against MediaPipe
                 0.10.21's Python Tasks API (the WAV read with scipy.io.wavfile into float32,
                 AudioData.create_from_array, AudioClassifier.classify in AUDIO_CLIPS mode), warm, on YAMNet
                 and .build/audio/long-recording-44100-stereo.wav (600 s, 44.1 kHz stereo, 16-bit; made by
                 scripts/fixtures/make_long_recording.py when missing). Each with its default threads:
                 TensorIO as `tensorio classify` runs a recording (one run per core at once, one thread each),
                 MediaPipe as its Python API runs (one inference thread; it offers no setting). TensorIO with
                 one run of one thread is printed as a reference line.
  breakdown      TensorIO's parts, timed on their own in the same process: decoding the file, mixing to mono,
                 resampling, and classifying the recording already at 16 kHz mono (windows and runs only).
  equivalence    both sides must make the same windows (count and start times); the share of windows whose
                 top categories agree is printed (YAMNet's scores come in steps of 1/256, so a window's top
                 score is often tied: two windows agree when their sets of top categories share one; the
                 share with exactly the same set is printed too).
Each measurement is a process of its own that times --runs passes after an untimed one, repeated --repeats
times, the order turning each round (benchlib's alternate); the goal is decided on the median of the rounds'
MediaPipe/TensorIO ratios and printed with their range. Prints the table and the goal with PASS/FAIL, writes
bench-results/audio.json, and exits 0 whatever the outcome."""
import os
import subprocess
import sys

import benchlib
from benchlib import ROOT, HERE, describe, figures, median, ratios

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import testdata  # noqa: E402  (the test data's manifest and cache: make test-data)

MODEL = str(testdata.path("task-models/tflite-support/audio/yamnet_audio_classifier_with_metadata.tflite"))
RECORDING = os.path.join(ROOT, ".build", "audio", "long-recording-44100-stereo.wav")

MIN_OVER_MEDIAPIPE = 1.5
# Below this the two sides are not classifying alike, and their times are not comparable.
MIN_AGREEMENT = 0.9


def agreement(ours, theirs):
    """(share of windows whose top categories overlap, share with the same top categories)."""
    pairs = list(zip(ours["top"], theirs["top"]))
    overlapping = sum(bool(set(a) & set(b)) for a, b in pairs)
    same = sum(sorted(a) == sorted(b) for a, b in pairs)
    return overlapping / len(pairs), same / len(pairs)


def main():
    arguments = benchlib.mediapipe_arguments(__doc__.splitlines()[0], 3, "timed passes per process, after an untimed one")
    benchmark = benchlib.program("audio-classification-benchmark")
    if not os.path.exists(RECORDING):
        # Needs numpy alone; this script runs in the MediaPipe environment, which has it.
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "fixtures", "make_long_recording.py"), RECORDING], check=True)

    cores = os.cpu_count() or 1
    runs = str(arguments.runs)
    # As `tensorio classify` runs a recording: one run per core at once, the cores shared among them (one
    # thread each).
    default = ["--concurrent-runs", str(cores), "--threads", "1"]
    commands = {"ours": [benchmark, MODEL, RECORDING, runs] + default,
                "single": [benchmark, MODEL, RECORDING, runs, "--concurrent-runs", "1", "--threads", "1"],
                "theirs": [arguments.python, os.path.join(HERE, "python", "classify_audio_mediapipe.py"), MODEL, RECORDING, runs]}
    results = benchlib.alternate_json(
        commands, arguments.repeats, label="YAMNet, 600 s",
        show=lambda r: (f"TensorIO {r['ours']['recording_us'] / 1000:.0f} ms ({r['single']['recording_us'] / 1000:.0f} ms with one "
                        f"run of one thread), MediaPipe {r['theirs']['recording_us'] / 1000:.0f} ms"))
    ours, single, theirs = results["ours"], results["single"], results["theirs"]

    if ours[-1]["windows"] != theirs[-1]["windows"] or ours[-1]["window_start_ms"] != theirs[-1]["window_start_ms"]:
        raise SystemExit(f"the windows differ: TensorIO {ours[-1]['windows']}, MediaPipe {theirs[-1]['windows']} (or their start times)")
    overlapping, same = agreement(ours[-1], theirs[-1])
    if overlapping < MIN_AGREEMENT:
        raise SystemExit(f"the top categories agree on {overlapping:.1%} of the windows only: the two sides do not classify alike")

    def med(side, key):
        return median(r[key] for r in side)

    def ms(value):
        return f"{value / 1000:.0f} ms"

    recording_us, single_us, mediapipe_us = med(ours, "recording_us"), med(single, "recording_us"), med(theirs, "recording_us")
    seconds = ours[-1]["frames"] / ours[-1]["sample_rate"]
    windows = ours[-1]["windows"]
    row = {
        "model": "YAMNet", "recording": os.path.relpath(RECORDING, ROOT), "seconds": seconds,
        "sample_rate": ours[-1]["sample_rate"], "channels": ours[-1]["channels"], "windows": windows,
        "concurrent_runs": cores, "threads_per_run": 1,
        "tensorio_recording_us": recording_us, "tensorio_one_thread_recording_us": single_us, "mediapipe_recording_us": mediapipe_us,
        "mediapipe_read_us": med(theirs, "read_us"),
        "decode_us": med(ours, "decode_us"), "mix_us": med(ours, "mix_us"), "resample_us": med(ours, "resample_us"),
        "inference_us": med(ours, "inference_us"), "one_thread_inference_us": med(single, "inference_us"),
        "top_agreement": overlapping, "top_same_set": same,
    }
    speedups = ratios(figures(theirs, "recording_us"), figures(ours, "recording_us"))
    goals = [benchlib.goal(
        f"YAMNet on a {seconds / 60:.0f}-minute {row['sample_rate'] / 1000:g} kHz stereo WAV (read, mix, resample, all {windows} windows) at least {MIN_OVER_MEDIAPIPE}x faster than MediaPipe's AudioClassifier, each with its default threads",
        speedups, MIN_OVER_MEDIAPIPE,
        detail=f"TensorIO {describe(figures(ours, 'recording_us'), ms)} ({cores} runs at once, 1 thread each), MediaPipe "
               f"{describe(figures(theirs, 'recording_us'), ms)} (1 thread); top categories agree on {overlapping:.1%} of the windows")]
    references = [
        f"YAMNet, 600 s: with one run of one thread TensorIO {single_us / 1000:.0f} ms, MediaPipe {mediapipe_us / 1000:.0f} ms ({mediapipe_us / single_us:.2f}x)",
        f"YAMNet, 600 s: {windows} windows on both sides, the same start times; top categories shared on {overlapping:.1%}, the same set on {same:.1%}",
    ]

    parts = row["decode_us"] + row["mix_us"] + row["resample_us"] + row["inference_us"]
    print(f"\nYAMNet, {os.path.basename(RECORDING)} ({seconds:.0f} s, {row['sample_rate']} Hz, {row['channels']} channels, {windows} windows); medians of {arguments.repeats} rounds of a process each x {arguments.runs} passes")
    print(f"  TensorIO ({cores} runs at once, 1 thread each)  {recording_us / 1000:8.0f} ms")
    print(f"    decode (AudioBuffer(contentsOf:))          {row['decode_us'] / 1000:8.0f} ms  ({row['decode_us'] / recording_us:.0%})")
    print(f"    mix to mono                                {row['mix_us'] / 1000:8.0f} ms  ({row['mix_us'] / recording_us:.0%})")
    print(f"    resample to 16 kHz (libsoxr)               {row['resample_us'] / 1000:8.0f} ms  ({row['resample_us'] / recording_us:.0%})")
    print(f"    inference (windows and runs)               {row['inference_us'] / 1000:8.0f} ms  ({row['inference_us'] / recording_us:.0%})")
    print(f"    (the parts add up to {parts / 1000:.0f} ms)")
    print(f"  TensorIO, one run of one thread              {single_us / 1000:8.0f} ms  (inference {row['one_thread_inference_us'] / 1000:.0f} ms)")
    print(f"  MediaPipe AudioClassifier (1 thread)         {mediapipe_us / 1000:8.0f} ms  (of which scipy's read {row['mediapipe_read_us'] / 1000:.0f} ms)")
    row["rounds"] = {side: [{k: v for k, v in r.items() if k not in ("top", "window_start_ms")} for r in rs]
                     for side, rs in results.items()}
    benchlib.report("audio", goals, references, {"rows": [row]}, packages=("mediapipe", "numpy", "scipy"))


if __name__ == "__main__":
    main()
