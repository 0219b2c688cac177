"""Detection, side by side in one run (issue 27, point 6; run it with `make bench-detection`).

  per photo     detection-benchmark (TensorIO: decode the JPEG file, detect) against MediaPipe 0.10.21's Python
                Tasks API (mp.Image.create_from_file, then FaceDetector / ObjectDetector.detect), warm, on the
                same model and photo: BlazeFace short range on Examples/photos/grace_hopper.jpg, and the COCO
                SSD on the Task Library's cats_and_dogs.jpg. Each with its default: TensorIO as `tensorio
                detect` runs one photo (one run with every core: --threads = the cores), MediaPipe with the
                one inference thread its Python Tasks API uses (it offers no thread setting; measured: the
                same time pinned to one core). The same comparison on one thread each is printed beside it,
                as a reference line: there the model's own invoke (the same XNNPACK kernels) is most of both.
  detection     what detection adds to a run (decoding the outputs, suppression, mapping onto the photo),
                against the run itself (writing the tensor, invoking, reading the outputs), on a photo already
                of the input's size: detect − run iteration by iteration in detection-benchmark, the median.
  --jobs        `tensorio detect --jobs 2` over 100 photos against `--jobs 1 --threads 1`, process start to the
                last printed result (the five Task Library photos, copied round robin).
Each measurement is a process of its own, repeated --repeats times, the order turning each round (benchlib's
alternate); each goal is decided on the median of its per-round figures and printed with their range.
Prints the table and the goals with PASS/FAIL, writes bench-results/detection.json, and exits 0 whatever the
outcome."""
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

MIN_OVER_MEDIAPIPE = 1.5
MAX_DETECTION_SHARE = 0.05
MIN_JOBS_SCALING = 1.8

CASES = [
    # name, model, TensorIO's extra arguments, MediaPipe's task, photo
    ("BlazeFace short range", os.path.join(MODULES, "face_detection", "face_detection_short_range.tflite"),
     ["--detector", "blazeface-short-range"], "face", os.path.join(ROOT, "Examples", "photos", "grace_hopper.jpg")),
    ("COCO SSD", os.path.join(VISION, "coco_ssd_mobilenet_v1_1.0_quant_2018_06_29.tflite"), [], "object",
     os.path.join(VISION, "cats_and_dogs.jpg")),
]


def main():
    arguments = benchlib.mediapipe_arguments(__doc__.splitlines()[0], 200, "timed iterations per process")
    benchmark = benchlib.program("detection-benchmark")

    rows, goals, references = [], [], []
    cores = str(os.cpu_count() or 1)
    for name, model, extra, task, photo in CASES:
        runs = str(arguments.runs)
        commands = {"ours": [benchmark, model, photo, runs, "--threads", cores] + extra,
                    "single": [benchmark, model, photo, runs, "--threads", "1"] + extra,
                    "theirs": [arguments.python, os.path.join(HERE, "python", "detect_mediapipe.py"), task, model, photo, runs]}
        results = benchlib.alternate_json(
            commands, arguments.repeats, label=name,
            show=lambda r: (f"TensorIO {r['ours']['photo_us']:.0f} µs ({r['single']['photo_us']:.0f} µs on one thread), "
                            f"MediaPipe {r['theirs']['photo_us']:.0f} µs"))
        ours, theirs = results["ours"], results["theirs"]
        row, speed, reference = benchlib.per_photo(name, "detect", results, MIN_OVER_MEDIAPIPE, "MediaPipe's Python Tasks API")
        run_us, added_us = figures(ours, "run_us"), figures(ours, "added_us")
        row.update({"run_us": median(run_us), "detect_us": median(figures(ours, "detect_us")), "added_us": median(added_us),
                    "detections": [ours[-1]["detections"], theirs[-1]["detections"]]})
        rows.append(row)
        goals.append(speed)
        references.append(reference)
        goals.append(benchlib.goal(
            f"{name}: decoding and suppression at most {MAX_DETECTION_SHARE:.0%} of the run",
            ratios(added_us, run_us), MAX_DETECTION_SHARE, at_least=False, show=lambda v: f"{v:.2%}",
            detail=f"{describe(added_us, lambda v: f'{v:+.1f} µs')} on a {describe(run_us, lambda v: f'{v:.0f} µs')} run"))

    with tempfile.TemporaryDirectory() as folder:
        sources = [os.path.join(VISION, f) for f in ("cats_and_dogs.jpg", "multi_objects.jpg", "burger.jpg",
                                                      "cats_and_dogs_rotation180.jpg", "burger_rotation180.jpg")]
        photos = benchlib.copy_round_robin(sources, 100, folder)
        goals.append(benchlib.jobs_goal("detect", [benchlib.TENSORIO, "detect", CASES[1][1], *photos, "--json"], len(photos),
                                        arguments.repeats, MIN_JOBS_SCALING))

    benchlib.print_photo_table(rows, arguments.repeats, "run      detection adds",
                               lambda row: f"{ms(row['run_us']):>8} {row['added_us']:+.1f} µs")
    benchlib.report("detection", goals, references, {"rows": rows}, packages=("mediapipe", "numpy"))


if __name__ == "__main__":
    main()
