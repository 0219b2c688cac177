"""MediaPipe's side of run-audio-benchmarks.py: the Tasks API's AudioClassifier on one recording, warm.

  classify_audio_mediapipe.py MODEL RECORDING RUNS

mediapipe.tasks.python.audio.AudioClassifier in running mode AUDIO_CLIPS with its default options (every
category, no threshold, its default threads), created once. Each iteration reads the WAV file as a Python
user would (scipy.io.wavfile, int16 scaled by 1/32768 to float32, as the audio references read theirs),
wraps it in AudioData.create_from_array with the file's rate (MediaPipe mixes down and resamples) and
classifies the clip: what audio-classification-benchmark's "recording" times. One untimed pass first.
Prints {"recording_us": median, "read_us": median, "windows": n, "window_start_ms": [...], "top": [[index,
...], ...]} (per window, the categories with the top score: several when tied) as one JSON line. Runs in the
environment of scripts/fixtures/mediapipe-requirements.txt (mediapipe 0.10.21)."""
import os
import sys
import time

import numpy as np
from mediapipe.tasks import python as tasks
from mediapipe.tasks.python import audio
from mediapipe.tasks.python.components.containers import audio_data
from scipy.io import wavfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Benchmarks/, for benchlib
import benchlib  # noqa: E402


def read(path):
    """(float32 samples, [frames] or [frames, channels], rate)."""
    rate, data = wavfile.read(path)
    if data.dtype != np.int16:
        raise SystemExit(f"{path}: {data.dtype} samples, expected 16-bit PCM")
    return data.astype(np.float32) / np.float32(32768), rate


def classify(classifier, path):
    samples, rate = read(path)
    return classifier.classify(audio_data.AudioData.create_from_array(samples, rate))


def top_indices(categories):
    """The indices of the categories with the highest score (NaN never counts as one)."""
    scores = [c.score for c in categories if c.score == c.score]
    if not scores:
        return []
    best = max(scores)
    return sorted(c.index for c in categories if c.score == best)


def main():
    model, path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    options = audio.AudioClassifierOptions(base_options=tasks.BaseOptions(model_asset_path=model),
                                           running_mode=audio.RunningMode.AUDIO_CLIPS)
    with audio.AudioClassifier.create_from_options(options) as classifier:
        results = classify(classifier, path)  # warm-up
        times, reads = [], []
        for _ in range(runs):
            start = time.perf_counter()
            samples, rate = read(path)
            read_end = time.perf_counter()
            results = classifier.classify(audio_data.AudioData.create_from_array(samples, rate))
            end = time.perf_counter()
            times.append((end - start) * 1e6)
            reads.append((read_end - start) * 1e6)
            del samples
    benchlib.emit({"recording_us": benchlib.median(times), "read_us": benchlib.median(reads),
                   "windows": len(results), "window_start_ms": [r.timestamp_ms for r in results],
                   "top": [top_indices(r.classifications[0].categories) for r in results]})


if __name__ == "__main__":
    main()
