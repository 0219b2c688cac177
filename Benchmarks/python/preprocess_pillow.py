"""Usage: preprocess_pillow.py ITERATIONS [--draft] FILE...

The same work as image-preprocessing with Pillow + NumPy: open, EXIF-transpose, centre-crop to the
target's aspect, resize to 224x224 (bilinear), RGB, float32 normalized to [-1, 1].
With --draft, Pillow's JPEG draft mode decodes at a reduced size first (its counterpart of DCT scaling).
Prints one JSON line per file."""
import os
import sys

import numpy as np
from PIL import Image, ImageOps

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Benchmarks/, for benchlib
import benchlib  # noqa: E402


def preprocess(path, draft):
    with Image.open(path) as image:
        if draft:
            image.draft("RGB", (224, 224))
        image = ImageOps.exif_transpose(image).convert("RGB")
        width, height = image.size
        side = min(width, height)
        left, top = (width - side) // 2, (height - side) // 2
        image = image.resize((224, 224), Image.BILINEAR, box=(left, top, left + side, top + side))
        return np.asarray(image, dtype=np.float32) / 127.5 - 1.0


def main():
    args = sys.argv[1:]
    iterations = int(args.pop(0))
    draft = "--draft" in args
    files = [a for a in args if a != "--draft"]
    for path in files:
        times = [us / 1000 for us in benchlib.sample_us(lambda: preprocess(path, draft), iterations, warmup=2)]
        tensor = preprocess(path, draft)
        benchlib.emit({"file": path, "median_ms": benchlib.percentile(times, 0.5), "mean_ms": sum(times) / len(times),
                       "min_ms": min(times), "checksum": float(tensor.mean())})


if __name__ == "__main__":
    main()
