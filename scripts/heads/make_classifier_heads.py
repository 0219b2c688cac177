#!/usr/bin/env python3
"""Writes the trainable classification heads `tensorio train-classifier` starts from (issue 40).

A head is softmax regression on a feature vector: probabilities = softmax(((x - mean) * scale) @ W + b + mask).
It is written twice, once per backend, and in two sizes (at most 64 and at most 2,048 features; 100 classes):

- TensorFlow Lite, in TensorFlow's on-device training format: signatures `train`, `infer`, `save`,
  `restore` over resource variables, with the backpropagation written out by hand so that the model needs
  only TFLite's builtin operators;
- TensorFlow, a TF1-graph SavedModel (tags "serve" and "train") whose `train` operation is the same step.

The training step (momentum gradient descent on the mean cross-entropy plus weight_decay / 2 * |W|^2, the
objective of scikit-learn's LogisticRegression divided by the item count when weight_decay = 1 / count) takes
the features, the one-hot labels and, as placeholders, learning_rate, momentum, weight_decay, class_mask (0 for a
class in use, -1e9 for an unused one), feature_mean and feature_scale (0 for padding); it writes the last
three into variables, so that `infer` (and a bundle's prediction) uses what the training used.

The files are not committed as such: they are mostly zeros (the initial weights), so this script writes them
into one Swift source, run-length encoded and in base64, with their sizes and SHA-256
(Sources/TensorIOVision/ClassifierTraining/ClassifierHeadTemplate+Files.swift). Before writing, it trains
each head in Python (ai_edge_litert's signature runners; a TensorFlow session) on a made-up problem and
checks every step's loss against NumPy's, the masking of unused classes and the save/restore round trip.

Usage (from the repository root; the environment is pinned in scripts/heads/requirements.txt):
    .venv-heads/bin/python scripts/heads/make_classifier_heads.py [--out FILE]
Two runs write the same bytes (Linux x86_64, tensorflow-cpu 2.21.0).
"""

import argparse
import base64
import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

v1 = tf.compat.v1

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "Sources/TensorIOVision/ClassifierTraining/ClassifierHeadTemplate+Files.swift"
CLASSES = 100
SIZES = [64, 2048]
MASKED = -1e9
PLACEHOLDERS = ["learning_rate", "momentum", "weight_decay", "class_mask", "feature_mean", "feature_scale"]
VARIABLES = ["weights", "bias", "weights_velocity", "bias_velocity", "class_mask", "feature_mean", "feature_scale"]


def fail(message):
    print(f"VERIFICATION FAILED: {message}", file=sys.stderr)
    raise SystemExit(1)


def check(condition, message):
    if not condition:
        fail(message)


def variable_shapes(features):
    return {"weights": [features, CLASSES], "bias": [CLASSES], "weights_velocity": [features, CLASSES],
            "bias_velocity": [CLASSES], "class_mask": [CLASSES], "feature_mean": [features],
            "feature_scale": [features]}


def initial_values(features):
    """Zeros, except a scale of one: an untrained head predicts uniformly, whatever the features."""
    return {name: (np.ones if name == "feature_scale" else np.zeros)(shape, np.float32)
            for name, shape in variable_shapes(features).items()}


def step(values, x, y, learning_rate, momentum, weight_decay, mask, mean, scale):
    """One training step, the same arithmetic the heads run: (new values, loss)."""
    scaled = (x - mean) * scale
    logits = scaled @ values["weights"] + values["bias"] + mask
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    n = np.float32(x.shape[0])
    loss = -(y * log_p).sum() / n + 0.5 * weight_decay * (values["weights"] ** 2).sum()
    d = (np.exp(log_p) - y) / n
    velocity_w = momentum * values["weights_velocity"] + scaled.T @ d + weight_decay * values["weights"]
    velocity_b = momentum * values["bias_velocity"] + d.sum(axis=0)
    new = dict(values)
    new.update(weights=values["weights"] - learning_rate * velocity_w, bias=values["bias"] - learning_rate * velocity_b,
               weights_velocity=velocity_w, bias_velocity=velocity_b, class_mask=mask, feature_mean=mean,
               feature_scale=scale)
    return new, np.float32(loss)


