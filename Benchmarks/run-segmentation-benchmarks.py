"""Segmentation and embeddings, side by side in one run (issue 28, point 6; `make bench-segmentation`).

  per photo     segmentation-benchmark (TensorIO: decode the JPEG file, segment: the category mask on the
                photo) against MediaPipe 0.10.21's Python Tasks API (mp.Image.create_from_file, then
                ImageSegmenter.segment with the category mask only), warm, on the same model and photo:
                MediaPipe's selfie segmenter on Examples/photos/grace_hopper.jpg, and DeepLab v3 on the Task
                Library's segmentation_input_rotation0.jpg. Each with its default threads, as `tensorio
                segment` runs one photo (--threads = the cores) and as MediaPipe's Python Tasks API runs
                (one inference thread; it offers no setting). One thread each is printed as a reference line.
  mask          what the mask adds to a run on the photo (activation, confidences resized onto the photo,
                argmax per pixel), against the model's invoke (a run on a photo already of the input's size).
  --jobs        `tensorio similar` over 200 photos with `--jobs 2` against `--jobs 1 --threads 1`, process
                start to the printed ranking, with Examples/efficientnet-lite0-embedding.tiobundle (the
                Examples photos copied round robin).
Each measurement is repeated --repeats times, interleaved; the figures are medians. Prints the table and
the goals with PASS/FAIL, writes bench-results/segmentation.json, and exits 0 whatever the outcome."""
import argparse
import os
import sys
import shutil
import statistics
import tempfile

from side_by_side import jobs_goal, report, run_json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--python", default=os.path.join(ROOT, ".venv-mediapipe", "bin", "python"))
    arguments = parser.parse_args()
    benchmark = os.path.join(ROOT, "Benchmarks", ".build", "release", "segmentation-benchmark")
    tensorio = os.path.join(ROOT, ".build", "release", "tensorio")

    rows, goals, references = [], [], []
    cores = str(os.cpu_count() or 1)
    for name, model, photo in CASES:
        ours, single, theirs = [], [], []
        for repeat in range(arguments.repeats):
            ours.append(run_json([benchmark, model, photo, str(arguments.runs), "--threads", cores]))
            single.append(run_json([benchmark, model, photo, str(arguments.runs), "--threads", "1"]))
            theirs.append(run_json([arguments.python, os.path.join(HERE, "python", "segment_mediapipe.py"), model, photo, str(arguments.runs)]))
            print(f"[{name}] repeat {repeat + 1}/{arguments.repeats}: TensorIO {ours[-1]['photo_us']:.0f} µs ({single[-1]['photo_us']:.0f} µs on one thread), MediaPipe {theirs[-1]['photo_us']:.0f} µs")
        if (ours[-1]["width"], ours[-1]["height"]) != (theirs[-1]["width"], theirs[-1]["height"]):
            raise SystemExit(f"{name}: the masks differ in size: TensorIO {ours[-1]['width']}x{ours[-1]['height']}, MediaPipe {theirs[-1]['width']}x{theirs[-1]['height']}")
        photo_us = statistics.median(r["photo_us"] for r in ours)
        single_us = statistics.median(r["photo_us"] for r in single)
        mediapipe_us = statistics.median(r["photo_us"] for r in theirs)
        # The mask's share is measured on one thread: the invoke it is set against is then not shortened by
        # the second core, while the mask's own work never used it.
        run_us = statistics.median(r["run_us"] for r in single)
        segment_us = statistics.median(r["segment_us"] for r in single)
        invoke_us = statistics.median(r["invoke_us"] for r in single)
        mask_us = max(0.0, segment_us - run_us)
        rows.append({"model": name, "tensorio_photo_us": photo_us, "tensorio_one_thread_photo_us": single_us,
                     "mediapipe_photo_us": mediapipe_us, "run_us": run_us, "segment_us": segment_us,
                     "invoke_us": invoke_us, "mask": [int(ours[-1]["width"]), int(ours[-1]["height"])]})
        speedup = mediapipe_us / photo_us
        goals.append((f"{name}: segment per photo at least {MIN_OVER_MEDIAPIPE}x faster than MediaPipe's ImageSegmenter, each with its default threads",
                      speedup >= MIN_OVER_MEDIAPIPE, f"TensorIO {photo_us / 1000:.2f} ms ({cores} threads), MediaPipe {mediapipe_us / 1000:.2f} ms (1 thread) ({speedup:.2f}x)"))
        references.append(f"{name}: on one thread each: TensorIO {single_us / 1000:.2f} ms, MediaPipe {mediapipe_us / 1000:.2f} ms ({mediapipe_us / single_us:.2f}x)")
        goals.append((f"{name}: the mask on the {ours[-1]['width']:.0f}x{ours[-1]['height']:.0f} photo at most {MAX_MASK_SHARE:.0%} of the model's invoke",
                      mask_us <= MAX_MASK_SHARE * invoke_us, f"+{mask_us:.0f} µs against a {invoke_us:.0f} µs invoke ({mask_us / invoke_us:.1%}, one thread)"))

    with tempfile.TemporaryDirectory() as folder:
        sources = sorted(os.path.join(PHOTOS, f) for f in os.listdir(PHOTOS) if f.endswith(".jpg"))
        for index in range(SIMILAR_PHOTOS):
            shutil.copyfile(sources[index % len(sources)], os.path.join(folder, f"photo{index:03}.jpg"))
        command = [tensorio, "similar", EMBEDDER, os.path.join(PHOTOS, "cat.jpg"), folder, "--json"]
        goals.append(jobs_goal("similar", command, SIMILAR_PHOTOS, arguments.repeats, MIN_JOBS_SCALING))

    print("\nmodel              TensorIO/photo  (one thread)  MediaPipe/photo  invoke    mask adds (one thread)")
    for row in rows:
        print(f"{row['model']:18} {row['tensorio_photo_us'] / 1000:11.2f} ms {row['tensorio_one_thread_photo_us'] / 1000:9.2f} ms"
              f" {row['mediapipe_photo_us'] / 1000:13.2f} ms {row['invoke_us'] / 1000:7.2f} ms  {max(0, row['segment_us'] - row['run_us']):.0f} µs")
    report(goals, references, "segmentation", rows)


if __name__ == "__main__":
    main()
