"""Python's side of run-classifier-training-benchmarks.py (issue 40, point 4): what `tensorio train-classifier`
does, the way it is done in Python — features from a base model, then scikit-learn's softmax regression.

  train_classifier_reference.py BASE --class LABEL=FOLDER [--class LABEL=FOLDER ...] --output FOLDER [--hand]

BASE is an image embedder bundle (Examples/efficientnet-lite0-embedding.tiobundle), run in .venv-bench
(Benchmarks/python/requirements.txt):
  each photo of each FOLDER (its files, sorted by name) is decoded with Pillow and turned upright
  (ImageOps.exif_transpose), converted to RGB, stretched to the model's input (the bundle's model.json:
  224x224) with Pillow's bilinear resize, normalized to [-1,1] as (x - 127.5) / 127.5, and run through
  the bundle's model.tflite with ai_edge_litert's Interpreter (its default threads; the serving_default
  signature): one embedding per photo.
With --hand, BASE is a hand landmarker bundle made by `tensorio init palm_detection_full.tflite
hand_landmark_full.tflite --landmarker hand`, run in .venv-mediapipe (scripts/fixtures/mediapipe-requirements.txt):
  MediaPipe 0.10.21's mp.solutions.hands.Hands(static_image_mode=True, max_num_hands=2, model_complexity=1,
  min_detection_confidence=0.5) on each upright RGB photo (the wheel's own models: the bundle's two .tflite
  files must be byte for byte those, or the script stops), and the 63 world-landmark features of the first
  hand (Tests/Fixtures/ClassifierTraining/README.md); a photo without a hand is skipped.
Then, on every photo's features: make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)) fitted
on all of them, and the trained head written to FOLDER/head.npz (np.savez: mean, scale, coef, intercept,
classes). Prints one JSON line: the photos, the classes, the training accuracy, and its own timings in ms:
imports (from the start of this file to the end of its imports), load (the model), features (every photo
decoded, prepared and run), fitting, writing, and in_process (load to written: everything but the
imports). The runner times the whole process as well."""
import time

STARTED = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402
from PIL import Image, ImageOps  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Benchmarks/, for benchlib
import benchlib  # noqa: E402

EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff", ".webp")


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the base bundle: an image embedder, or with --hand a hand landmarker")
    parser.add_argument("--class", dest="classes", action="append", required=True, metavar="LABEL=FOLDER")
    parser.add_argument("--output", required=True, help="the folder the trained head is written to")
    parser.add_argument("--hand", action="store_true", help="BASE is a hand landmarker bundle (MediaPipe's Hands)")
    args = parser.parse_args()
    classes = []
    for pair in args.classes:
        label, _, folder = pair.partition("=")
        if not label or not folder:
            parser.error(f"--class {pair}: expected LABEL=FOLDER")
        photos = sorted(os.path.join(folder, name) for name in os.listdir(folder)
                        if name.lower().endswith(EXTENSIONS) and not name.startswith("."))
        if not photos:
            parser.error(f"--class {pair}: no photos in {folder}")
        classes.append((label, photos))
    return args, classes


def upright_rgb(path):
    with Image.open(path) as image:
        return ImageOps.exif_transpose(image).convert("RGB")


class Embedder:
    """The embedder bundle's model through ai_edge_litert, its input prepared as its model.json says."""

    def __init__(self, bundle):
        from ai_edge_litert.interpreter import Interpreter

        with open(os.path.join(bundle, "model.json")) as f:
            spec = json.load(f)
        image = spec["inputs"][0]
        if (image.get("resize"), image.get("normalize")) != ("stretch", {"standard": "[-1,1]"}):
            raise SystemExit(f"{bundle}: expected a stretched image input normalized to [-1,1], found {image}")
        self.height, self.width = image["shape"][:2]
        self.input, self.output = image["name"], spec["embedding"]["output"]
        interpreter = Interpreter(model_path=os.path.join(bundle, spec["model"]["file"]))
        self.runner = interpreter.get_signature_runner()

    def __call__(self, path):
        pixels = np.asarray(upright_rgb(path).resize((self.width, self.height), Image.BILINEAR), dtype=np.float32)
        tensor = ((pixels - 127.5) / 127.5)[np.newaxis]
        return self.runner(**{self.input: tensor})[self.output][0].astype(np.float32)

    def close(self):
        pass