def head_math(x, y, hyper, variables):
    """The step in TensorFlow operators: the loss and the new value of every variable (the same order as
    VARIABLES), from the placeholders' values (not the variables') for the mask, mean and scale."""
    learning_rate, momentum, weight_decay, mask, mean, scale = hyper
    scaled = (x - mean) * scale
    logits = tf.matmul(scaled, variables["weights"]) + variables["bias"] + mask
    log_p = tf.nn.log_softmax(logits)
    n = tf.cast(tf.shape(x)[0], tf.float32)
    loss = -tf.reduce_sum(y * log_p) / n + 0.5 * weight_decay[0] * tf.reduce_sum(variables["weights"] * variables["weights"])
    d = (tf.exp(log_p) - y) / n
    velocity_w = momentum[0] * variables["weights_velocity"] + tf.matmul(scaled, d, transpose_a=True) + weight_decay[0] * variables["weights"]
    velocity_b = momentum[0] * variables["bias_velocity"] + tf.reduce_sum(d, axis=0)
    updates = {"weights": variables["weights"] - learning_rate[0] * velocity_w,
               "bias": variables["bias"] - learning_rate[0] * velocity_b,
               "weights_velocity": velocity_w, "bias_velocity": velocity_b,
               "class_mask": mask, "feature_mean": mean, "feature_scale": scale}
    return tf.reshape(loss, [1]), updates


def predict_math(x, variables):
    scaled = (x - variables["feature_mean"]) * variables["feature_scale"]
    return tf.nn.softmax(tf.matmul(scaled, variables["weights"]) + variables["bias"] + variables["class_mask"])


def placeholder_specs(features):
    return [tf.TensorSpec([1], tf.float32, name="learning_rate"), tf.TensorSpec([1], tf.float32, name="momentum"),
            tf.TensorSpec([1], tf.float32, name="weight_decay"), tf.TensorSpec([CLASSES], tf.float32, name="class_mask"),
            tf.TensorSpec([features], tf.float32, name="feature_mean"),
            tf.TensorSpec([features], tf.float32, name="feature_scale")]


# ----------------------------------------------------------------------------------------------------------
# TensorFlow Lite


