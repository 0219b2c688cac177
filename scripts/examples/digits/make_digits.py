#!/usr/bin/env python3
"""Build the ``Examples/digits`` example: a labelled image folder and two
small digit classifiers (float32 and full-integer uint8 TensorFlow Lite
bundles) for ``tensorio eval BUNDLE DIR``.

Data: scikit-learn's bundled copy of the UCI "Optical Recognition of
Handwritten Digits" test set (``sklearn.datasets.load_digits()``: 1797 8x8
images, pixel values 0..16, labels 0..9).  Nothing is downloaded.

Steps:

1. Scale every image to 8-bit (``round(value * 255 / 16)``) and split the
   set with a fixed seed, stratified by label, into 1437 training and 360
   held-out test images.
2. Write the held-out images as 8-bit grayscale PNGs to
   ``test-images/<label>/<sklearn index>.png``.
3. Train a small Keras CNN (input ``image`` 8x8x1 float = pixel / 255,
   output ``digit`` = softmax over 10) on the training images, using exactly
   the values the PNGs decode to.
4. Convert it to a float32 .tflite and to a full-integer uint8 .tflite
   (uint8 input = raw pixel bytes, uint8 output) and write the bundles
   ``digits-float32.tiobundle`` and ``digits-uint8.tiobundle``.
5. Evaluate both .tflite files with the LiteRT interpreter on the PNG files
   as written (decoded with Pillow, prepared as each model.json says), print
   top-1 / top-3 accuracy and the confusion matrix, and write the numbers to
   ``expected-accuracy.json``.

Usage (from the repository root)::

    python3 -m venv .venv-examples
    .venv-examples/bin/pip install -r scripts/examples/digits/requirements.txt
    .venv-examples/bin/python scripts/examples/digits/make_digits.py [--out DIR]

``--out`` defaults to ``Examples/digits`` (relative to the repository root,
computed from this file's location).  The files this script writes
(``test-images/``, the two bundles and ``expected-accuracy.json``) are
deleted and rewritten; anything else there (README.md) is left alone.

The run is deterministic: fixed seeds, single-threaded TensorFlow ops with op
determinism enabled, oneDNN rewrites off.  Two runs on the same platform
write byte-identical files.  The script exits non-zero if a check fails
(PNG round trip, tensor names, quantization parameters, accuracy floor).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

# Before TensorFlow is imported: quiet C++ logging, no oneDNN graph rewrites
# (their float results depend on the CPU).
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402

import tensorflow as tf  # noqa: E402
from ai_edge_litert.interpreter import Interpreter  # noqa: E402

SCRIPT_DIR = Path(__file__).resolve().parent
REPO_ROOT = SCRIPT_DIR.parent.parent.parent
DEFAULT_OUT = REPO_ROOT / "Examples" / "digits"

SEED = 20240601
TEST_SIZE = 360
EPOCHS = 60
BATCH_SIZE = 32
LEARNING_RATE = 2e-3
TOP_K = 3
MIN_FLOAT_TOP1 = 0.93

SIGNATURE_KEY = "serving_default"
INPUT_NAME = "image"
OUTPUT_NAME = "digit"
LABELS = [str(d) for d in range(10)]

IMAGES_DIR = "test-images"
BUNDLES = ("digits-float32", "digits-uint8")
EXPECTED_JSON = "expected-accuracy.json"

LICENSE = "BSD-3-Clause (data: scikit-learn digits)"


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

class CheckFailed(Exception):
    pass


def check(cond: bool, message: str) -> None:
    if not cond:
        raise CheckFailed(message)


def dump_json(obj, indent: int = 0) -> str:
    """JSON with 2-space indentation; arrays of scalars stay on one line.
    Key order is preserved."""
    pad = "  " * indent
    inner = "  " * (indent + 1)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f"{inner}{json.dumps(k)}: {dump_json(v, indent + 1)}"
                 for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list):
        if all(not isinstance(v, (dict, list)) for v in obj):
            return "[" + ", ".join(json.dumps(v) for v in obj) + "]"
        items = [f"{inner}{dump_json(v, indent + 1)}" for v in obj]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(obj)


def make_deterministic() -> None:
    tf.keras.utils.set_random_seed(SEED)  # Python, NumPy and TF seeds
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.config.experimental.enable_op_determinism()


# --------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------

def load_pixels():
    """All 1797 images as uint8 8x8 arrays (value * 255 / 16, rounded half
    up; only value 8 -> 127.5 is a tie, and it becomes 128) and labels."""
    digits = load_digits()
    raw = digits.images.astype(np.int64)            # (1797, 8, 8), 0..16
    check(raw.min() == 0 and raw.max() == 16, "unexpected pixel range")
    check(np.array_equal(raw, digits.images), "pixels are not integers")
    pixels = ((raw * 255 + 8) // 16).astype(np.uint8)
    labels = digits.target.astype(np.int64)
    return pixels, labels


def split(labels):
    indices = np.arange(len(labels))
    train, test = train_test_split(indices, test_size=TEST_SIZE,
                                   stratify=labels, random_state=SEED,
                                   shuffle=True)
    return np.sort(train), np.sort(test)


def write_pngs(out: Path, pixels, labels, test_idx) -> None:
    root = out / IMAGES_DIR
    for label in LABELS:
        (root / label).mkdir(parents=True)
    for i in test_idx:
        path = root / LABELS[labels[i]] / f"{i}.png"
        Image.fromarray(pixels[i]).save(path, format="PNG")
        # The PNG must decode to exactly the training representation.
        with Image.open(path) as im:
            check(im.mode == "L" and im.size == (8, 8),
                  f"{path}: mode {im.mode} size {im.size}")
            check(np.array_equal(np.asarray(im, dtype=np.uint8), pixels[i]),
                  f"{path}: PNG does not round-trip")


def to_model_input(pixels_u8):
    """uint8 (N, 8, 8) -> float32 (N, 8, 8, 1) in [0, 1]; the "[0,1]"
    normalization of model.json (pixel / 255)."""
    return (pixels_u8.astype(np.float32) / np.float32(255.0))[..., None]


# --------------------------------------------------------------------------
# Model
# --------------------------------------------------------------------------

def build_model():
    keras = tf.keras
    layers = keras.layers
    image = keras.Input(shape=(8, 8, 1), name=INPUT_NAME)
    x = layers.Conv2D(16, 3, padding="same", activation="relu", name="conv1")(image)
    x = layers.Conv2D(32, 3, padding="same", activation="relu", name="conv2")(x)
    x = layers.MaxPooling2D(2, name="pool")(x)                # 4x4x32
    x = layers.Flatten(name="flatten")(x)
    x = layers.Dropout(0.3, name="dropout", seed=SEED)(x)
    x = layers.Dense(32, activation="relu", name="dense")(x)
    digit = layers.Dense(10, activation="softmax", name=OUTPUT_NAME)(x)
    return keras.Model(image, digit, name="digits_cnn")


def train(model, x_train, y_train) -> None:
    model.compile(optimizer=tf.keras.optimizers.Adam(LEARNING_RATE),
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    hist = model.fit(x_train, y_train, epochs=EPOCHS, batch_size=BATCH_SIZE,
                     shuffle=True, verbose=0)
    print(f"  training: final loss {hist.history['loss'][-1]:.4f}, "
          f"accuracy {hist.history['accuracy'][-1]:.4f}")


def convert(model, quantize_with=None) -> bytes:
    """Export the model as a SavedModel whose only signature is
    ``serving_default(image[1,8,8,1] float32) -> {"digit": [1,10]}`` and
    convert that.  (Keras 3 variables are not seen by
    ``from_concrete_functions``; the exported SavedModel freezes them.)"""
    archive = tf.keras.export.ExportArchive()
    archive.track(model)

    def serve(image):
        return {OUTPUT_NAME: model(image, training=False)}

    archive.add_endpoint(
        name=SIGNATURE_KEY, fn=serve,
        input_signature=[tf.TensorSpec([1, 8, 8, 1], tf.float32, name=INPUT_NAME)])
    with tempfile.TemporaryDirectory(prefix="digits-savedmodel-") as tmp:
        archive.write_out(tmp, verbose=False)
        converter = tf.lite.TFLiteConverter.from_saved_model(
            tmp, signature_keys=[SIGNATURE_KEY])
        return _configure_and_convert(converter, quantize_with)


def _configure_and_convert(converter, quantize_with) -> bytes:
    if quantize_with is not None:
        calib = quantize_with

        def representative_dataset():
            for i in range(len(calib)):
                yield [calib[i:i + 1]]

        converter.optimizations = [tf.lite.Optimize.DEFAULT]
        converter.representative_dataset = representative_dataset
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        converter.inference_input_type = tf.uint8
        converter.inference_output_type = tf.uint8
    return converter.convert()


# --------------------------------------------------------------------------
# Bundles
# --------------------------------------------------------------------------

def model_json(quantized: bool, n_train: int) -> dict:
    if quantized:
        name = "Digits CNN (uint8)"
        id_ = "digits-uint8"
        details = ("Full-integer (uint8) quantized version of digits-float32. "
                   "Input: 8x8 grayscale image passed as raw 0..255 pixel "
                   "bytes; output: uint8 probabilities of the digits 0..9, "
                   "dequantized with the output tensor's scale and zero point. "
                   f"Trained on {n_train} of the 1797 scikit-learn digits; "
                   f"the other {TEST_SIZE} are in ../test-images.")
    else:
        name = "Digits CNN (float32)"
        id_ = "digits-float32"
        details = ("Small CNN classifying 8x8 grayscale handwritten digits "
                   "(scikit-learn's copy of the UCI optical digits test set). "
                   "Input: pixel / 255; output: softmax probabilities of the "
                   f"digits 0..9. Trained on {n_train} of the 1797 images; "
                   f"the other {TEST_SIZE} are in ../test-images.")
    image = {"name": INPUT_NAME, "type": "image", "shape": [8, 8, 1],
             "format": "GRAY"}
    if not quantized:
        image["normalize"] = {"standard": "[0,1]"}
    digit = {"name": OUTPUT_NAME, "type": "array", "shape": [10],
             "labels": "labels.txt"}
    if quantized:
        digit["dequantize"] = {"from": "tensor"}
    return {
        "name": name,
        "details": details,
        "id": id_,
        "version": "1",
        "author": "TensorIO for Swift",
        "license": LICENSE,
        "model": {
            "file": "model.tflite",
            "backend": "tflite",
            "quantized": quantized,
            "modes": ["predict"],
            "type": "image.classification.digits",
        },
        "inputs": [image],
        "outputs": [digit],
    }


def write_bundle(out: Path, name: str, meta: dict, tflite: bytes) -> Path:
    bundle = out / f"{name}.tiobundle"
    (bundle / "assets").mkdir(parents=True)
    (bundle / "model.json").write_text(dump_json(meta) + "\n")
    (bundle / "model.tflite").write_bytes(tflite)
    (bundle / "assets" / "labels.txt").write_text("".join(f"{l}\n" for l in LABELS))
    return bundle


# --------------------------------------------------------------------------
# Evaluation (LiteRT on the PNG files, as the bundle describes them)
# --------------------------------------------------------------------------

class BundleRunner:
    """Runs one bundle the way Tensor/IO would: PNG -> uint8 pixels ->
    normalize per model.json -> signature runner -> dequantize per
    model.json -> probabilities."""

    def __init__(self, bundle: Path):
        self.meta = json.loads((bundle / "model.json").read_text())
        self.labels = (bundle / "assets" / "labels.txt").read_text().splitlines()
        check(self.labels == LABELS, f"{bundle}: labels {self.labels}")
        self.interpreter = Interpreter(
            model_path=str(bundle / self.meta["model"]["file"]), num_threads=1)
        sigs = self.interpreter.get_signature_list()
        check(list(sigs) == [SIGNATURE_KEY], f"signatures {sigs}")
        check(sigs[SIGNATURE_KEY] == {"inputs": [INPUT_NAME],
                                      "outputs": [OUTPUT_NAME]},
              f"signature names {sigs[SIGNATURE_KEY]}")
        self.runner = self.interpreter.get_signature_runner(SIGNATURE_KEY)
        self.in_detail = self.runner.get_input_details()[INPUT_NAME]
        self.out_detail = self.runner.get_output_details()[OUTPUT_NAME]
        check(list(self.in_detail["shape"]) == [1, 8, 8, 1],
              f"input shape {self.in_detail['shape']}")
        check(list(self.out_detail["shape"]) == [1, 10],
              f"output shape {self.out_detail['shape']}")

    def prepare(self, pixels_u8):
        layer = self.meta["inputs"][0]
        norm = layer.get("normalize")
        x = pixels_u8.reshape(1, 8, 8, 1)
        if norm is None:
            return x.astype(self.in_detail["dtype"])
        check(norm == {"standard": "[0,1]"}, f"unsupported normalize {norm}")
        return (x.astype(np.float32) / np.float32(255.0)).astype(self.in_detail["dtype"])

    def predict(self, pixels_u8):
        out = self.runner(**{INPUT_NAME: self.prepare(pixels_u8)})[OUTPUT_NAME]
        out = out.reshape(-1)
        layer = self.meta["outputs"][0]
        if layer.get("dequantize") == {"from": "tensor"}:
            scale, zero_point = self.out_detail["quantization"]
            return scale * (out.astype(np.float32) - zero_point)
        check("dequantize" not in layer, f"unsupported dequantize {layer}")
        return out.astype(np.float32)


def list_images(images_dir: Path):
    """(label index, path) for every PNG: one sub-folder per label, like
    `tensorio eval` reads DIR."""
    items = []
    for label_dir in sorted(p for p in images_dir.iterdir() if p.is_dir()):
        label = LABELS.index(label_dir.name)
        for png in sorted(label_dir.glob("*.png"), key=lambda p: int(p.stem)):
            items.append((label, png))
    return items


def rank(scores):
    """Labels from best to worst; equal scores keep label order (stable)."""
    return np.argsort(-scores, kind="stable")


def tie_dependent(scores, truth: int, k: int) -> bool:
    """True if the top-k verdict for this image depends on how equal scores
    are ordered: the true label ties with the k-th best score and the tie
    straddles the top-k boundary."""
    kth = np.sort(scores)[::-1][k - 1]
    return bool(scores[truth] == kth and np.count_nonzero(scores >= kth) > k)


def verdict_margin(scores, truth: int, k: int) -> float:
    """How far the true label's score is from the k-th best other score:
    the smallest change that would flip this image's top-k verdict."""
    others = np.sort(np.delete(scores, truth))[::-1]
    return float(abs(np.float64(scores[truth]) - np.float64(others[k - 1])))


