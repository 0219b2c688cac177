"""Training your own classifier, side by side in one run (issue 40, point 4; run it with `make
bench-classifier-training`).

  the work      the 28 gesture photos of the test data (scripts/testdata.py: task-data/gestures/, 7 each of
                call, four, none and rock), copied into a temporary folder per class: each photo's features
                from a base model, a softmax regression trained on them, and the trained classifier written.
  TensorIO      tensorio train-classifier Examples/efficientnet-lite0-embedding.tiobundle --class call=DIR/call
                --class four=DIR/four --class none=DIR/none --class rock=DIR/rock --output TMP/mine-N.tiobundle
                --json (the release tool, make build-tool; a new output bundle every run).
  Python        Benchmarks/python/train_classifier_reference.py with the same bundle, classes and photos, in
                .venv-bench: each photo decoded with Pillow (upright), stretched to 224x224 with Pillow's
                bilinear resize, normalized to [-1,1] and run through the bundle's model.tflite by
                ai_edge_litert's Interpreter (its default threads), then StandardScaler +
                LogisticRegression(max_iter=1000) from scikit-learn 1.9.1, and the head written with np.savez.
  goal          each side timed as a whole process, start to exit (Python's imports included: TensorIO's
                side is a whole process too); TensorIO at least 1.5x faster, decided on the median of the
                rounds' Python/TensorIO ratios. Python's own in-process time (the model loaded, the photos
                embedded, the fit and the write, without its imports) is printed as a reference line, with
                the split of its time, and both sides' training accuracy.
  hand          a reference line, not a goal: the same with a hand landmarker base, a bundle made for the run
                by `tensorio init palm_detection_full.tflite hand_landmark_full.tflite --landmarker hand` from
                the pinned mediapipe wheel's models (.build/zoo/mediapipe-modules/, make setup-zoo), against
                the same script with --hand in .venv-mediapipe (MediaPipe 0.10.21's Hands on the same models,
                the first hand's 63 world-landmark features, photos without a hand skipped, the same fit).
                --no-hand leaves it out.
Each side runs once untimed (the file cache, Python's bytecode), then --repeats rounds, the order turning each
round (benchlib's alternate). Stops with one line when the tool is missing or a command fails. Prints the
goal with PASS/FAIL, writes bench-results/classifier-training.json, and exits 0 whatever the outcome."""
import argparse
import itertools
import os
import shutil
import subprocess
import sys
import tempfile

import benchlib
from benchlib import ROOT, HERE, describe, figures, median, ratios, relative

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import testdata  # noqa: E402  (the test data's manifest and cache: make test-data)

EMBEDDER = os.path.join(ROOT, "Examples", "efficientnet-lite0-embedding.tiobundle")
MODULES = os.path.join(ROOT, ".build", "zoo", "mediapipe-modules")
DETECTOR = os.path.join(MODULES, "palm_detection", "palm_detection_full.tflite")
LANDMARKS = os.path.join(MODULES, "hand_landmark", "hand_landmark_full.tflite")
SCRIPT = os.path.join(HERE, "python", "train_classifier_reference.py")
GESTURES = "task-data/gestures/"
CLASSES = ["call", "four", "none", "rock"]
PHOTOS = 28
MIN_OVER_PYTHON = 1.5


def seconds(value):
    return f"{value:.2f} s"


def copy_photos(folder):
    """FOLDER/LABEL/ with the gesture photos of each class (copies of the test-data cache's files)."""
    names = sorted(name for name in testdata.load_manifest() if name.startswith(GESTURES))
    for label in CLASSES:
        os.makedirs(os.path.join(folder, label))
    for name in names:
        label = name[len(GESTURES):].split("/", 1)[0]
        if label not in CLASSES:
            raise SystemExit(f"{name}: a gesture photo outside the classes {CLASSES}")
        shutil.copyfile(testdata.path(name), os.path.join(folder, label, os.path.basename(name)))
    if len(names) != PHOTOS:
        raise SystemExit(f"expected {PHOTOS} gesture photos in the test data, found {len(names)}")
    return [f"{label}={os.path.join(folder, label)}" for label in CLASSES]