def tflite_head(features) -> bytes:
    class Head(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = {name: tf.Variable(value, name=name) for name, value in initial_values(features).items()}

        @tf.function(input_signature=[tf.TensorSpec([None, features], tf.float32, name="features"),
                                      tf.TensorSpec([None, CLASSES], tf.float32, name="label")] + placeholder_specs(features))
        def train(self, features_, label, learning_rate, momentum, weight_decay, class_mask, feature_mean, feature_scale):
            loss, updates = head_math(features_, label, (learning_rate, momentum, weight_decay, class_mask,
                                                         feature_mean, feature_scale), self.v)
            for name in VARIABLES:
                self.v[name].assign(updates[name])
            return {"loss": loss}

        @tf.function(input_signature=[tf.TensorSpec([None, features], tf.float32, name="features")])
        def infer(self, features_):
            return {"probabilities": predict_math(features_, self.v)}

        @tf.function(input_signature=[])
        def save(self):
            return {name: tf.identity(self.v[name]) for name in VARIABLES}

        @tf.function(input_signature=[tf.TensorSpec(shape, tf.float32, name=name)
                                      for name, shape in variable_shapes(features).items()])
        def restore(self, weights, bias, weights_velocity, bias_velocity, class_mask, feature_mean, feature_scale):
            given = dict(weights=weights, bias=bias, weights_velocity=weights_velocity, bias_velocity=bias_velocity,
                         class_mask=class_mask, feature_mean=feature_mean, feature_scale=feature_scale)
            for name in VARIABLES:
                self.v[name].assign(given[name])
            return {name: tf.identity(self.v[name]) for name in VARIABLES}

    head = Head()
    keys = ["train", "infer", "save", "restore"]
    folder = Path(tempfile.mkdtemp(prefix="tio-head-"))
    try:
        tf.saved_model.save(head, str(folder / "saved"),
                            signatures={key: getattr(head, key).get_concrete_function() for key in keys})
        converter = tf.lite.TFLiteConverter.from_saved_model(str(folder / "saved"), signature_keys=keys)
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
        converter.experimental_enable_resource_variables = True
        return converter.convert()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def problem(features, seed):
    """A made-up problem: 3 classes in use of 100, `used` real features then zero padding."""
    rng = np.random.default_rng(seed)
    used = min(features, 20)
    x = np.zeros((24, features), np.float32)
    labels = np.arange(24) % 3
    centres = rng.normal(0, 2, (3, used)).astype(np.float32)
    x[:, :used] = centres[labels] + rng.normal(0, 1, (24, used)).astype(np.float32)
    y = np.zeros((24, CLASSES), np.float32)
    y[np.arange(24), labels * 7] = 1  # classes 0, 7 and 14
    mask = np.full(CLASSES, MASKED, np.float32)
    mask[[0, 7, 14]] = 0
    mean = np.zeros(features, np.float32)
    scale = np.zeros(features, np.float32)
    mean[:used] = x[:, :used].mean(axis=0)
    scale[:used] = 1 / x[:, :used].std(axis=0)
    return x, y, labels * 7, mask, mean, scale


def verify_tflite(model: bytes, features):
    from ai_edge_litert.interpreter import Interpreter

    interpreter = Interpreter(model_content=model)
    check(sorted(interpreter.get_signature_list()) == ["infer", "restore", "save", "train"],
          f"tflite {features}: signatures {interpreter.get_signature_list()}")
    train, infer = interpreter.get_signature_runner("train"), interpreter.get_signature_runner("infer")
    save, restore = interpreter.get_signature_runner("save"), interpreter.get_signature_runner("restore")
    x, y, labels, mask, mean, scale = problem(features, 1)
    hyper = dict(learning_rate=np.float32([0.05]), momentum=np.float32([0.9]), weight_decay=np.float32([1 / 24]))
    values = initial_values(features)
    untrained = infer(features=x)["probabilities"]
    check(np.allclose(untrained, 1 / CLASSES), f"tflite {features}: an untrained head is not uniform")
    for index in range(60):
        loss = train(features=x, label=y, class_mask=mask, feature_mean=mean, feature_scale=scale, **hyper)["loss"]
        values, expected = step(values, x, y, hyper["learning_rate"][0], hyper["momentum"][0],
                                hyper["weight_decay"][0], mask, mean, scale)
        check(abs(float(loss[0]) - float(expected)) <= 1e-4 * max(1, abs(float(expected))),
              f"tflite {features}: step {index} loss {loss[0]} against NumPy's {expected}")
    probabilities = infer(features=x)["probabilities"]
    check(np.all(probabilities.argmax(axis=1) == labels), f"tflite {features}: the trained head misclassifies")
    check(probabilities[:, [c for c in range(CLASSES) if c not in (0, 7, 14)]].max() == 0,
          f"tflite {features}: an unused class has a probability")
    saved = save()
    for name in VARIABLES:
        check(np.allclose(saved[name], values[name], atol=1e-4), f"tflite {features}: saved {name} differs from NumPy's")
    fresh = Interpreter(model_content=model)
    fresh.get_signature_runner("restore")(**{name: saved[name] for name in VARIABLES})
    again = fresh.get_signature_runner("infer")(features=x)["probabilities"]
    check(np.array_equal(again, probabilities), f"tflite {features}: restore does not give the same predictions")
    del restore
    return float(loss[0])


# ----------------------------------------------------------------------------------------------------------
# TensorFlow (TF1 graph SavedModel)


def tensorflow_head(features, folder: Path):
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, features], name="features")
        y = v1.placeholder(tf.float32, [None, CLASSES], name="label")
        hyper = [v1.placeholder(tf.float32, spec.shape, name=spec.name) for spec in placeholder_specs(features)]
        variables = {name: v1.get_variable(name, shape=shape, dtype=tf.float32, use_resource=True,
                                           initializer=v1.ones_initializer() if name == "feature_scale" else v1.zeros_initializer())
                     for name, shape in variable_shapes(features).items()}
        probabilities = tf.identity(predict_math(x, variables), name="probabilities")
        loss, updates = head_math(x, y, hyper, variables)
        loss = tf.identity(loss, name="loss")
        # Every new value is computed from the old ones before any is written.
        with tf.control_dependencies([loss] + [updates[name] for name in VARIABLES]):
            train = tf.group(*[variables[name].assign(updates[name]) for name in VARIABLES], name="train")
        del train
        saver = v1.train.Saver(sharded=True, write_version=v1.train.SaverDef.V2)
        info = v1.saved_model.utils.build_tensor_info
        signature = v1.saved_model.signature_def_utils.build_signature_def
        serving = signature({"features": info(x)}, {"probabilities": info(probabilities)},
                            v1.saved_model.signature_constants.PREDICT_METHOD_NAME)
        training = signature({"features": info(x), "label": info(y), **{h.op.name: info(h) for h in hyper}},
                             {"loss": info(loss)}, "tensorflow/supervised/training")
        with v1.Session(graph=graph) as session:
            session.run(v1.global_variables_initializer())
            builder = v1.saved_model.Builder(str(folder))
            builder.add_meta_graph_and_variables(session, ["serve"], signature_def_map={"serving_default": serving},
                                                 saver=saver, strip_default_attrs=True)
            builder.add_meta_graph(["train"], signature_def_map={"serving_default": serving, "train": training},
                                   saver=saver, strip_default_attrs=True)
            builder.save(as_text=False)


