"""Segmentation and embeddings, side by side in one run (issue 28, point 6; `make bench-segmentation`).

  per photo     segmentation-benchmark (TensorIO: decode the JPEG file, segment: the category mask on the
                photo) against MediaPipe 0.10.21's Python Tasks API (mp.Image.create_from_file, then
                ImageSegmenter.segment with the category mask only), warm, on the same model and photo:
                MediaPipe's selfie segmenter on Examples/photos/grace_hopper.jpg, and DeepLab v3 on the Task
                Library's segmentation_input_rotation0.jpg. Each with its default threads, as `tensorio
                segment` runs one photo (--threads = the cores) and as MediaPipe's Python Tasks API runs
                (one inference thread; it offers no setting). One thread each is printed as a reference line.
  mask          what the mask adds to a run on the photo (activation, confidences resized onto the photo,
                argmax per pixel), against the model's invoke (a run on a photo already of the input's size),
                on one thread: segment − run iteration by iteration in segmentation-benchmark, the median of
                those differences over its --runs iterations.
  --jobs        `tensorio similar` over 200 photos with `--jobs 2` against `--jobs 1 --threads 1`, process
                start to the printed ranking, with Examples/efficientnet-lite0-embedding.tiobundle (the
                Examples photos copied round robin).
Each measurement is a process of its own, repeated --repeats times, the order turning each round (benchlib's
alternate); each goal is decided on the median of its per-round figures (a ratio of two sides of the same
round, or the mask's share of the same process's invoke) and printed with their range. Prints the table and
the goals with PASS/FAIL, writes bench-results/segmentation.json, and exits 0 whatever the outcome."""
import os
import sys
import tempfile

import benchlib
from benchlib import ROOT, HERE, describe, figures, median, ms, ratios

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import testdata  # noqa: E402  (the test data's manifest and cache: make test-data)

# The Task Library's models and photos, in the test-data cache (make test-data).
VISION = str(testdata.cache_dir() / "task-models" / "tflite-support" / "vision")
MODULES = os.path.join(ROOT, ".build", "zoo", "mediapipe-modules")
PHOTOS = os.path.join(ROOT, "Examples", "photos")
EMBEDDER = os.path.join(ROOT, "Examples", "efficientnet-lite0-embedding.tiobundle")

MIN_OVER_MEDIAPIPE = 1.5
MAX_MASK_SHARE = 0.10
MIN_JOBS_SCALING = 1.8
SIMILAR_PHOTOS = 200

CASES = [
    # name, model, photo
    ("selfie segmenter", os.path.join(MODULES, "selfie_segmentation", "selfie_segmentation.tflite"),
     os.path.join(PHOTOS, "grace_hopper.jpg")),
    ("DeepLab v3", os.path.join(VISION, "deeplabv3.tflite"), os.path.join(VISION, "segmentation_input_rotation0.jpg")),
]


def main():
    arguments = benchlib.mediapipe_arguments(__doc__.splitlines()[0], 100, "timed iterations per process")
    benchmark = benchlib.program("segmentation-benchmark")

    rows, goals, references = [], [], []
    cores = str(os.cpu_count() or 1)
    for name, model, photo in CASES:
        runs = str(arguments.runs)
        commands = {"ours": [benchmark, model, photo, runs, "--threads", cores],
                    "single": [benchmark, model, photo, runs, "--threads", "1"],
                    "theirs": [arguments.python, os.path.join(HERE, "python", "segment_mediapipe.py"), model, photo, runs]}
        results = benchlib.alternate_json(
            commands, arguments.repeats, label=name,
            show=lambda r: (f"TensorIO {r['ours']['photo_us']:.0f} µs ({r['single']['photo_us']:.0f} µs on one thread, "
                            f"mask {r['single']['mask_us']:.0f} µs against a {r['single']['invoke_us']:.0f} µs invoke), "
                            f"MediaPipe {r['theirs']['photo_us']:.0f} µs"))
        ours, theirs, single = results["ours"], results["theirs"], results["single"]
        if (ours[-1]["width"], ours[-1]["height"]) != (theirs[-1]["width"], theirs[-1]["height"]):
            raise SystemExit(f"{name}: the masks differ in size: TensorIO {ours[-1]['width']}x{ours[-1]['height']}, MediaPipe {theirs[-1]['width']}x{theirs[-1]['height']}")
        row, speed, reference = benchlib.per_photo(name, "segment", results, MIN_OVER_MEDIAPIPE, "MediaPipe's ImageSegmenter")
        # The mask's share is measured on one thread: the invoke it is set against is then not shortened by
        # the second core, while the mask's own work never used it.
        mask_us, invoke_us = figures(single, "mask_us"), figures(single, "invoke_us")
        shares = ratios(mask_us, invoke_us)
        width, height = int(ours[-1]["width"]), int(ours[-1]["height"])
        row.update({"run_us": median(figures(single, "run_us")), "segment_us": median(figures(single, "segment_us")),
                    "invoke_us": median(invoke_us), "mask_us": median(mask_us), "mask_share": median(shares),
                    "mask": [width, height]})
        rows.append(row)
        goals.append(speed)
        references.append(reference)
        goals.append(benchlib.goal(
            f"{name}: the mask on the {width}x{height} photo at most {MAX_MASK_SHARE:.0%} of the model's invoke",
            shares, MAX_MASK_SHARE, at_least=False, show=lambda v: f"{v:.1%}",
            detail=f"{describe(mask_us, lambda v: f'{v:+.0f} µs')} against a {describe(invoke_us, lambda v: f'{v:.0f} µs')} invoke (one thread)"))

    with tempfile.TemporaryDirectory() as folder:
        sources = sorted(os.path.join(PHOTOS, f) for f in os.listdir(PHOTOS) if f.endswith(".jpg"))
        benchlib.copy_round_robin(sources, SIMILAR_PHOTOS, folder)
        command = [benchlib.TENSORIO, "similar", EMBEDDER, os.path.join(PHOTOS, "cat.jpg"), folder, "--json"]
        goals.append(benchlib.jobs_goal("similar", command, SIMILAR_PHOTOS, arguments.repeats, MIN_JOBS_SCALING))

    benchlib.print_photo_table(rows, arguments.repeats, "invoke    mask adds (one thread)",
                               lambda row: f"{ms(row['invoke_us']):>8} {row['mask_us']:+.0f} µs ({row['mask_share']:.1%})")
    benchlib.report("segmentation", goals, references, {"rows": rows}, packages=("mediapipe", "numpy"))


if __name__ == "__main__":
    main()