def evaluate(bundle: Path, images_dir: Path) -> dict:
    runner = BundleRunner(bundle)
    items = list_images(images_dir)
    confusion = np.zeros((10, 10), dtype=np.int64)
    hits = {1: 0, TOP_K: 0}
    ties = {1: 0, TOP_K: 0}
    margins = {1: np.inf, TOP_K: np.inf}
    for truth, png in items:
        with Image.open(png) as im:
            check(im.mode == "L", f"{png}: mode {im.mode}")
            pixels = np.asarray(im, dtype=np.uint8)
        scores = runner.predict(pixels)
        order = rank(scores)
        confusion[truth, order[0]] += 1
        for k in hits:
            hits[k] += int(truth in order[:k])
            if tie_dependent(scores, truth, k):
                ties[k] += 1
            else:
                margins[k] = min(margins[k], verdict_margin(scores, truth, k))
    n = len(items)
    q_in = runner.in_detail["quantization"]
    q_out = runner.out_detail["quantization"]
    return {
        "images": n,
        "top1": hits[1] / n,
        f"top{TOP_K}": hits[TOP_K] / n,
        "correct_top1": hits[1],
        f"correct_top{TOP_K}": hits[TOP_K],
        "tie_dependent_top1": ties[1],
        f"tie_dependent_top{TOP_K}": ties[TOP_K],
        "min_margin_top1": margins[1],
        f"min_margin_top{TOP_K}": margins[TOP_K],
        "confusion": confusion,
        "input": (str(np.dtype(runner.in_detail["dtype"])), q_in),
        "output": (str(np.dtype(runner.out_detail["dtype"])), q_out),
    }


