#!/usr/bin/env python3
"""Build the ``Examples/digits-training`` example: training data for
``tensorio train`` and three untrained (seeded, randomly initialised)
trainable digit classifiers.

Data: scikit-learn's bundled copy of the UCI "Optical Recognition of
Handwritten Digits" test set (``sklearn.datasets.load_digits()``: 1797 8x8
images, values 0..16, labels 0..9).  Nothing is downloaded.  The pixels and
the split are exactly those of ``Examples/digits`` (pixel = round(value *
255 / 16), 1437 training / 360 held-out images, stratified, seed 20240601),
so ``data/test-images`` holds the same files as ``Examples/digits/test-images``.

Writes (``--out`` defaults to ``Examples/digits-training``)::

    data/train.json, data/test.json   [{"image": [64 floats], "label": [10 floats]}, ...]
    data/train.csv,  data/test.csv    columns image_0..image_63,label_0..label_9
    data/train-images/<label>/<sklearn index>.png, data/test-images/...   8x8 gray PNGs
    digits-train-tensorflow.tiobundle         TF1 graph SavedModel, image [-1,64]
    digits-train-tensorflow-image.tiobundle   the same graph with a GRAY image input [-1,8,8,1]
    digits-train-tflite.tiobundle             TFLite on-device training model
                                              (signatures train / infer / save / restore)
    expected-training.json                    the figures measured below

Network (all three): 64 -> 32 ReLU -> 10, softmax cross-entropy, plain
gradient descent; the initial weights are the same Glorot-uniform values
(numpy, seed 20240601) in all three bundles, biases 0.  They are NOT trained:
an untrained bundle classifies about 10 % of the test set correctly.

Checks (the script exits non-zero if one fails): data files agree with each
other and the PNGs round-trip; each bundle, reloaded from disk, trains for
20 epochs (batch 32, reshuffled every epoch, seeded) to >= 95 % (TensorFlow)
/ >= 90 % (TFLite) held-out accuracy; a checkpoint written through the
saver_def (TensorFlow) or through the save/restore signatures (TFLite) gives
back the same predictions in a fresh session / interpreter.  The TFLite
bundle is run twice: with the classic ``Interpreter`` signature runners and
with LiteRT's ``CompiledModel`` API (what TensorIO's libLiteRt.so binding
uses); both must give the same first-batch losses.

Usage (from the repository root)::

    python3 -m venv .venv-examples
    .venv-examples/bin/pip install -r scripts/examples/digits-training/requirements.txt
    .venv-examples/bin/python scripts/examples/digits-training/make_digits_training.py
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402

import tensorflow as tf  # noqa: E402
from ai_edge_litert import schema_py_generated as tfl_schema  # noqa: E402
from ai_edge_litert.compiled_model import CompiledModel  # noqa: E402
from ai_edge_litert.interpreter import Interpreter  # noqa: E402

v1 = tf.compat.v1

SCRIPT_DIR = Path(__file__).resolve().parent
REPO_ROOT = SCRIPT_DIR.parent.parent.parent
DEFAULT_OUT = REPO_ROOT / "Examples" / "digits-training"

SEED = 20240601
TEST_SIZE = 360
HIDDEN = 32
EPOCHS = 20
BATCH_SIZE = 32
LEARNING_RATE = 0.3            # fed to "learning_rate" (TF); a constant in the TFLite model
SHUFFLE_SEEDS = 10             # extra TFLite runs with other shuffles
MIN_TF_ACCURACY = 0.95
MIN_TFLITE_ACCURACY = 0.90
LABELS = [str(d) for d in range(10)]

IMAGE = "image"
LABEL = "label"
TF_BUNDLE = "digits-train-tensorflow"
TF_IMAGE_BUNDLE = "digits-train-tensorflow-image"
TFLITE_BUNDLE = "digits-train-tflite"
SAVEDMODEL_DIR = "train"          # model.json "model.file" of the TF bundles
WEIGHTS = ("w1", "b1", "w2", "b2")
LICENSE = "BSD-3-Clause (data: scikit-learn digits)"
EXPECTED_JSON = "expected-training.json"


class CheckFailed(Exception):
    pass


def check(cond, message):
    if not cond:
        raise CheckFailed(message)


def dump_json(obj, indent=0):
    """2-space JSON, arrays of scalars on one line, key order kept."""
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


# --------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------

def load_pixels():
    """As Examples/digits: uint8 (1797, 8, 8) = round half up(value*255/16)."""
    digits = load_digits()
    raw = digits.images.astype(np.int64)
    check(raw.min() == 0 and raw.max() == 16 and np.array_equal(raw, digits.images),
          "unexpected digits pixels")
    return ((raw * 255 + 8) // 16).astype(np.uint8), digits.target.astype(np.int64)


def split(labels):
    idx = np.arange(len(labels))
    train, test = train_test_split(idx, test_size=TEST_SIZE, stratify=labels,
                                   random_state=SEED, shuffle=True)
    return np.sort(train), np.sort(test)


def to_float(pixels_u8):
    """uint8 (N, 8, 8) -> float32 (N, 64): pixel / 255, as "[0,1]" normalization."""
    return (pixels_u8.reshape(len(pixels_u8), 64).astype(np.float32) / np.float32(255.0))


def one_hot(labels):
    return np.eye(10, dtype=np.float32)[labels]


def fmt(x) -> str:
    """Shortest text that reads back as the same float32; 0 and 1 as integers."""
    x = np.float32(x)
    if x == 0 or x == 1:
        return str(int(x))
    return np.format_float_positional(x, unique=True, trim="-")


def write_data(out: Path, pixels, labels, train_idx, test_idx):
    data = out / "data"
    for name, idx in (("train", train_idx), ("test", test_idx)):
        x = to_float(pixels[idx])
        y = one_hot(labels[idx])
        lines = []
        for xi, yi in zip(x, y):
            lines.append('{"image": [' + ", ".join(fmt(v) for v in xi) + '], "label": ['
                         + ", ".join(fmt(v) for v in yi) + "]}")
        (data / f"{name}.json").write_text("[\n" + ",\n".join(lines) + "\n]\n")
        header = ",".join([f"{IMAGE}_{i}" for i in range(64)] + [f"{LABEL}_{i}" for i in range(10)])
        rows = [",".join(fmt(v) for v in np.concatenate([xi, yi])) for xi, yi in zip(x, y)]
        (data / f"{name}.csv").write_text(header + "\n" + "\n".join(rows) + "\n")
        # Read both back: they must give exactly the float32 arrays.
        items = json.loads((data / f"{name}.json").read_text())
        jx = np.array([it[IMAGE] for it in items], np.float32)
        jy = np.array([it[LABEL] for it in items], np.float32)
        check(np.array_equal(jx, x) and np.array_equal(jy, y), f"{name}.json round trip")
        csv = np.loadtxt(data / f"{name}.csv", delimiter=",", skiprows=1, dtype=np.float32)
        check(np.array_equal(csv[:, :64], x) and np.array_equal(csv[:, 64:], y),
              f"{name}.csv round trip")
        root = data / f"{name}-images"
        for lab in LABELS:
            (root / lab).mkdir(parents=True)
        for i in idx:
            path = root / LABELS[labels[i]] / f"{i}.png"
            Image.fromarray(pixels[i]).save(path, format="PNG")
            with Image.open(path) as im:
                check(im.mode == "L" and im.size == (8, 8)
                      and np.array_equal(np.asarray(im, np.uint8), pixels[i]),
                      f"{path}: PNG does not round-trip")


def read_image_folder(root: Path):
    """What `tensorio train` does with a folder of images per label: the
    folder name is the label (its line in assets/labels.txt is the one-hot
    index), pixels / 255.  Sorted by label, then by file name."""
    xs, ys = [], []
    for lab in LABELS:
        for p in sorted((root / lab).glob("*.png"), key=lambda p: int(p.stem)):
            with Image.open(p) as im:
                xs.append(np.asarray(im.convert("L"), np.uint8))
            ys.append(int(lab))
    return (np.stack(xs).astype(np.float32) / np.float32(255.0))[..., None], one_hot(np.array(ys))


# --------------------------------------------------------------------------
# Shared initial weights
# --------------------------------------------------------------------------

def initial_weights():
    rng = np.random.default_rng(SEED)

    def glorot(fan_in, fan_out):
        limit = np.sqrt(6.0 / (fan_in + fan_out))
        return rng.uniform(-limit, limit, (fan_in, fan_out)).astype(np.float32)

    return {"w1": glorot(64, HIDDEN), "b1": np.zeros(HIDDEN, np.float32),
            "w2": glorot(HIDDEN, 10), "b2": np.zeros(10, np.float32)}


# --------------------------------------------------------------------------
# TensorFlow (TF1 graph, SavedModel) bundles
# --------------------------------------------------------------------------

def build_tf_graph(init, image_input: bool):
    shape = [None, 8, 8, 1] if image_input else [None, 64]
    image = v1.placeholder(tf.float32, shape, name=IMAGE)
    label = v1.placeholder(tf.float32, [None, 10], name=LABEL)
    lr = v1.placeholder(tf.float32, [], name="learning_rate")
    var = {k: v1.get_variable(k, initializer=tf.constant(v), use_resource=True)
           for k, v in init.items()}
    x = tf.reshape(image, [-1, 64]) if image_input else image
    hidden = tf.nn.relu(tf.matmul(x, var["w1"]) + var["b1"])
    logits = tf.identity(tf.matmul(hidden, var["w2"]) + var["b2"], name="logits")
    probs = tf.nn.softmax(logits, name="probabilities")
    loss = tf.identity(tf.reduce_mean(
        tf.nn.softmax_cross_entropy_with_logits(labels=label, logits=logits)), name="loss")
    correct = tf.equal(tf.argmax(logits, 1), tf.argmax(label, 1))
    accuracy = tf.identity(tf.reduce_mean(tf.cast(correct, tf.float32)), name="accuracy")
    v1.train.GradientDescentOptimizer(lr).minimize(loss, name="train")
    return ({IMAGE: image, LABEL: label, "learning_rate": lr},
            {"loss": loss, "accuracy": accuracy, "probabilities": probs})


def tf_model_json(bundle, image_input):
    if image_input:
        image_layer = {"name": IMAGE, "type": "image", "shape": [-1, 8, 8, 1],
                       "format": "GRAY", "normalize": {"standard": "[0,1]"}}
        kind = "an 8x8 GRAY image input (normalized to [0,1])"
    else:
        image_layer = {"name": IMAGE, "type": "array", "shape": [-1, 64]}
        kind = "64 floats in [0,1] (pixel / 255, row by row)"
    return {
        "name": "Digits MLP, trainable (TensorFlow" + (", image input)" if image_input else ")"),
        "details": f"Untrained 64-32-10 MLP for scikit-learn's 8x8 digits; {kind}; "
                   f"label one-hot [10]. Train with the 'train' op, feeding "
                   f"learning_rate (e.g. {LEARNING_RATE}).",
        "id": bundle,
        "version": "1",
        "author": "doc.ai",
        "license": LICENSE,
        "model": {"file": SAVEDMODEL_DIR, "backend": "tensorflow", "quantized": False,
                  "type": "image.classification.digits", "modes": ["predict", "train"]},
        "inputs": [image_layer, {"name": LABEL, "type": "array", "shape": [-1, 10]}],
        "outputs": [
            {"name": "probabilities", "type": "array", "shape": [-1, 10],
             "labels": "labels.txt"},
            {"name": "loss", "type": "array", "shape": [1]},
            {"name": "accuracy", "type": "array", "shape": [1]},
        ],
        "placeholders": [{"name": "learning_rate", "type": "array", "shape": [1]}],
        # The label is fed and the loss and accuracy fetched only when training.
        "train": {"ops": ["train"], "inputs": [LABEL], "outputs": ["loss", "accuracy"]},
    }


def write_tf_bundle(out: Path, bundle: str, init, image_input: bool):
    bdir = out / f"{bundle}.tiobundle"
    graph = tf.Graph()
    with graph.as_default():
        v1.set_random_seed(SEED)
        ins, outs = build_tf_graph(init, image_input)
        saver = v1.train.Saver(sharded=True, write_version=v1.train.SaverDef.V2)
        info = v1.saved_model.utils.build_tensor_info
        sig = v1.saved_model.signature_def_utils.build_signature_def
        serving = sig({IMAGE: info(ins[IMAGE])}, {"probabilities": info(outs["probabilities"])},
                      v1.saved_model.signature_constants.PREDICT_METHOD_NAME)
        training = sig({k: info(t) for k, t in ins.items()},
                       {"loss": info(outs["loss"]), "accuracy": info(outs["accuracy"])},
                       "tensorflow/supervised/training")
        with v1.Session(graph=graph) as sess:
            sess.run(v1.global_variables_initializer())
            builder = v1.saved_model.Builder(str(bdir / SAVEDMODEL_DIR))
            builder.add_meta_graph_and_variables(
                sess, ["serve"], signature_def_map={"serving_default": serving},
                saver=saver, strip_default_attrs=True)
            builder.add_meta_graph(
                ["train"], signature_def_map={"serving_default": serving, "train": training},
                saver=saver, strip_default_attrs=True)
            builder.save(as_text=False)
    (bdir / "assets").mkdir()
    (bdir / "assets" / "labels.txt").write_text("\n".join(LABELS) + "\n")
    (bdir / "model.json").write_text(dump_json(tf_model_json(bundle, image_input)) + "\n")


def batches(n, epoch_rng):
    perm = epoch_rng.permutation(n)
    return [perm[i:i + BATCH_SIZE] for i in range(0, n, BATCH_SIZE)]


def tf_first_batch(bdir: Path, x, y):
    """Deterministic figures for tests, in a fresh session: one train step on
    the first 32 training items in file order (lr = LEARNING_RATE) and on the
    same items with lr 0."""
    graph = tf.Graph()
    with graph.as_default(), v1.Session(graph=graph) as sess:
        v1.saved_model.loader.load(sess, ["train"], str(bdir / SAVEDMODEL_DIR))
        feeds = {"image:0": x, "label:0": y}
        _, before = sess.run(["train", "loss:0"], {**feeds, "learning_rate:0": np.float32(0)})
        same = sess.run("loss:0", feeds)
        check(same == before, "learning rate 0 changed the loss")
        _, fetched = sess.run(["train", "loss:0"],
                              {**feeds, "learning_rate:0": np.float32(LEARNING_RATE)})
        after = sess.run("loss:0", feeds)
        check(fetched == before and after < before, "one train step did not lower the loss")
        return {"items": f"train[0..{len(x) - 1}]", "loss_before": float(before),
                "loss_after_one_step": float(after)}


def verify_tf_bundle(out: Path, bundle: str, x_train, y_train, x_test, y_test, first_batch):
    bdir = out / f"{bundle}.tiobundle"
    graph = tf.Graph()
    sess = v1.Session(graph=graph)
    with graph.as_default():
        meta = v1.saved_model.loader.load(sess, ["train"], str(bdir / SAVEDMODEL_DIR))
    g = lambda n: graph.get_tensor_by_name(n + ":0")  # noqa: E731
    image, label, lr = g(IMAGE), g(LABEL), g("learning_rate")
    loss, acc, probs = g("loss"), g("accuracy"), g("probabilities")
    train_op = graph.get_operation_by_name("train")
    sd = meta.saver_def

    def evaluate():
        l_, a_, p_ = sess.run([loss, acc, probs], {image: x_test, label: y_test})
        check(abs(float(a_) - float(np.mean(p_.argmax(1) == y_test.argmax(1)))) < 1e-6,
              "accuracy output disagrees with probabilities")
        return float(l_), float(a_), p_

    l0, a0, _ = evaluate()
    check(a0 < 0.3, f"{bundle}: untrained accuracy {a0} is suspiciously high")
    first = tf_first_batch(bdir, *first_batch)
    rng = np.random.default_rng(SEED)
    history = []
    for epoch in range(EPOCHS):
        t0 = time.perf_counter()
        losses = []
        for b in batches(len(x_train), rng):
            _, l_ = sess.run([train_op, loss], {image: x_train[b], label: y_train[b],
                                               lr: np.float32(LEARNING_RATE)})
            losses.append(float(l_))
        dt = time.perf_counter() - t0
        tl, ta, p_ = evaluate()
        history.append({"epoch": epoch + 1, "train_loss": round(float(np.mean(losses)), 5),
                        "test_loss": round(tl, 5), "test_accuracy": round(ta, 5),
                        "seconds": round(dt, 4)})
    final_acc = history[-1]["test_accuracy"]
    check(final_acc >= MIN_TF_ACCURACY, f"{bundle}: accuracy {final_acc} < {MIN_TF_ACCURACY}")
    # checkpoint through the saver_def, restored in a fresh session from disk
    ckpt = Path(tempfile.mkdtemp(prefix="tio-digits-ckpt-"))
    try:
        prefix = str(ckpt / "model")
        sess.run(sd.save_tensor_name, {sd.filename_tensor_name: prefix})
        files = sorted(p.name for p in ckpt.iterdir())
        graph2 = tf.Graph()
        sess2 = v1.Session(graph=graph2)
        with graph2.as_default():
            v1.saved_model.loader.load(sess2, ["serve"], str(bdir / SAVEDMODEL_DIR))
            fresh = sess2.run("probabilities:0", {"image:0": x_test})
            sess2.run(sd.restore_op_name, {sd.filename_tensor_name: prefix})
            restored = sess2.run("probabilities:0", {"image:0": x_test})
        sess2.close()
    finally:
        shutil.rmtree(ckpt, ignore_errors=True)
    check(np.array_equal(restored, p_), f"{bundle}: restored checkpoint predicts differently")
    check(np.mean(fresh.argmax(1) == y_test.argmax(1)) < 0.3, "fresh session is trained?")
    sess.close()
    return {"initial_test_loss": round(l0, 5), "initial_test_accuracy": round(a0, 5),
            "first_batch": first, "epochs": history, "final_test_accuracy": final_acc,
            "saver_def": {"filename_tensor_name": sd.filename_tensor_name,
                          "save_tensor_name": sd.save_tensor_name,
                          "restore_op_name": sd.restore_op_name},
            "checkpoint_files": files}


# --------------------------------------------------------------------------
# TFLite on-device training bundle
# --------------------------------------------------------------------------

class DigitsTrainer(tf.Module):
    """64 -> 32 ReLU -> 10 with hand-written backpropagation, so that the
    converted model needs only TFLite builtin ops (no ReluGrad,
    SoftmaxCrossEntropyWithLogits, BroadcastGradientArgs or Flex)."""

    def __init__(self, init):
        super().__init__()
        self.w1 = tf.Variable(init["w1"], name="w1")
        self.b1 = tf.Variable(init["b1"], name="b1")
        self.w2 = tf.Variable(init["w2"], name="w2")
        self.b2 = tf.Variable(init["b2"], name="b2")

    def _forward(self, x):
        pre = tf.matmul(x, self.w1) + self.b1
        hidden = tf.maximum(pre, 0.0)
        return pre, hidden, tf.matmul(hidden, self.w2) + self.b2

    def _weights(self):
        return {k: tf.identity(getattr(self, k)) for k in WEIGHTS}

    @tf.function(input_signature=[tf.TensorSpec([None, 64], tf.float32, name=IMAGE),
                                  tf.TensorSpec([None, 10], tf.float32, name=LABEL)])
    def train(self, image, label):
        pre, hidden, logits = self._forward(image)
        log_p = tf.nn.log_softmax(logits)
        n = tf.cast(tf.shape(image)[0], tf.float32)
        loss = -tf.reduce_sum(label * log_p) / n
        d_logits = (tf.exp(log_p) - label) / n
        d_w2 = tf.matmul(hidden, d_logits, transpose_a=True)
        d_b2 = tf.reduce_sum(d_logits, axis=0)
        d_pre = tf.matmul(d_logits, self.w2, transpose_b=True) * tf.cast(pre > 0, tf.float32)
        d_w1 = tf.matmul(image, d_pre, transpose_a=True)
        d_b1 = tf.reduce_sum(d_pre, axis=0)
        self.w1.assign_sub(LEARNING_RATE * d_w1)
        self.b1.assign_sub(LEARNING_RATE * d_b1)
        self.w2.assign_sub(LEARNING_RATE * d_w2)
        self.b2.assign_sub(LEARNING_RATE * d_b2)
        return {"loss": loss}

    @tf.function(input_signature=[tf.TensorSpec([None, 64], tf.float32, name=IMAGE)])
    def infer(self, image):
        return {"probabilities": tf.nn.softmax(self._forward(image)[2])}

    @tf.function(input_signature=[])
    def save(self):
        return self._weights()

    @tf.function(input_signature=[tf.TensorSpec([64, HIDDEN], tf.float32, name="w1"),
                                  tf.TensorSpec([HIDDEN], tf.float32, name="b1"),
                                  tf.TensorSpec([HIDDEN, 10], tf.float32, name="w2"),
                                  tf.TensorSpec([10], tf.float32, name="b2")])
    def restore(self, w1, b1, w2, b2):
        self.w1.assign(w1)
        self.b1.assign(b1)
        self.w2.assign(w2)
        self.b2.assign(b2)
        return self._weights()


TFLITE_SIGNATURES = ["train", "infer", "save", "restore"]


def convert_tflite(init) -> bytes:
    module = DigitsTrainer(init)
    tmp = Path(tempfile.mkdtemp(prefix="tio-digits-tflite-"))
    try:
        tf.saved_model.save(module, str(tmp / "saved"), signatures={
            k: getattr(module, k).get_concrete_function() for k in TFLITE_SIGNATURES})
        conv = tf.lite.TFLiteConverter.from_saved_model(str(tmp / "saved"),
                                                        signature_keys=TFLITE_SIGNATURES)
        conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
        conv.experimental_enable_resource_variables = True
        return conv.convert()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def tflite_model_json():
    return {
        "name": "Digits MLP, trainable (TensorFlow Lite)",
        "details": "Untrained 64-32-10 MLP for scikit-learn's 8x8 digits; image = 64 floats "
                   "in [0,1], label one-hot [10]. Signatures: train(image, label) -> loss, "
                   f"infer(image) -> probabilities, save() / restore(w1, b1, w2, b2). Plain "
                   f"gradient descent, learning rate {LEARNING_RATE} built in.",
        "id": TFLITE_BUNDLE,
        "version": "1",
        "author": "doc.ai",
        "license": LICENSE,
        "model": {"file": "model.tflite", "backend": "tflite", "quantized": False,
                  "type": "image.classification.digits", "modes": ["predict", "train"]},
        "inputs": [{"name": IMAGE, "type": "array", "shape": [-1, 64]},
                   {"name": LABEL, "type": "array", "shape": [-1, 10]}],
        "outputs": [{"name": "probabilities", "type": "array", "shape": [-1, 10],
                     "labels": "labels.txt"},
                    {"name": "loss", "type": "array", "shape": [1]}],
        # "train" names the training signature; the label and loss belong to it alone.
        "train": {"ops": ["train"], "inputs": [LABEL], "outputs": ["loss"]},
    }


def write_tflite_bundle(out: Path, model: bytes):
    bdir = out / f"{TFLITE_BUNDLE}.tiobundle"
    bdir.mkdir()
    (bdir / "model.tflite").write_bytes(model)
    (bdir / "assets").mkdir()
    (bdir / "assets" / "labels.txt").write_text("\n".join(LABELS) + "\n")
    (bdir / "model.json").write_text(dump_json(tflite_model_json()) + "\n")


def describe_signatures(interp):
    desc = {}
    for key in TFLITE_SIGNATURES:
        r = interp.get_signature_runner(key)
        desc[key] = {
            "inputs": {n: {"dtype": np.dtype(d["dtype"]).name,
                           "shape": d["shape"].tolist(),
                           "shape_signature": d["shape_signature"].tolist()}
                       for n, d in sorted(r.get_input_details().items())},
            "outputs": {n: {"dtype": np.dtype(d["dtype"]).name,
                            "shape": d["shape"].tolist(),
                            "shape_signature": d["shape_signature"].tolist()}
                        for n, d in sorted(r.get_output_details().items())},
        }
    return desc


def subgraph_ops(model: bytes) -> dict:
    """{subgraph (its signature key, or its index): [builtin op names]} from the
    flatbuffer itself, over every subgraph (the interpreter only lists the
    first one)."""
    m = tfl_schema.ModelT.InitFromPackedBuf(model, 0)
    names = {v: k for k, v in vars(tfl_schema.BuiltinOperator).items() if not k.startswith("_")}
    sig_of = {sd.subgraphIndex: sd.signatureKey.decode() for sd in m.signatureDefs}
    result = {}
    for i, sg in enumerate(m.subgraphs):
        ops = []
        for op in sg.operators or []:
            oc = m.operatorCodes[op.opcodeIndex]
            code = max(oc.builtinCode, oc.deprecatedBuiltinCode)
            ops.append(f"CUSTOM:{oc.customCode.decode()}" if code == tfl_schema.BuiltinOperator.CUSTOM
                       else names[code])
        result[sig_of.get(i, f"subgraph {i}")] = ops
    return result


def verify_tflite(out: Path, init, x_train, y_train, x_test, y_test):
    path = out / f"{TFLITE_BUNDLE}.tiobundle" / "model.tflite"
    interp = Interpreter(model_path=str(path))
    sig_list = interp.get_signature_list()
    check(sig_list == {
        "infer": {"inputs": [IMAGE], "outputs": ["probabilities"]},
        "restore": {"inputs": sorted(WEIGHTS), "outputs": sorted(WEIGHTS)},
        "save": {"inputs": [], "outputs": sorted(WEIGHTS)},
        "train": {"inputs": [IMAGE, LABEL], "outputs": ["loss"]}},
        f"signature list {sig_list}")
    ops = subgraph_ops(path.read_bytes())
    all_ops = {o for v in ops.values() for o in v}
    check(not any(o.startswith("CUSTOM") or "Flex" in o for o in all_ops),
          f"non-builtin ops {sorted(all_ops)}")
    details = describe_signatures(interp)
    train = interp.get_signature_runner("train")
    infer = interp.get_signature_runner("infer")

    def evaluate(runner):
        p = runner(image=x_test)["probabilities"]
        return float(np.mean(p.argmax(1) == y_test.argmax(1))), p

    saved0 = interp.get_signature_runner("save")()
    check(all(np.array_equal(saved0[k], init[k]) for k in WEIGHTS),
          "save() before training does not return the initial weights")
    a0, _ = evaluate(infer)
    check(a0 < 0.3, f"untrained TFLite accuracy {a0}")
    it1 = Interpreter(model_path=str(path))
    tr1 = it1.get_signature_runner("train")
    xb, yb = x_train[:BATCH_SIZE], y_train[:BATCH_SIZE]
    before = float(tr1(image=xb, label=yb)["loss"])        # loss before the step
    after = float(tr1(image=xb, label=yb)["loss"])         # = loss after step 1
    check(after < before, "one TFLite train step did not lower the loss")
    first = {"items": f"train[0..{BATCH_SIZE - 1}]", "loss_before": before,
             "loss_after_one_step": after}
    rng = np.random.default_rng(SEED)
    history = []
    for epoch in range(EPOCHS):
        t0 = time.perf_counter()
        losses = [float(train(image=x_train[b], label=y_train[b])["loss"])
                  for b in batches(len(x_train), rng)]
        dt = time.perf_counter() - t0
        acc, probs = evaluate(infer)
        history.append({"epoch": epoch + 1, "train_loss": round(float(np.mean(losses)), 5),
                        "test_accuracy": round(acc, 5), "seconds": round(dt, 4),
                        "test_accuracy_exact": acc})
    final_acc = history[-1]["test_accuracy"]
    check(final_acc >= MIN_TFLITE_ACCURACY, f"TFLite accuracy {final_acc} < {MIN_TFLITE_ACCURACY}")
    weights = interp.get_signature_runner("save")()
    fresh = Interpreter(model_path=str(path))
    fa, _ = evaluate(fresh.get_signature_runner("infer"))
    check(fa == a0, "fresh interpreter is not at the initial weights")
    fresh.get_signature_runner("restore")(**weights)
    ra, rp = evaluate(fresh.get_signature_runner("infer"))
    check(ra == acc and np.array_equal(rp, probs),
          f"restored interpreter differs: {ra} vs {final_acc}, max |dp| {np.abs(rp - probs).max()}")
    # a single-item batch works too (the -1 dimension resized to 1)
    one = infer(image=x_test[:1])["probabilities"]
    check(one.shape == (1, 10) and np.allclose(one, probs[:1], atol=1e-6), "batch of 1")
    # The same training with other shuffles (fresh interpreters): how much
    # the final accuracy depends on the order, for test thresholds.
    finals = []
    for seed in range(SHUFFLE_SEEDS):
        it = Interpreter(model_path=str(path))
        tr, inf = it.get_signature_runner("train"), it.get_signature_runner("infer")
        r = np.random.default_rng(seed)
        for _ in range(EPOCHS):
            for b in batches(len(x_train), r):
                tr(image=x_train[b], label=y_train[b])
        finals.append(evaluate(inf)[0])
    check(min(finals) >= MIN_TFLITE_ACCURACY, f"shuffle seeds: accuracies {finals}")
    return {"signature_list": sig_list, "signatures": details, "ops": ops,
            "other_shuffles": {"seeds": f"0..{SHUFFLE_SEEDS - 1}",
                               "final_test_accuracy_min": round(min(finals), 5),
                               "final_test_accuracy_max": round(max(finals), 5)},
            "size_bytes": path.stat().st_size, "initial_test_accuracy": round(a0, 5),
            "first_batch": first,
            "epochs": history, "final_test_accuracy": final_acc,
            "restored_test_accuracy": round(ra, 5)}


def cm_run(cm, key, feeds, outs):
    """One run of signature `key` through LiteRT's CompiledModel API (the API
    TensorIO's libLiteRt.so binding uses): resize the dynamic inputs, write
    the input buffers, read the outputs (`outs`: {name: shape})."""
    for n, v in feeds.items():
        cm.resize_input_tensor_by_name(key, n, list(v.shape))
    inb = {n: cm.create_input_buffer_by_name(key, n) for n in feeds}
    for n, v in feeds.items():
        inb[n].write(np.ascontiguousarray(v, np.float32))
    outb = {n: cm.create_output_buffer_by_name(key, n) for n in outs}
    cm.run_by_name(key, inb, outb)
    return {n: outb[n].read(int(np.prod(shape)), np.float32).reshape(shape)
            for n, shape in outs.items()}


WEIGHT_SHAPES = {"w1": (64, HIDDEN), "b1": (HIDDEN,), "w2": (HIDDEN, 10), "b2": (10,)}


def verify_tflite_compiled_model(out: Path, x_train, y_train, x_test, y_test, reference):
    """The same protocol through CompiledModel: first-batch figures, 20
    epochs, save -> new CompiledModel -> restore."""
    path = str(out / f"{TFLITE_BUNDLE}.tiobundle" / "model.tflite")
    cm = CompiledModel.from_file(path)
    order = {k: {"inputs": v["inputs"], "outputs": v["outputs"]}
             for k, v in cm.get_signature_list().items()}
    cm1 = CompiledModel.from_file(path)
    xb, yb = x_train[:BATCH_SIZE], y_train[:BATCH_SIZE]
    before = float(cm_run(cm1, "train", {IMAGE: xb, LABEL: yb}, {"loss": ()})["loss"])
    after = float(cm_run(cm1, "train", {IMAGE: xb, LABEL: yb}, {"loss": ()})["loss"])
    check(before == reference["first_batch"]["loss_before"]
          and after == reference["first_batch"]["loss_after_one_step"],
          f"CompiledModel first batch {before}, {after} differ from the Interpreter's")
    n_test = len(x_test)

    def accuracy(model):
        p = cm_run(model, "infer", {IMAGE: x_test}, {"probabilities": (n_test, 10)})
        p = p["probabilities"]
        return float(np.mean(p.argmax(1) == y_test.argmax(1))), p

    rng = np.random.default_rng(SEED)
    t0 = time.perf_counter()
    for _ in range(EPOCHS):
        for b in batches(len(x_train), rng):
            cm_run(cm, "train", {IMAGE: x_train[b], LABEL: y_train[b]}, {"loss": ()})
    seconds = (time.perf_counter() - t0) / EPOCHS
    acc, probs = accuracy(cm)
    check(acc >= MIN_TFLITE_ACCURACY, f"CompiledModel accuracy {acc}")
    weights = cm_run(cm, "save", {}, WEIGHT_SHAPES)
    cm2 = CompiledModel.from_file(path)
    a_fresh, _ = accuracy(cm2)
    cm_run(cm2, "restore", weights, WEIGHT_SHAPES)
    a_rest, p_rest = accuracy(cm2)
    check(a_rest == acc and np.array_equal(p_rest, probs), "CompiledModel restore differs")
    return {"signature_order": order, "first_batch": {"loss_before": before,
                                                      "loss_after_one_step": after},
            "final_test_accuracy": round(acc, 5),
            "same_as_interpreter": acc == reference["epochs"][-1]["test_accuracy_exact"],
            "fresh_test_accuracy": round(a_fresh, 5), "restored_test_accuracy": round(a_rest, 5),
            "seconds_per_epoch": round(seconds, 4)}


# --------------------------------------------------------------------------

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    out = args.out.resolve()
    np.random.seed(SEED)
    tf.random.set_seed(SEED)
    v1.logging.set_verbosity(v1.logging.ERROR)

    out.mkdir(parents=True, exist_ok=True)
    for name in ("data", f"{TF_BUNDLE}.tiobundle", f"{TF_IMAGE_BUNDLE}.tiobundle",
                 f"{TFLITE_BUNDLE}.tiobundle"):
        shutil.rmtree(out / name, ignore_errors=True)
    (out / "data").mkdir()

    try:
        pixels, labels = load_pixels()
        train_idx, test_idx = split(labels)
        print(f"data: {len(train_idx)} train, {len(test_idx)} test")
        write_data(out, pixels, labels, train_idx, test_idx)
        x_train, y_train = to_float(pixels[train_idx]), one_hot(labels[train_idx])
        x_test, y_test = to_float(pixels[test_idx]), one_hot(labels[test_idx])
        init = initial_weights()

        tflite_model = convert_tflite(init)   # eager; before disabling eager execution
        write_tflite_bundle(out, tflite_model)
        results = {"tflite": verify_tflite(out, init, x_train, y_train, x_test, y_test)}
        results["tflite_compiled_model"] = verify_tflite_compiled_model(
            out, x_train, y_train, x_test, y_test, results["tflite"])
        results["tflite"]["epochs"][-1].pop("test_accuracy_exact")

        write_tf_bundle(out, TF_BUNDLE, init, image_input=False)
        write_tf_bundle(out, TF_IMAGE_BUNDLE, init, image_input=True)
        first = (x_train[:BATCH_SIZE], y_train[:BATCH_SIZE])   # train.json items 0..31
        results["tensorflow"] = verify_tf_bundle(out, TF_BUNDLE, x_train, y_train,
                                                 x_test, y_test, first)
        # The image bundle trains on the PNG folders, read as `tensorio train` would.
        xi_train, yi_train = read_image_folder(out / "data" / "train-images")
        xi_test, yi_test = read_image_folder(out / "data" / "test-images")
        check(len(xi_train) == len(train_idx) and len(xi_test) == len(test_idx),
              "image folder counts")
        results["tensorflow_image"] = verify_tf_bundle(out, TF_IMAGE_BUNDLE, xi_train,
                                                       yi_train, xi_test, yi_test,
                                                       (first[0].reshape(-1, 8, 8, 1), first[1]))
    except CheckFailed as e:
        print(f"VERIFICATION FAILED: {e}")
        return 1

    versions = {"tensorflow": tf.__version__, "numpy": np.__version__,
                "scikit-learn": __import__("sklearn").__version__,
                "ai-edge-litert": __import__("importlib.metadata").metadata.version("ai-edge-litert")}
    expected = {"seed": SEED, "epochs": EPOCHS, "batch_size": BATCH_SIZE,
                "learning_rate": LEARNING_RATE, "train_items": int(len(train_idx)),
                "test_items": int(len(test_idx)), "versions": versions}
    for k, r in results.items():
        expected[k] = copy.deepcopy(r)
        expected[k].pop("seconds_per_epoch", None)
        for e in expected[k].get("epochs", []):
            e.pop("seconds")
    (out / EXPECTED_JSON).write_text(dump_json(expected) + "\n")

    for k, r in results.items():
        if k == "tflite_compiled_model":
            print(f"\n{k}: {r}")
            continue
        print(f"\n{k}: initial test accuracy {r['initial_test_accuracy']}; first batch {r['first_batch']}")
        print("  epoch  train_loss  test_acc  seconds")
        for e in r["epochs"]:
            print(f"  {e['epoch']:5d}  {e['train_loss']:.5f}  {e['test_accuracy']:.4f}  "
                  f"{e.get('seconds', float('nan')):.4f}")
        if "saver_def" in r:
            print(f"  saver_def: {r['saver_def']}, checkpoint files {r['checkpoint_files']}")
    t = results["tflite"]
    print(f"\ntflite: {t['size_bytes']} bytes")
    for sg, o in t["ops"].items():
        print(f"  {sg}: {' '.join(o)}")
    print(f"tflite, shuffle seeds {t['other_shuffles']}")
    print(f"signature list: {t['signature_list']}")
    for key, d in t["signatures"].items():
        for side in ("inputs", "outputs"):
            for n, info in d[side].items():
                print(f"  {key} {side[:-1]} {n}: {info['dtype']} shape {info['shape']} "
                      f"shape_signature {info['shape_signature']}")
    print("\nall checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
