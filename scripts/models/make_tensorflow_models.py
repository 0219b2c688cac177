#!/usr/bin/env python3
"""Generate the TensorFlow (SavedModel) test bundles used by TensorIO for
Swift's ``tensorflow`` backend tests, then reload every SavedModel from disk
with ``tf.compat.v1.saved_model.loader.load`` and check its outputs.

Usage (from the repository root)::

    python3 -m venv .venv-models
    .venv-models/bin/pip install -r scripts/models/requirements.txt
    .venv-models/bin/python scripts/models/make_tensorflow_models.py [--out DIR]

``--out`` defaults to ``Tests/Fixtures/TensorFlowBundles``.  Every bundle this
script knows is deleted and rewritten; anything else there (README.md) is
left alone.

The graphs are TF1-style (``tf.Graph``, ``tf.compat.v1.placeholder`` with
explicit names, ``tf.identity(..., name=...)`` outputs), so that the
model.json layer names are short, stable graph op names (tensor ``NAME:0``).
Each bundle holds ``model.json`` and ``predict/``, a SavedModel written with
``tf.compat.v1.saved_model.Builder``: a meta graph tagged ``serve`` and, for
trainable bundles, the same graph again tagged ``train``.  Bundles with
variables carry a ``saver_def`` (an explicit ``tf.compat.v1.train.Saver``,
V2 format, sharded) whose tensor names are printed at the end.

The script exits non-zero (with a table of failed checks) if any reloaded
model does not produce the expected outputs, or if training does not lower
the loss as expected.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

v1 = tf.compat.v1

SCRIPT_DIR = Path(__file__).resolve().parent
REPO_ROOT = SCRIPT_DIR.parent.parent
DEFAULT_OUT = REPO_ROOT / "Tests" / "Fixtures" / "TensorFlowBundles"

SEED = 20240601
MODEL_DIR = "predict"          # model.json "model.file": the SavedModel folder
SERVE_TAG = "serve"
TRAIN_TAG = "train"

NP_DTYPES = {"float32": np.float32, "int32": np.int32, "int64": np.int64,
             "uint8": np.uint8}
TF_DTYPES = {"float32": tf.float32, "int32": tf.int32, "int64": tf.int64,
             "uint8": tf.uint8}


# --------------------------------------------------------------------------
# model.json helpers (same key order and layout as make_test_models.py)
# --------------------------------------------------------------------------

def layer(name, shape, dtype=None):
    d = {"name": name, "type": "array"}
    if dtype is not None:
        d["dtype"] = dtype
    d["shape"] = list(shape)
    return d


def model_json(*, name, details, id_, inputs, outputs, modes=("predict",),
               placeholders=None, placeholders_key="placeholders",
               train_ops=None, train_inputs=None, train_outputs=None):
    d = {
        "name": name,
        "details": details,
        "id": id_,
        "version": "1",
        "author": "doc.ai",
        "license": "Apache 2",
        "model": {"file": MODEL_DIR, "backend": "tensorflow",
                  "quantized": False, "modes": list(modes)},
        "inputs": inputs,
        "outputs": outputs,
    }
    if placeholders is not None:
        d[placeholders_key] = placeholders
    if train_ops is not None:
        d["train"] = {"ops": list(train_ops)}
        # Layers only training feeds and fetches; prediction leaves them out.
        if train_inputs:
            d["train"]["inputs"] = list(train_inputs)
        if train_outputs:
            d["train"]["outputs"] = list(train_outputs)
    return d


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
# Graphs.  Each builder runs inside a fresh tf.Graph and returns
# (inputs: {name: tensor}, outputs: {name: tensor}).
# --------------------------------------------------------------------------

def ph(dtype, shape, name):
    return v1.placeholder(TF_DTYPES[dtype], shape=shape, name=name)


def g_number(dtype="float32", shape=(1,)):
    def build():
        x = ph(dtype, list(shape), "input")
        t = TF_DTYPES[dtype]
        y = tf.identity(x * tf.constant(10, t) + tf.constant(5, t), name="output")
        return {"input": x}, {"output": y}
    return build


def g_vectors():
    x = ph("float32", [4], "input")
    y = tf.identity(x + tf.constant([1, 0, 1, 0], tf.float32), name="output")
    return {"input": x}, {"output": y}


def g_2_in_2_out_vectors(batch=1):
    x = ph("float32", [batch, 4], "input1")
    y = ph("float32", [batch, 4], "input2")
    a = tf.constant([[1], [0], [1], [0]], tf.float32)
    b = tf.constant([[0], [1], [0], [1]], tf.float32)
    s1 = tf.matmul(x, a)
    s2 = tf.matmul(y, b)
    o1 = tf.identity(s1 * s2, name="output1")
    o2 = tf.identity(s1 + s2, name="output2")
    return {"input1": x, "input2": y}, {"output1": o1, "output2": o2}


def g_2_in_2_out_matrices():
    x = ph("float32", [4, 4], "input1")
    y = ph("float32", [4, 4], "input2")
    w = tf.constant([[1, 0, 1, 0], [0, 1, 0, 1]] * 2, tf.float32)
    b = 1.0 - w
    xw = tf.matmul(x, w, transpose_b=True)
    yb = tf.matmul(y, b, transpose_b=True)
    o1 = tf.identity(xw * yb, name="output1")
    o2 = tf.identity(xw + yb, name="output2")
    return {"input1": x, "input2": y}, {"output1": o1, "output2": o2}


def g_tensors():
    x = ph("float32", [3, 3, 3], "input")
    add = np.stack([np.full((3, 3), i + 1, np.float32) for i in range(3)])
    y = tf.identity(x + tf.constant(add), name="output")
    return {"input": x}, {"output": y}


def g_uint8():
    x = ph("uint8", [4], "input")
    y = tf.identity(x + tf.constant(1, tf.uint8), name="output")
    return {"input": x}, {"output": y}


LINEAR_INIT_W = 0.0
LINEAR_INIT_B = 0.0


def g_trainable_linear():
    """prediction = w·x + b; loss = mean((prediction - y)²) (a true scalar);
    train = GradientDescentOptimizer(learning_rate).minimize(loss)."""
    x = ph("float32", [None, 1], "x")
    y = ph("float32", [None, 1], "y")
    lr = v1.placeholder(tf.float32, shape=[], name="learning_rate")
    w = v1.get_variable("w", shape=[], dtype=tf.float32, use_resource=True,
                        initializer=v1.constant_initializer(LINEAR_INIT_W))
    b = v1.get_variable("b", shape=[], dtype=tf.float32, use_resource=True,
                        initializer=v1.constant_initializer(LINEAR_INIT_B))
    pred = tf.identity(w * x + b, name="prediction")
    loss = tf.identity(tf.reduce_mean(tf.square(pred - y)), name="loss")
    v1.train.GradientDescentOptimizer(lr).minimize(loss, name="train")
    return ({"x": x, "y": y, "learning_rate": lr},
            {"loss": loss, "prediction": pred})


# --------------------------------------------------------------------------
# Bundle descriptions
# --------------------------------------------------------------------------

@dataclass
class Case:
    """feeds -> expected outputs (exact for integers, 1e-6 relative for floats)."""
    feeds: dict
    expected: dict


@dataclass
class TFBundle:
    dirname: str
    build: Callable
    json: dict
    cases: list = field(default_factory=list)
    trainable: bool = False


def matrices_case():
    x = np.array([[1, 2, 3, 4]], np.float32) * (10.0 ** np.arange(4, dtype=np.float32))[:, None]
    y = np.array([[5, 6, 7, 8]], np.float32) * (10.0 ** np.arange(4, dtype=np.float32))[:, None]
    s = 10.0 ** np.arange(4)[:, None]
    o1 = np.array([[56, 72, 56, 72]]) * s * s
    o2 = np.full((4, 4), 18.0) * s
    return Case({"input1": x, "input2": y}, {"output1": o1, "output2": o2})


def tensors_case():
    x = np.zeros((3, 3, 3), np.float32)
    for i in range(3):
        for j in range(3):
            for k in range(3):
                x[i, j, k] = (3 * j + k + 1) * 10 ** i
    return Case({"input": x}, {"output": x + np.arange(1, 4)[:, None, None]})


def number_bundle(dtype):
    suffix = "" if dtype == "float32" else f"_{dtype}"
    ident = f"tf_1_in_1_out_number{suffix}_test"
    dt = None if dtype == "float32" else dtype
    return TFBundle(
        f"{ident}.tiobundle", g_number(dtype),
        model_json(name="1 in 1 out number test" + (f" ({dtype})" if dt else ""),
                   details=f"y = 10x + 5, {dtype} in and out (TensorFlow SavedModel)",
                   id_=ident, inputs=[layer("input", [1], dt)],
                   outputs=[layer("output", [1], dt)]),
        [Case({"input": np.array([2], NP_DTYPES[dtype])}, {"output": [25]}),
         Case({"input": np.array([-3], NP_DTYPES[dtype])}, {"output": [-25]})])


LINEAR_BATCH_X = [[1.0], [2.0], [3.0], [4.0]]
LINEAR_BATCH_Y = [[3.0], [5.0], [7.0], [9.0]]   # y = 2x + 1


def trainable_bundle(ident, placeholders_key):
    return TFBundle(
        f"{ident}.tiobundle", g_trainable_linear,
        model_json(
            name="Trainable linear regression test",
            details="prediction = w*x + b (w, b start at 0); loss = mean squared "
                    "error; train = gradient descent with a learning_rate placeholder",
            id_=ident, modes=("predict", "train"),
            inputs=[layer("x", [-1, 1]), layer("y", [-1, 1])],
            outputs=[layer("loss", [1]), layer("prediction", [-1, 1])],
            placeholders=[layer("learning_rate", [1])],
            placeholders_key=placeholders_key,
            train_ops=["train"], train_inputs=["y"], train_outputs=["loss"]),
        [Case({"x": np.array([[2.0], [-1.0]], np.float32)},
              {"prediction": [[0.0], [0.0]]})],
        trainable=True)


def make_bundles() -> list[TFBundle]:
    mj = model_json
    return [
        number_bundle("float32"),
        number_bundle("int32"),
        number_bundle("int64"),
        TFBundle("tf_1_in_1_out_vectors_test.tiobundle", g_vectors,
                 mj(name="1 in 1 out vectors test", details="y = x + [1,0,1,0]",
                    id_="tf_1_in_1_out_vectors_test",
                    inputs=[layer("input", [4])], outputs=[layer("output", [4])]),
                 [Case({"input": np.array([1, 2, 3, 4], np.float32)},
                       {"output": [2, 2, 4, 4]})]),
        TFBundle("tf_2_in_2_out_vectors_test.tiobundle", g_2_in_2_out_vectors,
                 mj(name="2 in 2 out vectors test",
                    details="s1 = input1·[1,0,1,0], s2 = input2·[0,1,0,1]; "
                            "output1 = s1·s2, output2 = s1+s2",
                    id_="tf_2_in_2_out_vectors_test",
                    inputs=[layer("input1", [1, 4]), layer("input2", [1, 4])],
                    outputs=[layer("output1", [1, 1]), layer("output2", [1, 1])]),
                 [Case({"input1": np.array([[1, 2, 3, 4]], np.float32),
                        "input2": np.array([[10, 20, 30, 40]], np.float32)},
                       {"output1": [[240]], "output2": [[64]]})]),
        TFBundle("tf_2_in_2_out_matrices_test.tiobundle", g_2_in_2_out_matrices,
                 mj(name="2 in 2 out matrices test",
                    details="output1 = (X·Wᵀ) ⊙ (Y·Bᵀ), output2 = X·Wᵀ + Y·Bᵀ",
                    id_="tf_2_in_2_out_matrices_test",
                    inputs=[layer("input1", [4, 4]), layer("input2", [4, 4])],
                    outputs=[layer("output1", [4, 4]), layer("output2", [4, 4])]),
                 [matrices_case()]),
        TFBundle("tf_1_in_1_out_tensors_test.tiobundle", g_tensors,
                 mj(name="1 in 1 out tensors test",
                    details="slice i of a [3,3,3] tensor gets + (i+1)",
                    id_="tf_1_in_1_out_tensors_test",
                    inputs=[layer("input", [3, 3, 3])],
                    outputs=[layer("output", [3, 3, 3])]),
                 [tensors_case()]),
        TFBundle("tf_batch_number_test.tiobundle", g_number("float32", (None, 1)),
                 mj(name="Batch number test", details="y = 10x + 5 on a batch",
                    id_="tf_batch_number_test",
                    inputs=[layer("input", [-1, 1])], outputs=[layer("output", [-1, 1])]),
                 [Case({"input": np.array([[2]], np.float32)}, {"output": [[25]]}),
                  Case({"input": np.array([[1], [2], [3]], np.float32)},
                       {"output": [[15], [25], [35]]})]),
        TFBundle("tf_batch_2_in_2_out_vectors_test.tiobundle",
                 lambda: g_2_in_2_out_vectors(None),
                 mj(name="Batch 2 in 2 out vectors test",
                    details="2_in_2_out_vectors on a batch",
                    id_="tf_batch_2_in_2_out_vectors_test",
                    inputs=[layer("input1", [-1, 4]), layer("input2", [-1, 4])],
                    outputs=[layer("output1", [-1, 1]), layer("output2", [-1, 1])]),
                 [Case({"input1": np.array([[1, 2, 3, 4]], np.float32),
                        "input2": np.array([[10, 20, 30, 40]], np.float32)},
                       {"output1": [[240]], "output2": [[64]]}),
                  Case({"input1": np.array([[1, 2, 3, 4], [2, 2, 2, 2], [0, 1, 0, 1]], np.float32),
                        "input2": np.array([[10, 20, 30, 40], [1, 1, 1, 1], [5, 0, 5, 0]], np.float32)},
                       {"output1": [[240], [8], [0]], "output2": [[64], [6], [0]]})]),
        TFBundle("tf_uint8_test.tiobundle", g_uint8,
                 mj(name="uint8 test", details="y = x + 1, uint8 in and out (wraps at 255)",
                    id_="tf_uint8_test",
                    inputs=[layer("input", [4], "uint8")],
                    outputs=[layer("output", [4], "uint8")]),
                 [Case({"input": np.array([0, 1, 127, 254], np.uint8)},
                       {"output": [1, 2, 128, 255]})]),
        trainable_bundle("tf_trainable_linear_test", "placeholders"),
        trainable_bundle("tf_trainable_placholders_test", "placholders"),
    ]


# --------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------

def write_bundle(out: Path, b: TFBundle) -> None:
    bdir = out / b.dirname
    if bdir.exists():
        shutil.rmtree(bdir)
    bdir.mkdir(parents=True)
    graph = tf.Graph()
    with graph.as_default():
        v1.set_random_seed(SEED)
        inputs, outputs = b.build()
        has_vars = bool(v1.global_variables())
        # An explicit saver, shared by every meta graph, so the saver_def
        # names are the canonical "save/..." ones (the builder would create a
        # second "save_1/..." saver for a second meta graph otherwise).
        saver = (v1.train.Saver(sharded=True, write_version=v1.train.SaverDef.V2)
                 if has_vars else None)
        with v1.Session(graph=graph) as sess:
            sess.run(v1.global_variables_initializer())
            builder = v1.saved_model.Builder(str(bdir / MODEL_DIR))
            sig_in = {k: v1.saved_model.utils.build_tensor_info(t)
                      for k, t in inputs.items()}
            sig_out = {k: v1.saved_model.utils.build_tensor_info(t)
                       for k, t in outputs.items()}
            predict_in = {k: v for k, v in sig_in.items()
                          if not b.trainable or k == "x"}
            predict_out = {k: v for k, v in sig_out.items()
                           if not b.trainable or k == "prediction"}
            serving = v1.saved_model.signature_def_utils.build_signature_def(
                predict_in, predict_out, v1.saved_model.signature_constants.PREDICT_METHOD_NAME)
            sigs = {"serving_default": serving}
            builder.add_meta_graph_and_variables(
                sess, [SERVE_TAG], signature_def_map=sigs, saver=saver,
                strip_default_attrs=True)
            if b.trainable:
                train_sig = v1.saved_model.signature_def_utils.build_signature_def(
                    sig_in, {"loss": sig_out["loss"]}, "tensorflow/supervised/training")
                builder.add_meta_graph(
                    [TRAIN_TAG], signature_def_map={"train": train_sig,
                                                    "serving_default": serving},
                    saver=saver, strip_default_attrs=True)
            builder.save(as_text=False)
    (bdir / "model.json").write_text(dump_json(b.json) + "\n")


# --------------------------------------------------------------------------
# Verification (reload from disk)
# --------------------------------------------------------------------------

class CheckFailed(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise CheckFailed(msg)


def compare(name, got, expected):
    got = np.asarray(got)
    expected = np.asarray(expected)
    check(got.shape == expected.shape, f"{name}: shape {got.shape} != {expected.shape}")
    if np.issubdtype(got.dtype, np.integer):
        check(np.array_equal(got, expected.astype(got.dtype)),
              f"{name}: {got.tolist()} != {expected.tolist()}")
    else:
        check(np.allclose(got, expected, rtol=1e-6, atol=0),
              f"{name}: {got.tolist()} != {expected.tolist()}")


def load(bdir: Path, tag: str):
    graph = tf.Graph()
    sess = v1.Session(graph=graph)
    with graph.as_default():
        meta = v1.saved_model.loader.load(sess, [tag], str(bdir / MODEL_DIR))
    return graph, sess, meta


def t(graph, name):
    return graph.get_tensor_by_name(name + ":0")


def verify_bundle(out: Path, b: TFBundle, report: dict) -> str:
    bdir = out / b.dirname
    mj = json.loads((bdir / "model.json").read_text())
    check(mj["model"]["file"] == MODEL_DIR and (bdir / MODEL_DIR / "saved_model.pb").is_file(),
          "model.file / saved_model.pb")
    tags = [SERVE_TAG] + ([TRAIN_TAG] if b.trainable else [])
    for tag in tags:
        graph, sess, meta = load(bdir, tag)
        with sess:
            # every layer names a graph op whose tensor has the layer's dtype/shape
            for lyr in mj["inputs"] + mj["outputs"] + mj.get("placeholders", mj.get("placholders", [])):
                ten = t(graph, lyr["name"])
                check(ten.dtype == TF_DTYPES[lyr.get("dtype", "float32")],
                      f"{tag}: {lyr['name']} dtype {ten.dtype.name}")
                shape = [-1 if d is None else d for d in ten.shape.as_list()]
                want = lyr["shape"]
                if lyr["name"] in ("loss", "learning_rate"):
                    want = []     # true scalars, declared [1] in model.json
                check(shape == want, f"{tag}: {lyr['name']} shape {shape} != {want}")
            for c in b.cases:
                feeds = {t(graph, k): v for k, v in c.feeds.items()}
                got = sess.run({k: t(graph, k) for k in c.expected}, feeds)
                for k, v in c.expected.items():
                    compare(f"{tag}: {k}", got[k], v)
                    check(got[k].dtype == c.feeds[next(iter(c.feeds))].dtype,
                          f"{tag}: {k} dtype {got[k].dtype}")
            sd = meta.saver_def
            if b.trainable:
                check(meta.HasField("saver_def"), f"{tag}: no saver_def")
                report["saver_def"] = (sd.filename_tensor_name, sd.save_tensor_name,
                                       sd.restore_op_name)
                if tag == TRAIN_TAG:
                    verify_training(graph, sess, report)
            else:
                check(not meta.HasField("saver_def"), f"{tag}: unexpected saver_def")
    report["tags"] = tags
    return f"tags {tags}; {len(b.cases)} case(s)"


def verify_training(graph, sess, report):
    x = np.array(LINEAR_BATCH_X, np.float32)
    y = np.array(LINEAR_BATCH_Y, np.float32)
    loss_t, pred_t = t(graph, "loss"), t(graph, "prediction")
    train_op = graph.get_operation_by_name("train")
    feeds = {t(graph, "x"): x, t(graph, "y"): y}
    lr_t = t(graph, "learning_rate")

    def loss():
        return float(sess.run(loss_t, feeds))

    l0 = loss()
    check(l0 == 41.0, f"initial loss {l0} != 41")
    # learning rate 0: the train op runs, the loss stays the same
    _, fetched = sess.run([train_op, loss_t], {**feeds, lr_t: np.float32(0.0)})
    check(float(fetched) == l0 and loss() == l0, "learning rate 0 changed the loss")
    # one step with learning rate 0.1: the loss fetched in the same run is
    # the loss before the step
    _, fetched = sess.run([train_op, loss_t], {**feeds, lr_t: np.float32(0.1)})
    check(float(fetched) == l0, f"loss fetched with the train op {fetched} != {l0}")
    w = float(sess.run(graph.get_tensor_by_name("w/Read/ReadVariableOp:0")))
    b = float(sess.run(graph.get_tensor_by_name("b/Read/ReadVariableOp:0")))
    l1 = loss()
    check(abs(w - 3.5) < 1e-6 and abs(b - 1.2) < 1e-6, f"after one step w={w} b={b}")
    check(abs(l1 - 18.415) < 1e-4 and l1 < l0, f"loss after one step {l1}")
    pred = sess.run(pred_t, {t(graph, "x"): np.array([[2.0], [-1.0]], np.float32)})
    losses = [l0, l1]
    for _ in range(8):
        sess.run(train_op, {**feeds, lr_t: np.float32(0.1)})
        losses.append(loss())
    check(all(a > b_ for a, b_ in zip(losses, losses[1:])), f"loss not decreasing {losses}")
    # 200 more steps: converges towards w = 2, b = 1
    for _ in range(200):
        sess.run(train_op, {**feeds, lr_t: np.float32(0.05)})
    w_end = float(sess.run(graph.get_tensor_by_name("w/Read/ReadVariableOp:0")))
    b_end = float(sess.run(graph.get_tensor_by_name("b/Read/ReadVariableOp:0")))
    check(abs(w_end - 2) < 0.05 and abs(b_end - 1) < 0.15, f"did not converge: w={w_end} b={b_end}")
    # Checkpoint round trip through the saver_def names, as the Swift side
    # does it: feed the prefix to filename_tensor_name and fetch
    # save_tensor_name; later feed it again and run restore_op_name.
    meta_sd = report["saver_def"]
    ckpt_dir = Path(tempfile.mkdtemp(prefix="tio-tf-ckpt-"))
    try:
        prefix = str(ckpt_dir / "checkpoint")
        saved = sess.run(meta_sd[1], {meta_sd[0]: prefix})
        check(saved == prefix.encode(), f"save returned {saved!r}")
        files = sorted(p.name for p in ckpt_dir.iterdir())
        check(files == ["checkpoint.data-00000-of-00001", "checkpoint.index"],
              f"checkpoint files {files}")
        loss_saved = loss()
        sess.run(train_op, {**feeds, lr_t: np.float32(0.5)})   # disturb
        check(loss() != loss_saved, "disturbing step did not change the loss")
        sess.run(meta_sd[2], {meta_sd[0]: prefix})
        check(loss() == loss_saved, "restore did not bring the loss back")
        report["ckpt_files"] = files
    finally:
        shutil.rmtree(ckpt_dir, ignore_errors=True)
    report.update(l0=l0, l1=l1, w1=w, b1=b, pred1=pred.ravel().tolist(),
                  losses=losses, w_end=w_end, b_end=b_end, loss_end=loss())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    out = args.out.resolve()
    np.random.seed(SEED)
    tf.random.set_seed(SEED)
    v1.disable_eager_execution()
    v1.logging.set_verbosity(v1.logging.ERROR)

    bundles = make_bundles()
    out.mkdir(parents=True, exist_ok=True)
    for b in bundles:
        write_bundle(out, b)

    rows, failures, reports = [], 0, {}
    for b in bundles:
        report = reports.setdefault(b.dirname, {})
        try:
            rows.append((b.dirname, "PASS", verify_bundle(out, b, report)))
        except Exception as e:  # noqa: BLE001
            failures += 1
            rows.append((b.dirname, "FAIL", f"{type(e).__name__}: {e}"))

    width = max(len(r[0]) for r in rows)
    print(f"\nTensorFlow test bundles written to {out}\n")
    for name, status, detail in rows:
        print(f"{name.ljust(width)}  {status:4}  {detail}")
    for name in ("tf_trainable_linear_test.tiobundle", "tf_trainable_placholders_test.tiobundle"):
        r = reports.get(name, {})
        if "saver_def" in r:
            f, s, rst = r["saver_def"]
            print(f"\n{name} saver_def: filename_tensor_name={f} "
                  f"save_tensor_name={s} restore_op_name={rst}")
        if "l0" in r:
            print(f"  batch x={LINEAR_BATCH_X} y={LINEAR_BATCH_Y}: loss before {r['l0']!r}; "
                  f"after one step lr 0.1: w={r['w1']!r} b={r['b1']!r} loss={r['l1']!r}")
            print(f"  losses over 10 steps (lr 0.1): {[round(v, 6) for v in r['losses']]}")
            print(f"  checkpoint written by save_tensor_name: {r.get('ckpt_files')}")
            print(f"  after 200 more steps (lr 0.05): w={r['w_end']:.6f} b={r['b_end']:.6f} "
                  f"loss={r['loss_end']:.6g}")
    print(f"\n{len(rows) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
