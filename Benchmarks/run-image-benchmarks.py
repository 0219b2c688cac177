"""Side-by-side image benchmarks, in one run on one machine (run it with `make bench-images`).

1. Preprocessing: decode + orient + crop/scale + normalize a JPEG into a 224x224 float tensor, for a
   ~1 MP and a 12 MP photo: TensorIO (Swift) against Pillow + NumPy, plain and with Pillow's draft mode.
2. Whole classification, process start to printed result: `tensorio classify` against a Python script
   doing the same with ai_edge_litert + Pillow + NumPy.

The photos are made from Examples/photos/retina.jpg (1411x1411, the largest real photo in the packages
we can install): scaled down to 1000x1000 (1 MP) and up to 4000x3000 (12 MP), saved as JPEG quality 90.
The whole classifications run alternately (benchlib's alternate), --runs rounds after an untimed one; the
figures are medians, with their range. Prints a table and writes the figures as JSON to the path given by
--json (default bench-results/images.json)."""
import argparse
import json
import os
import subprocess
import sys

from PIL import Image

import benchlib
from benchlib import ROOT, HERE, describe, median, ratios


def make_photos(directory):
    os.makedirs(directory, exist_ok=True)
    source = os.path.join(ROOT, "Examples", "photos", "retina.jpg")
    photos = {}
    with Image.open(source) as image:
        image = image.convert("RGB")
        for name, size in (("1mp", (1000, 1000)), ("12mp", (4000, 4000))):
            path = os.path.join(directory, f"photo-{name}.jpg")
            if not os.path.exists(path):
                resized = image.resize(size, Image.BICUBIC)
                if name == "12mp":
                    resized = resized.crop((0, 500, 4000, 3500))
                resized.save(path, quality=90)
            photos[name] = path
    return photos


def run_json_lines(command):
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return {entry["file"]: entry for entry in map(json.loads, output.splitlines())}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json", default=os.path.join(ROOT, "bench-results", "images.json"))
    args = parser.parse_args()

    photos = make_photos(os.path.join(ROOT, "bench-results", "photos"))
    # Built in the Benchmarks package (`make bench-images`), into its own .build.
    swift_bench = os.path.join(ROOT, "Benchmarks", ".build", "release", "image-preprocessing-benchmark")
    tensorio = os.path.join(ROOT, "Tools", ".build", "release", "tensorio")
    python = sys.executable
    here = HERE

    files = [photos["1mp"], photos["12mp"]]
    swift = run_json_lines([swift_bench, str(args.iterations), *files])
    pillow = run_json_lines([python, os.path.join(here, "python", "preprocess_pillow.py"), str(args.iterations), *files])
    draft = run_json_lines([python, os.path.join(here, "python", "preprocess_pillow.py"), str(args.iterations), "--draft", *files])

    results = {"preprocessing": {}, "classify": {}}
    print(f"Preprocessing a JPEG into a 224x224 float tensor (median of {args.iterations}, ms)")
    print(f"{'photo':8} {'TensorIO':>10} {'Pillow+NumPy':>14} {'ratio':>7} {'Pillow draft':>14} {'ratio':>7}")
    for name, path in (("1 MP", files[0]), ("12 MP", files[1])):
        ours, theirs, theirs_draft = swift[path]["median_ms"], pillow[path]["median_ms"], draft[path]["median_ms"]
        results["preprocessing"][name] = {"tensorio_ms": ours, "pillow_numpy_ms": theirs, "pillow_draft_numpy_ms": theirs_draft,
                                          "speedup_vs_pillow": theirs / ours, "speedup_vs_pillow_draft": theirs_draft / ours}
        print(f"{name:8} {ours:10.2f} {theirs:14.2f} {theirs / ours:6.1f}x {theirs_draft:14.2f} {theirs_draft / ours:6.1f}x")

    print(f"\nClassifying one photo, process start to printed result (median of {args.runs} alternating runs, ms, and their range)")
    print(f"{'bundle':28} {'tensorio classify':>28} {'Python script':>28} {'ratio':>7}")
    cat = os.path.join(ROOT, "Examples", "photos", "cat.jpg")
    for bundle in ("efficientnet-lite0-float32", "efficientnet-lite0-uint8"):
        path = os.path.join(ROOT, "Examples", f"{bundle}.tiobundle")
        commands = {"tensorio": [tensorio, "classify", path, cat],
                    "python": [python, os.path.join(here, "python", "classify_litert.py"), path, cat]}
        runs = benchlib.alternate({side: (lambda c=c: benchlib.timed(c)[0] * 1000) for side, c in commands.items()}, args.runs)
        speedups = ratios(runs["python"], runs["tensorio"])
        results["classify"][bundle] = {"tensorio_ms": median(runs["tensorio"]), "python_ms": median(runs["python"]),
                                       "speedup": median(speedups), "runs_ms": runs}
        show = lambda v: f"{v:.1f}"  # noqa: E731
        print(f"{bundle:28} {describe(runs['tensorio'], show):>28} {describe(runs['python'], show):>28} {median(speedups):6.1f}x")

    benchlib.report("images", [], data=results, path=args.json, heading="(no goals: figures for docs/performance.md)",
                    packages=("numpy", "pillow", "ai-edge-litert"))


if __name__ == "__main__":
    main()
