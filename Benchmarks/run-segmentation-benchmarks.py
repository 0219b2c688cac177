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
import argparse
import os
import sys
import tempfile

import benchlib
from benchlib import ROOT, HERE, describe, median, ratios, run_json

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


def ms(value):
    return f"{value / 1000:.2f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--python", default=os.path.join(ROOT, ".venv-mediapipe", "bin", "python"))
    arguments = parser.parse_args()
    benchmark = os.path.join(ROOT, "Benchmarks", ".build", "release", "segmentation-benchmark")
    tensorio = os.path.join(ROOT, ".build", "release", "tensorio")

    rows, goals, references = [], [], []
    cores = str(os.cpu_count() or 1)
    for name, model, photo in CASES:
        runs = str(arguments.runs)
        commands = {"ours": [benchmark, model, photo, runs, "--threads", cores],
                    "single": [benchmark, model, photo, runs, "--threads", "1"],
                    "theirs": [arguments.python, os.path.join(HERE, "python", "segment_mediapipe.py"), model, photo, runs]}
        # Each process warms up before it times; no untimed process first.
        results = benchlib.alternate(
            {side: (lambda c=c: run_json(c)) for side, c in commands.items()}, arguments.repeats, warmup=0, label=name,
            show=lambda r: (f"TensorIO {r['ours']['photo_us']:.0f} µs ({r['single']['photo_us']:.0f} µs on one thread, "
                            f"mask {r['single']['mask_us']:.0f} µs against a {r['single']['invoke_us']:.0f} µs invoke), "
                            f"MediaPipe {r['theirs']['photo_us']:.0f} µs"))
        ours, single, theirs = results["ours"], results["single"], results["theirs"]
        if (ours[-1]["width"], ours[-1]["height"]) != (theirs[-1]["width"], theirs[-1]["height"]):
            raise SystemExit(f"{name}: the masks differ in size: TensorIO {ours[-1]['width']}x{ours[-1]['height']}, MediaPipe {theirs[-1]['width']}x{theirs[-1]['height']}")

        def figures(side, key):
            return [r[key] for r in results[side]]

        photo_us, single_us, mediapipe_us = (figures(side, "photo_us") for side in ("ours", "single", "theirs"))
        # The mask's share is measured on one thread: the invoke it is set against is then not shortened by
        # the second core, while the mask's own work never used it.
        mask_us, invoke_us = figures("single", "mask_us"), figures("single", "invoke_us")
        shares = ratios(mask_us, invoke_us)
        width, height = int(ours[-1]["width"]), int(ours[-1]["height"])
        rows.append({"model": name, "tensorio_photo_us": median(photo_us), "tensorio_one_thread_photo_us": median(single_us),
                     "mediapipe_photo_us": median(mediapipe_us), "run_us": median(figures("single", "run_us")),
                     "segment_us": median(figures("single", "segment_us")), "invoke_us": median(invoke_us),
                     "mask_us": median(mask_us), "mask_share": median(shares), "mask": [width, height],
                     "rounds": results})
        goals.append(benchlib.goal(
            f"{name}: segment per photo at least {MIN_OVER_MEDIAPIPE}x faster than MediaPipe's ImageSegmenter, each with its default threads",
            ratios(mediapipe_us, photo_us), MIN_OVER_MEDIAPIPE,
            detail=f"TensorIO {describe(photo_us, ms)} ({cores} threads), MediaPipe {describe(mediapipe_us, ms)} (1 thread)"))
        references.append(f"{name}: on one thread each: TensorIO {ms(median(single_us))}, MediaPipe {ms(median(mediapipe_us))} "
                          f"({median(ratios(mediapipe_us, single_us)):.2f}x, the median of the rounds)")
        goals.append(benchlib.goal(
            f"{name}: the mask on the {width}x{height} photo at most {MAX_MASK_SHARE:.0%} of the model's invoke",
            shares, MAX_MASK_SHARE, at_least=False, show=lambda v: f"{v:.1%}",
            detail=f"+{describe(mask_us, lambda v: f'{v:.0f} µs')} against a {describe(invoke_us, lambda v: f'{v:.0f} µs')} invoke (one thread)"))

    with tempfile.TemporaryDirectory() as folder:
        sources = sorted(os.path.join(PHOTOS, f) for f in os.listdir(PHOTOS) if f.endswith(".jpg"))
        benchlib.copy_round_robin(sources, SIMILAR_PHOTOS, folder)
        command = [tensorio, "similar", EMBEDDER, os.path.join(PHOTOS, "cat.jpg"), folder, "--json"]
        goals.append(benchlib.jobs_goal("similar", command, SIMILAR_PHOTOS, arguments.repeats, MIN_JOBS_SCALING))

    print(f"\nmedians of {arguments.repeats} rounds")
    print("model              TensorIO/photo  (one thread)  MediaPipe/photo  invoke    mask adds (one thread)")
    for row in rows:
        print(f"{row['model']:18} {row['tensorio_photo_us'] / 1000:11.2f} ms {row['tensorio_one_thread_photo_us'] / 1000:9.2f} ms"
              f" {row['mediapipe_photo_us'] / 1000:13.2f} ms {row['invoke_us'] / 1000:7.2f} ms  {row['mask_us']:.0f} µs ({row['mask_share']:.1%})")
    benchlib.report("segmentation", goals, references, {"rows": rows}, packages=("mediapipe", "numpy"))


if __name__ == "__main__":
    main()