def print_confusion(confusion) -> None:
    print("    true\\pred " + " ".join(f"{l:>4}" for l in LABELS))
    for i, row in enumerate(confusion):
        print(f"    {LABELS[i]:>9} " + " ".join(f"{v:>4}" for v in row))


# --------------------------------------------------------------------------

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"output folder (default: {DEFAULT_OUT})")
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()

    make_deterministic()

    print(f"Writing to {out}")
    out.mkdir(parents=True, exist_ok=True)
    for name in (IMAGES_DIR, *(f"{b}.tiobundle" for b in BUNDLES)):
        if (out / name).exists():
            shutil.rmtree(out / name)
    (out / EXPECTED_JSON).unlink(missing_ok=True)

    try:
        pixels, labels = load_pixels()
        train_idx, test_idx = split(labels)
        print(f"Data: {len(labels)} images, {len(train_idx)} train, "
              f"{len(test_idx)} test; test per label "
              f"{np.bincount(labels[test_idx], minlength=10).tolist()}")
        write_pngs(out, pixels, labels, test_idx)

        x_train = to_model_input(pixels[train_idx])
        y_train = labels[train_idx]
        x_test = to_model_input(pixels[test_idx])
        y_test = labels[test_idx]

        print("Training")
        model = build_model()
        train(model, x_train, y_train)
        keras_pred = np.argmax(model.predict(x_test, verbose=0), axis=1)
        keras_top1 = float(np.mean(keras_pred == y_test))
        print(f"  Keras top-1 on the test images: {keras_top1:.4f}")

        print("Converting")
        float_tflite = convert(model)
        uint8_tflite = convert(model, quantize_with=x_train)
        write_bundle(out, "digits-float32", model_json(False, len(train_idx)),
                     float_tflite)
        write_bundle(out, "digits-uint8", model_json(True, len(train_idx)),
                     uint8_tflite)

        print("Evaluating the bundles on the PNG files with LiteRT")
        results = {}
        for name in BUNDLES:
            r = evaluate(out / f"{name}.tiobundle", out / IMAGES_DIR)
            results[name] = r
            (in_dtype, (in_s, in_z)), (out_dtype, (out_s, out_z)) = r["input"], r["output"]
            print(f"  {name}: top-1 {r['top1']:.4f} ({r['correct_top1']}/{r['images']}), "
                  f"top-{TOP_K} {r[f'top{TOP_K}']:.4f} "
                  f"({r[f'correct_top{TOP_K}']}/{r['images']})")
            print(f"    input {INPUT_NAME} {in_dtype} scale {in_s!r} zero point {in_z}; "
                  f"output {OUTPUT_NAME} {out_dtype} scale {out_s!r} zero point {out_z}")
            print(f"    images whose verdict depends on tie order: "
                  f"top-1 {r['tie_dependent_top1']}, top-{TOP_K} "
                  f"{r[f'tie_dependent_top{TOP_K}']}")
            print(f"    smallest score gap deciding a verdict (ties excluded): "
                  f"top-1 {r['min_margin_top1']:.3g}, top-{TOP_K} "
                  f"{r[f'min_margin_top{TOP_K}']:.3g}")
            print_confusion(r["confusion"])

        f32, u8 = results["digits-float32"], results["digits-uint8"]
        check(f32["images"] == TEST_SIZE and u8["images"] == TEST_SIZE,
              "wrong number of evaluated images")
        check(f32["top1"] >= MIN_FLOAT_TOP1,
              f"float32 top-1 {f32['top1']:.4f} < {MIN_FLOAT_TOP1}")
        check(abs(f32["top1"] - keras_top1) <= 1.0 / TEST_SIZE + 1e-9,
              f"float32 TFLite top-1 {f32['top1']} far from Keras {keras_top1}")
        # uint8 input must be the raw pixel bytes: scale 1/255, zero point 0.
        in_s, in_z = u8["input"][1]
        check(u8["input"][0] == "uint8" and in_z == 0
              and abs(in_s - 1.0 / 255.0) < 1e-9,
              f"uint8 input quantization {u8['input']} is not raw bytes")
        check(u8["output"][0] == "uint8", f"uint8 output dtype {u8['output']}")

        expected = {}
        for name in BUNDLES:
            r = results[name]
            expected[name] = {
                "top1": round(r["top1"], 6),
                f"top{TOP_K}": round(r[f"top{TOP_K}"], 6),
                "images": r["images"],
                "correct_top1": r["correct_top1"],
                f"correct_top{TOP_K}": r[f"correct_top{TOP_K}"],
                "tie_dependent_top1": r["tie_dependent_top1"],
                f"tie_dependent_top{TOP_K}": r[f"tie_dependent_top{TOP_K}"],
                "min_margin_top1": float(f"{r['min_margin_top1']:.6g}"),
                f"min_margin_top{TOP_K}": float(f"{r[f'min_margin_top{TOP_K}']:.6g}"),
                "confusion": r["confusion"].tolist(),
            }
        (out / EXPECTED_JSON).write_text(dump_json(expected) + "\n")
        print(f"Wrote {out / EXPECTED_JSON}")
    except CheckFailed as e:
        print(f"CHECK FAILED: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