def make_hand_bundle(tensorio, folder):
    """`tensorio init DETECTOR LANDMARKS --landmarker hand -o FOLDER/hand.tiobundle`; its path."""
    for model in (DETECTOR, LANDMARKS):
        if not os.path.isfile(model):
            raise SystemExit(f"{relative(model)} is missing: make setup-zoo (or run with --no-hand)")
    bundle = os.path.join(folder, "hand.tiobundle")
    done = subprocess.run([tensorio, "init", DETECTOR, LANDMARKS, "--landmarker", "hand", "-o", bundle],
                          capture_output=True, text=True)
    if done.returncode != 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        raise SystemExit(f"tensorio init … --landmarker hand exited {done.returncode}: {tail[-600:]}")
    return bundle


def checked(side, result, used):
    """The result of one run, after checking that it trained on `used` photos of the four classes."""
    classes = {entry["label"]: entry for entry in result.get("classes", [])}
    if side == "tensorio":
        count = sum(entry.get("used", 0) for entry in classes.values())
        accuracy = (result.get("training") or {}).get("accuracy")
    else:
        count, accuracy = result.get("photos"), result.get("training_accuracy")
    if sorted(classes) != CLASSES or count != used or accuracy is None:
        raise SystemExit(f"{side}: expected a classifier of {CLASSES} trained on {used} photos, got {result}")
    return result


def compare(label, commands, rounds, used):
    """Both sides, alternating; every run's result, checked. A fresh output folder each run."""
    counters = {side: itertools.count(1) for side in commands}

    def run(side):
        command, output, tail = commands[side]
        path = f"{output}-{next(counters[side])}" + (".tiobundle" if side == "tensorio" else "")
        return checked(side, benchlib.run_json(command + ["--output", path] + tail), used[side])

    return benchlib.alternate({side: (lambda side=side: run(side)) for side in commands}, rounds, label=label,
                              show=lambda r: f"TensorIO {seconds(r['tensorio']['wall_s'])}, Python "
                                             f"{seconds(r['python']['wall_s'])} ({r['python']['in_process_ms']:.0f} ms "
                                             f"in process)")


def accuracy_of(side, results):
    values = [r["training"]["accuracy"] if side == "tensorio" else r["training_accuracy"] for r in results]
    return min(values), max(values)