def verify_tensorflow(folder: Path, features):
    x, y, labels, mask, mean, scale = problem(features, 2)
    graph = tf.Graph()
    with v1.Session(graph=graph) as session:
        v1.saved_model.loader.load(session, ["train"], str(folder))
        feed = {"features:0": x, "label:0": y, "learning_rate:0": [0.05], "momentum:0": [0.9],
                "weight_decay:0": [1 / 24], "class_mask:0": mask, "feature_mean:0": mean, "feature_scale:0": scale}
        untrained = session.run("probabilities:0", {"features:0": x})
        check(np.allclose(untrained, 1 / CLASSES), f"tensorflow {features}: an untrained head is not uniform")
        values = initial_values(features)
        for index in range(60):
            loss, _ = session.run(["loss:0", "train"], feed)
            values, expected = step(values, x, y, np.float32(0.05), np.float32(0.9), np.float32(1 / 24), mask, mean, scale)
            check(abs(float(loss[0]) - float(expected)) <= 1e-4 * max(1, abs(float(expected))),
                  f"tensorflow {features}: step {index} loss {loss[0]} against NumPy's {expected}")
        probabilities = session.run("probabilities:0", {"features:0": x})
        check(np.all(probabilities.argmax(axis=1) == labels), f"tensorflow {features}: the trained head misclassifies")
        return float(loss[0])


# ----------------------------------------------------------------------------------------------------------
# The Swift source


def run_length_encode(data: bytes) -> bytes:
    """Records of [literal count][literal bytes][zero count], counts as unsigned LEB128; runs of zeros
    shorter than 16 bytes stay literal."""
    def varint(value):
        out = bytearray()
        while True:
            byte = value & 0x7F
            value >>= 7
            out.append(byte | (0x80 if value else 0))
            if not value:
                return bytes(out)

    out = bytearray()
    position, literal_start = 0, 0
    while position < len(data):
        if data[position] == 0:
            end = position
            while end < len(data) and data[end] == 0:
                end += 1
            if end - position >= 16 or end == len(data):
                out += varint(position - literal_start) + data[literal_start:position] + varint(end - position)
                literal_start = position = end
                continue
            position = end
        else:
            position += 1
    if literal_start < len(data):
        out += varint(len(data) - literal_start) + data[literal_start:] + varint(0)
    return bytes(out)


def run_length_decode(encoded: bytes) -> bytes:
    out, position = bytearray(), 0

    def varint():
        nonlocal position
        value, shift = 0, 0
        while True:
            byte = encoded[position]
            position += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value

    while position < len(encoded):
        count = varint()
        out += encoded[position:position + count]
        position += count
        out += bytes(varint())
    return bytes(out)


def swift_source(files):
    lines = [
        "// Generated by scripts/heads/make_classifier_heads.py: do not edit. The trainable classification heads",
        "// (docs/training-classifiers.md), run-length encoded (ClassifierHeadTemplate.decode) and in base64.",
        "",
        "extension ClassifierHeadTemplate {",
        "    /// Every file of every head: its path in the head's bundle folder, size, SHA-256 and encoded bytes.",
        "    static let files: [EncodedFile] = [",
    ]
    for (template, path), data in files.items():
        encoded = run_length_encode(data)
        check(run_length_decode(encoded) == data, f"{template}/{path}: the run-length code does not read back")
        text = base64.b64encode(encoded).decode()
        chunks = [text[i:i + 100] for i in range(0, len(text), 100)]
        lines.append(f"        EncodedFile(")
        lines.append(f"            template: \"{template}\", path: \"{path}\", size: {len(data)},")
        lines.append(f"            sha256: \"{hashlib.sha256(data).hexdigest()}\",")
        lines.append("            base64: \"\"\"")
        lines += ["            " + chunk for chunk in chunks]
        lines.append("            \"\"\"")
        lines.append("        ),")
    lines += ["    ]", "}", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    arguments = parser.parse_args()
    tf.random.set_seed(0)
    files = {}
    for features in SIZES:
        model = tflite_head(features)
        loss = verify_tflite(model, features)
        print(f"tflite head, {features} features: {len(model):,} bytes; made-up problem's loss after 60 steps {loss:.4f}")
        files[(f"tflite-{features}", "model.tflite")] = model
        folder = Path(tempfile.mkdtemp(prefix="tio-head-tf-"))
        try:
            saved = folder / "head"
            tensorflow_head(features, saved)
            loss = verify_tensorflow(saved, features)
            for path in sorted(p for p in saved.rglob("*") if p.is_file()):
                files[(f"tensorflow-{features}", "head/" + str(path.relative_to(saved)))] = path.read_bytes()
            size = sum(len(data) for (template, _), data in files.items() if template == f"tensorflow-{features}")
            print(f"tensorflow head, {features} features: {size:,} bytes; made-up problem's loss after 60 steps {loss:.4f}")
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    source = swift_source(files)
    arguments.out.parent.mkdir(parents=True, exist_ok=True)
    arguments.out.write_text(source)
    print(f"wrote {arguments.out} ({len(source):,} bytes)")


if __name__ == "__main__":
    main()
