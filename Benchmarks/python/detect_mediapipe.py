"""MediaPipe's side of run-detection-benchmarks.py: the Tasks API's detector on one photo file, warm.

  detect_mediapipe.py face MODEL PHOTO RUNS     mediapipe.tasks.python.vision.FaceDetector
  detect_mediapipe.py object MODEL PHOTO RUNS   mediapipe.tasks.python.vision.ObjectDetector

Each iteration decodes the file (mp.Image.create_from_file) and detects, as detection-benchmark's "photo"
does; prints {"photo_us": median, "detections": n} as one JSON line. Runs in the environment of
scripts/fixtures/mediapipe-requirements.txt (mediapipe 0.10.21)."""
import os
import sys

import mediapipe as mp
from mediapipe.tasks import python as tasks
from mediapipe.tasks.python import vision

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Benchmarks/, for benchlib
import benchlib  # noqa: E402


def main():
    kind, model, photo, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    base = tasks.BaseOptions(model_asset_path=model)
    if kind == "face":
        detector = vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base))
    else:
        detector = vision.ObjectDetector.create_from_options(vision.ObjectDetectorOptions(base_options=base))
    times = benchlib.sample_us(lambda: detector.detect(mp.Image.create_from_file(photo)), runs, warmup=max(10, runs // 10))
    result = detector.detect(mp.Image.create_from_file(photo))
    benchlib.emit({"photo_us": benchlib.median(times), "detections": len(result.detections)})


if __name__ == "__main__":
    main()