def main():
    parser = argparse.ArgumentParser(
        description="tensorio train-classifier against ai_edge_litert + scikit-learn, side by side (issue 40).")
    parser.add_argument("--repeats", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--tensorio", default=benchlib.TENSORIO, help="the release tool (make build-tool)")
    parser.add_argument("--python", default=os.path.join(ROOT, ".venv-bench", "bin", "python"),
                        help="the Python of Benchmarks/python/requirements.txt (make bench-venv)")
    parser.add_argument("--mediapipe-python", default=os.path.join(ROOT, ".venv-mediapipe", "bin", "python"),
                        help="the Python of scripts/fixtures/mediapipe-requirements.txt (make setup-mediapipe)")
    parser.add_argument("--no-hand", action="store_true", help="leave out the hand landmarker reference line")
    arguments = parser.parse_args()
    if arguments.repeats < 1:
        parser.error("--repeats must be at least 1")
    pythons = [arguments.python] + ([] if arguments.no_hand else [arguments.mediapipe_python])
    for program, how in [(arguments.tensorio, "make build-tool")] + [(p, "make bench-venv / make setup-mediapipe")
                                                                    for p in pythons]:
        if not os.access(program, os.X_OK):
            raise SystemExit(f"{relative(program)} is missing: {how}")

    goals, references = [], []
    data = {"settings": {"repeats": arguments.repeats, "photos": PHOTOS, "classes": CLASSES,
                         "base": relative(EMBEDDER)}}
    with tempfile.TemporaryDirectory() as folder:
        pairs = copy_photos(os.path.join(folder, "photos"))
        classes = [part for pair in pairs for part in ("--class", pair)]
        commands = {
            "tensorio": ([arguments.tensorio, "train-classifier", EMBEDDER, *classes], os.path.join(folder, "mine"),
                         ["--json"]),
            "python": ([arguments.python, SCRIPT, EMBEDDER, *classes], os.path.join(folder, "theirs"), []),
        }
        data["commands"] = {
            side: " ".join((relative(part) if part.startswith(ROOT) else part).replace(folder, "TMP") for part in
                           command + ["--output", output + ("-N.tiobundle" if side == "tensorio" else "-N")] + tail)
            for side, (command, output, tail) in commands.items()}
        runs = compare("embedding", commands, arguments.repeats, {"tensorio": PHOTOS, "python": PHOTOS})
        ours, theirs = figures(runs["tensorio"], "wall_s"), figures(runs["python"], "wall_s")
        in_process = [r["in_process_ms"] / 1e3 for r in runs["python"]]
        goals.append(benchlib.goal(
            f"embedding, training and writing the classifier for the {PHOTOS} photos at least {MIN_OVER_PYTHON}x "
            f"faster than Python (ai_edge_litert + scikit-learn), each a whole process",
            ratios(theirs, ours), MIN_OVER_PYTHON,
            detail=f"TensorIO {describe(ours, seconds)}, Python {describe(theirs, seconds)} (process start to exit)"))
        parts = {key: median([r[f"{key}_ms"] for r in runs["python"]]) for key in
                 ("imports", "load", "features", "fitting", "writing")}
        references.append(
            f"Python in process, without its imports: {describe(in_process, seconds)}, "
            f"{median(ratios(in_process, ours)):.2f}x TensorIO's whole process (the median of the rounds). "
            f"Python's split (medians): imports {parts['imports']:.0f} ms, model {parts['load']:.0f} ms, {PHOTOS} "
            f"photos embedded {parts['features']:.0f} ms, fit {parts['fitting']:.0f} ms, "
            f"write {parts['writing']:.1f} ms")
        low, high = accuracy_of("tensorio", runs["tensorio"])
        p_low, p_high = accuracy_of("python", runs["python"])
        references.append(f"training accuracy on the {PHOTOS} photos: TensorIO {low:.3f}–{high:.3f} "
                          f"({runs['tensorio'][-1].get('epochs')} epochs), Python {p_low:.3f}–{p_high:.3f}")
        data["embedding"] = {"tensorio_s": ours, "python_s": theirs, "python_in_process_s": in_process,
                             "python_over_tensorio": ratios(theirs, ours), "rounds": runs}

        if not arguments.no_hand:
            bundle = make_hand_bundle(arguments.tensorio, folder)
            hand = {
                "tensorio": ([arguments.tensorio, "train-classifier", bundle, *classes],
                             os.path.join(folder, "hand-mine"), ["--json"]),
                "python": ([arguments.mediapipe_python, SCRIPT, bundle, "--hand", *classes],
                           os.path.join(folder, "hand-theirs"), []),
            }
            # The photos with a hand: what MediaPipe finds (25 of the 28 with these models); TensorIO must
            # use as many.
            probe = benchlib.run_json(hand["python"][0] + ["--output", os.path.join(folder, "hand-probe")])
            runs = compare("hand", hand, arguments.repeats, {"tensorio": probe["photos"], "python": probe["photos"]})
            ours, theirs = figures(runs["tensorio"], "wall_s"), figures(runs["python"], "wall_s")
            in_process = [r["in_process_ms"] / 1e3 for r in runs["python"]]
            references.append(
                f"hand landmarker base ({probe['photos']} of the {PHOTOS} photos with a hand): TensorIO "
                f"{describe(ours, seconds)}, Python (MediaPipe's Hands + scikit-learn) {describe(theirs, seconds)}, "
                f"{median(ratios(theirs, ours)):.2f}x (whole processes; Python in process "
                f"{describe(in_process, seconds)})")
            data["hand"] = {"photos": probe["photos"], "tensorio_s": ours, "python_s": theirs,
                            "python_in_process_s": in_process, "python_over_tensorio": ratios(theirs, ours),
                            "rounds": runs}

    benchlib.report("classifier-training", goals, references, data, heading="Goals (issue 40, point 4)",
                    packages=("numpy", "pillow", "ai-edge-litert", "scikit-learn"))


if __name__ == "__main__":
    main()
