"""MediaPipe's side of run-segmentation-benchmarks.py: the Tasks API's ImageSegmenter on one photo file, warm.

  segment_mediapipe.py MODEL PHOTO RUNS

mediapipe.tasks.python.vision.ImageSegmenter (running mode IMAGE) with the category mask on and the
confidence masks off: the least MediaPipe can be asked for, and what TensorIO's segment gives (a category
per pixel of the photo). Each iteration decodes the file (mp.Image.create_from_file) and segments, as
segmentation-benchmark's "photo" does; prints {"photo_us": median, "width": w, "height": h} (the mask's
size) as one JSON line. Runs in the environment of
scripts/fixtures/mediapipe-requirements.txt (mediapipe 0.10.21)."""
import os
import sys

import mediapipe as mp
from mediapipe.tasks import python as tasks
from mediapipe.tasks.python import vision

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Benchmarks/, for benchlib
import benchlib  # noqa: E402


def main():
    model, photo, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    options = vision.ImageSegmenterOptions(base_options=tasks.BaseOptions(model_asset_path=model),
                                           output_category_mask=True, output_confidence_masks=False)
    segmenter = vision.ImageSegmenter.create_from_options(options)
    times = benchlib.sample_us(lambda: segmenter.segment(mp.Image.create_from_file(photo)), runs, warmup=max(10, runs // 10))
    mask = segmenter.segment(mp.Image.create_from_file(photo)).category_mask.numpy_view()
    height, width = mask.shape[:2]
    benchlib.emit({"photo_us": benchlib.median(times), "width": width, "height": height})


if __name__ == "__main__":
    main()