class HandFeatures:
    """MediaPipe's Hands on the wheel's models (the bundle's, checked), and the first hand's 63 world-landmark
    features: LandmarksToMatrixCalculator's NormalizeObject (origin 0) on the world landmarks, in float32."""

    def __init__(self, bundle):
        import filecmp

        import mediapipe as mp

        modules = os.path.join(os.path.dirname(mp.__file__), "modules")
        with open(os.path.join(bundle, "model.json")) as f:
            landmarks = json.load(f)["model"]["file"]
        with open(os.path.join(bundle, "detector.tiobundle", "model.json")) as f:
            detector = json.load(f)["model"]["file"]
        pairs = [(os.path.join(bundle, "detector.tiobundle", detector), "palm_detection/palm_detection_full.tflite"),
                 (os.path.join(bundle, landmarks), "hand_landmark/hand_landmark_full.tflite")]
        for given, own in pairs:
            if not filecmp.cmp(given, os.path.join(modules, own), shallow=False):
                raise SystemExit(f"{given} is not the wheel's {own}: the two sides would run different models")
        self.hands = mp.solutions.hands.Hands(static_image_mode=True, max_num_hands=2, model_complexity=1,
                                              min_detection_confidence=0.5)

    def __call__(self, path):
        rgb = np.ascontiguousarray(np.asarray(upright_rgb(path), dtype=np.uint8))
        result = self.hands.process(rgb)
        if not result.multi_hand_world_landmarks:
            return None
        points = np.array([[p.x, p.y, p.z] for p in result.multi_hand_world_landmarks[0].landmark], dtype=np.float32)
        relative = points - points[0]
        scale = np.float32(max(np.ptp(relative[:, 0]), np.ptp(relative[:, 1]))) + np.float32(1e-5)
        return (relative / scale).reshape(-1).astype(np.float32)

    def close(self):
        self.hands.close()


def main():
    imported = time.perf_counter()
    args, classes = arguments()
    start = time.perf_counter()
    model = (HandFeatures if args.hand else Embedder)(args.base)
    loaded = time.perf_counter()
    features, labels, skipped, counts = [], [], [], []
    for label, photos in classes:
        used = 0
        for path in photos:
            vector = model(path)
            if vector is None:
                skipped.append(path)
                continue
            features.append(vector)
            labels.append(label)
            used += 1
        counts.append({"label": label, "photos": len(photos), "used": used})
    model.close()
    embedded = time.perf_counter()
    x, y = np.stack(features), np.array(labels)
    classifier = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(x, y)
    accuracy = float(classifier.score(x, y))
    fitted = time.perf_counter()
    scaler, regression = classifier[0], classifier[-1]
    os.makedirs(args.output, exist_ok=True)
    np.savez(os.path.join(args.output, "head.npz"), mean=scaler.mean_, scale=scaler.scale_, coef=regression.coef_,
             intercept=regression.intercept_, classes=regression.classes_)
    written = time.perf_counter()
    benchlib.emit({
        "base": "hand" if args.hand else "embedding", "output": args.output, "photos": len(features),
        "features": int(x.shape[1]), "classes": counts, "skipped": skipped, "training_accuracy": accuracy,
        "iterations": int(np.max(regression.n_iter_)),
        "imports_ms": (imported - STARTED) * 1e3, "load_ms": (loaded - start) * 1e3,
        "features_ms": (embedded - loaded) * 1e3, "fitting_ms": (fitted - embedded) * 1e3,
        "writing_ms": (written - fitted) * 1e3, "in_process_ms": (written - start) * 1e3})


if __name__ == "__main__":
    main()
