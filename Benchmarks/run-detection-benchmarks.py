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
                of the input's size.
  --jobs        `tensorio detect --jobs 2` over 100 photos against `--jobs 1 --threads 1`, process start to the
                last printed result (the five Task Library photos, copied round robin).
Each measurement is repeated --repeats times, interleaved; the figures are medians. Prints the table and
the goals with PASS/FAIL, writes bench-results/detection.json, and exits 0 whatever the outcome."""
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--python", default=os.path.join(ROOT, ".venv-mediapipe", "bin", "python"))
    arguments = parser.parse_args()
    benchmark = os.path.join(ROOT, "Benchmarks", ".build", "release", "detection-benchmark")
    tensorio = os.path.join(ROOT, ".build", "release", "tensorio")

    rows, goals, references = [], [], []
    for name, model, extra, task, photo in CASES:
        ours, single, theirs = [], [], []
        cores = str(os.cpu_count() or 1)
        for repeat in range(arguments.repeats):
            ours.append(run_json([benchmark, model, photo, str(arguments.runs), "--threads", cores] + extra))
            single.append(run_json([benchmark, model, photo, str(arguments.runs), "--threads", "1"] + extra))
            theirs.append(run_json([arguments.python, os.path.join(HERE, "python", "detect_mediapipe.py"), task, model, photo, str(arguments.runs)]))
            print(f"[{name}] repeat {repeat + 1}/{arguments.repeats}: TensorIO {ours[-1]['photo_us']:.0f} µs ({single[-1]['photo_us']:.0f} µs on one thread), MediaPipe {theirs[-1]['photo_us']:.0f} µs")
        single_us = statistics.median(r["photo_us"] for r in single)
        photo_us = statistics.median(r["photo_us"] for r in ours)
        mediapipe_us = statistics.median(r["photo_us"] for r in theirs)
        run_us = statistics.median(r["run_us"] for r in ours)
        detect_us = statistics.median(r["detect_us"] for r in ours)
        added = max(0.0, detect_us - run_us)
        rows.append({"model": name, "tensorio_photo_us": photo_us, "tensorio_one_thread_photo_us": single_us,
                     "mediapipe_photo_us": mediapipe_us, "run_us": run_us,
                     "detect_us": detect_us, "detections": [ours[-1]["detections"], theirs[-1]["detections"]]})
        speedup = mediapipe_us / photo_us
        goals.append((f"{name}: detect per photo at least {MIN_OVER_MEDIAPIPE}x faster than MediaPipe's Python Tasks API, each with its default threads",
                      speedup >= MIN_OVER_MEDIAPIPE, f"TensorIO {photo_us / 1000:.2f} ms ({cores} threads), MediaPipe {mediapipe_us / 1000:.2f} ms (1 thread) ({speedup:.2f}x)"))
        references.append(f"{name}: on one thread each: TensorIO {single_us / 1000:.2f} ms, MediaPipe {mediapipe_us / 1000:.2f} ms ({mediapipe_us / single_us:.2f}x)")
        goals.append((f"{name}: decoding and suppression at most {MAX_DETECTION_SHARE:.0%} of the run",
                      added <= MAX_DETECTION_SHARE * run_us, f"+{added:.1f} µs on a {run_us:.0f} µs run ({added / run_us:.2%})"))

    with tempfile.TemporaryDirectory() as folder:
        sources = [os.path.join(VISION, f) for f in ("cats_and_dogs.jpg", "multi_objects.jpg", "burger.jpg",
                                                      "cats_and_dogs_rotation180.jpg", "burger_rotation180.jpg")]
        photos = []
        for index in range(100):
            path = os.path.join(folder, f"photo{index:03}.jpg")
            shutil.copyfile(sources[index % len(sources)], path)
            photos.append(path)
        goals.append(jobs_goal("detect", [tensorio, "detect", CASES[1][1], *photos, "--json"], len(photos), arguments.repeats, MIN_JOBS_SCALING))

    print("\nmodel                  TensorIO/photo  (one thread)  MediaPipe/photo  run      detection adds")
    for row in rows:
        print(f"{row['model']:22} {row['tensorio_photo_us'] / 1000:11.2f} ms {row['tensorio_one_thread_photo_us'] / 1000:9.2f} ms"
              f" {row['mediapipe_photo_us'] / 1000:13.2f} ms {row['run_us'] / 1000:7.2f} ms  {max(0, row['detect_us'] - row['run_us']):.1f} µs")
    report(goals, references, "detection", rows)


if __name__ == "__main__":
    main()
