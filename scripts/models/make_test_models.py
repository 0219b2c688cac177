#!/usr/bin/env python3
"""Generate the TensorFlow Lite test models and Tensor/IO bundles used by the
TensorIO for Swift test suite, then verify every generated bundle with the
LiteRT interpreter (``ai_edge_litert``).

Usage (from the repository root)::

    python3 -m venv .venv-models
    .venv-models/bin/pip install -r scripts/models/requirements.txt
    .venv-models/bin/python scripts/models/make_test_models.py [--out DIR]

``--out`` defaults to ``Tests/Fixtures/Bundles`` relative to the repository
root (computed from this file's location).  Every bundle this script knows is
deleted and rewritten; anything else in the output folder is left alone.

The script exits non-zero (with a table of failed checks) if any generated
model does not produce the expected outputs.
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

# Quieten TensorFlow's C++ logging before it is imported.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# Disable oneDNN graph rewrites so float results do not depend on the CPU.
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from ai_edge_litert import schema_py_generated as tfl_schema  # noqa: E402
from ai_edge_litert.interpreter import Interpreter  # noqa: E402

SCRIPT_DIR = Path(__file__).resolve().parent
REPO_ROOT = SCRIPT_DIR.parent.parent
DEFAULT_OUT = REPO_ROOT / "Tests" / "Fixtures" / "Bundles"

SEED = 20240601
SIGNATURE_KEY = "serving_default"

# model.json "dtype" string -> numpy dtype
DTYPES = {
    "uint8": np.uint8,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "float16": np.float16,
    "float32": np.float32,
    "float64": np.float64,
    "bool": np.bool_,
}


# --------------------------------------------------------------------------
# model.json helpers
# --------------------------------------------------------------------------

def layer(name, shape, *, type_="array", dtype=None, quantize=None,
          dequantize=None, labels=None, format_=None, normalize=None,
          denormalize=None):
    """A model.json layer description with keys in canonical order."""
    d = {"name": name, "type": type_}
    if dtype is not None:
        d["dtype"] = dtype
    d["shape"] = list(shape)
    if format_ is not None:
        d["format"] = format_
    if normalize is not None:
        d["normalize"] = normalize
    if denormalize is not None:
        d["denormalize"] = denormalize
    if quantize is not None:
        d["quantize"] = quantize
    if dequantize is not None:
        d["dequantize"] = dequantize
    if labels is not None:
        d["labels"] = labels
    return d


def model_json(*, name, details, id_, inputs, outputs, file="model.tflite",
               backend="tflite", quantized=False, modes=("predict",),
               placeholder=False):
    """A model.json document with keys in canonical order.

    ``backend=None`` / ``modes=None`` leave the key out entirely.
    """
    d = {
        "name": name,
        "details": details,
        "id": id_,
        "version": "1",
        "author": "doc.ai",
        "license": "Apache 2",
    }
    if placeholder:
        d["placeholder"] = True
    model = {"file": file}
    if backend is not None:
        model["backend"] = backend
    model["quantized"] = quantized
    if modes is not None:
        model["modes"] = list(modes)
    d["model"] = model
    d["inputs"] = inputs
    d["outputs"] = outputs
    return d


def dump_json(obj, indent=0):
    """Pretty-print JSON with 2-space indentation, keeping arrays of scalars
    (shapes, modes) on one line.  Key order is preserved."""
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


def image_layer(name, shape, format_, *, dtype=None, normalize=None,
                denormalize=None):
    """A model.json image layer ("type": "image", shape [h, w, c])."""
    return layer(name, shape, type_="image", dtype=dtype, format_=format_,
                 normalize=normalize, denormalize=denormalize)


STANDARD_0_1 = {"standard": "[0,1]"}
STANDARD_M1_1 = {"standard": "[-1,1]"}


# --------------------------------------------------------------------------
# Image layers: what TensorIO for Swift does between pixels and tensors
# (Sources/TensorIO/Transforms/Pixel{Normalizer,Denormalizer}.swift and
# TensorBinding+Images.swift), in float32 arithmetic, for an image that
# already has the layer's size.
# --------------------------------------------------------------------------

F32 = np.float32
COLOUR_INDEX = {"r": 0, "g": 1, "b": 2}           # index in an RGB pixel
FORMAT_COLOURS = {"RGB": "rgb", "BGR": "bgr", "GRAY": ""}


def _bias_by_colour(bias) -> dict:
    if bias is None:
        bias = 0
    if isinstance(bias, dict):
        return {c: F32(bias.get(c, 0)) for c in "rgb"}
    return {c: F32(bias) for c in "rgb"}


def pixel_normalizer(spec):
    """(scale, bias by colour) of a "normalize" entry: p * scale + bias."""
    if spec is None:
        return F32(1), _bias_by_colour(0)
    if "standard" in spec:
        return {"[0,1]": (F32(1) / F32(255), _bias_by_colour(0)),
                "[-1,1]": (F32(2) / F32(255), _bias_by_colour(-1))}[spec["standard"]]
    return F32(spec.get("scale", 1)), _bias_by_colour(spec.get("bias"))


def pixel_denormalizer(spec):
    """(scale, bias by colour) of a "denormalize" entry: (v + bias) * scale."""
    if spec is None:
        return F32(1), _bias_by_colour(0)
    if "standard" in spec:
        return {"[0,1]": (F32(255), _bias_by_colour(0)),
                "[-1,1]": (F32(127.5), _bias_by_colour(1))}[spec["standard"]]
    return F32(spec.get("scale", 1)), _bias_by_colour(spec.get("bias"))


def clamped_byte(values) -> np.ndarray:
    """Round half away from zero, clamp to 0...255 (NaN -> 0), like Swift's
    clampedByte."""
    v = np.nan_to_num(np.asarray(values, np.float64), nan=0.0)
    rounded = np.sign(v) * np.floor(np.abs(v) + 0.5)
    return np.clip(rounded, 0, 255).astype(np.uint8)


def _layer_channels(l):
    """The colour of each tensor channel ("r", "g", "b"), or None for GRAY."""
    colours = FORMAT_COLOURS[l["format"]]
    return list(colours) if colours else None


def image_to_tensor(l: dict, pixels) -> np.ndarray:
    """Tensor values TensorIO writes for ``pixels`` (uint8 RGB [h, w, 3], or
    gray [h, w] / [h, w, 1] for a GRAY layer) into image input layer ``l``.

    TensorIO turns a colour image into gray with libyuv's full-range luma
    (ARGBToJ400); the gray test images here are given as luma values directly
    (a colour image with R = G = B = v has luma v)."""
    pixels = np.asarray(pixels, np.uint8)
    h, w, c = l["shape"]
    dtype = DTYPES[l.get("dtype", "float32")]
    scale, bias = pixel_normalizer(l.get("normalize"))
    colours = _layer_channels(l)
    if colours is None:
        channels = pixels.reshape(h, w, 1)
        biases = np.array([(bias["r"] + bias["g"] + bias["b"]) / F32(3)], F32)
    else:
        check(pixels.shape == (h, w, 3), f"{l['name']}: pixels {pixels.shape}")
        channels = pixels[..., [COLOUR_INDEX[k] for k in colours]]
        biases = np.array([bias[k] for k in colours], F32)
    if dtype == np.uint8 and "normalize" not in l:
        return channels.copy()
    values = channels.astype(F32) * scale + biases
    if dtype == np.float32:
        return values.astype(F32)
    return clamped_byte(values)


def tensor_to_image(l: dict, values) -> np.ndarray:
    """Pixels TensorIO reads from image output layer ``l``: uint8 RGB
    [h, w, 3] (whatever the tensor's channel order), or [h, w, 1] for GRAY."""
    values = np.asarray(values)
    h, w, c = l["shape"]
    scale, bias = pixel_denormalizer(l.get("denormalize"))
    colours = _layer_channels(l)
    if colours is None:
        biases = np.array([(bias["r"] + bias["g"] + bias["b"]) / F32(3)], F32)
    else:
        biases = np.array([bias[k] for k in colours], F32)
    if values.dtype == np.uint8 and "denormalize" not in l:
        pixels = values.reshape(h, w, c)
    else:
        pixels = clamped_byte((values.astype(F32).reshape(h, w, c) + biases) * scale)
    if colours is None:
        return pixels
    order = [colours.index(k) for k in "rgb"]
    return pixels[..., order]


# --------------------------------------------------------------------------
# Model builders.  Every graph is a tf.function with a named input signature
# returning a dict, so that the TFLite SignatureDef input/output names equal
# the model.json layer names.
# --------------------------------------------------------------------------

def _convert(fn, trackable, configure: Callable | None = None) -> bytes:
    converter = tf.lite.TFLiteConverter.from_concrete_functions(
        [fn.get_concrete_function()], trackable)
    if configure is not None:
        configure(converter)
    return converter.convert()


def build_number(dtype=tf.float32) -> bytes:
    """output = 10 * input + 5, shape [1]."""
    module = tf.Module()

    @tf.function(input_signature=[tf.TensorSpec([1], dtype, name="input")])
    def f(x):
        return {"output": x * tf.constant(10, dtype) + tf.constant(5, dtype)}

    module.f = f
    return _convert(f, module)


def build_vectors() -> bytes:
    """output = input + [1, 0, 1, 0], shape [4]."""
    module = tf.Module()

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32, name="input")])
    def f(x):
        return {"output": x + tf.constant([1.0, 0.0, 1.0, 0.0])}

    module.f = f
    return _convert(f, module)


def build_2_in_2_out_vectors() -> bytes:
    """s1 = x . [1,0,1,0], s2 = y . [0,1,0,1]; output1 = s1*s2, output2 = s1+s2."""
    module = tf.Module()
    w1 = tf.constant([[1.0], [0.0], [1.0], [0.0]])
    w2 = tf.constant([[0.0], [1.0], [0.0], [1.0]])

    @tf.function(input_signature=[
        tf.TensorSpec([1, 4], tf.float32, name="input1"),
        tf.TensorSpec([1, 4], tf.float32, name="input2"),
    ])
    def f(x, y):
        s1 = tf.matmul(x, w1)
        s2 = tf.matmul(y, w2)
        return {"output1": s1 * s2, "output2": s1 + s2}

    module.f = f
    return _convert(f, module)


MATRIX_W = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1]],
                    dtype=np.float32)
MATRIX_B = (1.0 - MATRIX_W).astype(np.float32)


def build_2_in_2_out_matrices() -> bytes:
    """output1 = (X W^T) * (Y B^T) elementwise, output2 = X W^T + Y B^T."""
    module = tf.Module()
    w = tf.constant(MATRIX_W)
    b = tf.constant(MATRIX_B)

    @tf.function(input_signature=[
        tf.TensorSpec([4, 4], tf.float32, name="input1"),
        tf.TensorSpec([4, 4], tf.float32, name="input2"),
    ])
    def f(x, y):
        xw = tf.matmul(x, w, transpose_b=True)
        yb = tf.matmul(y, b, transpose_b=True)
        return {"output1": xw * yb, "output2": xw + yb}

    module.f = f
    return _convert(f, module)


def build_tensors() -> bytes:
    """Slice i of the first dimension gets +(i+1), shape [3,3,3]."""
    module = tf.Module()
    bias = tf.constant([1.0, 2.0, 3.0], shape=[3, 1, 1])

    @tf.function(input_signature=[tf.TensorSpec([3, 3, 3], tf.float32, name="input")])
    def f(x):
        return {"output": x + bias}

    module.f = f
    return _convert(f, module)


def quant_representative_dataset():
    rng = np.random.default_rng(SEED)
    # Make sure both ends of the range are seen, then uniform samples.
    yield [np.array([0.0, 1.0, 0.5, 0.25], dtype=np.float32)]
    for _ in range(200):
        yield [rng.uniform(0.0, 1.0, size=4).astype(np.float32)]


def build_quantized_uint8() -> bytes:
    """Full-integer quantized y = 0.5 * x + 0.25 with uint8 input and output."""
    module = tf.Module()

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32, name="input")])
    def f(x):
        return {"output": x * 0.5 + 0.25}

    module.f = f

    def configure(c):
        c.optimizations = [tf.lite.Optimize.DEFAULT]
        c.representative_dataset = quant_representative_dataset
        c.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        c.inference_input_type = tf.uint8
        c.inference_output_type = tf.uint8

    return _convert(f, module, configure)


def build_reordered_inputs() -> bytes:
    """Keras functional model: out = sum(in_a) + 100 * sum(in_b).

    Batch dimension is None (-1 in the .tflite shape_signature)."""
    tf.keras.utils.set_random_seed(SEED)
    keras = tf.keras
    in_a = keras.Input(shape=(2,), name="in_a")
    in_b = keras.Input(shape=(3,), name="in_b")
    sum_a = keras.ops.sum(in_a, axis=1, keepdims=True)
    sum_b = keras.ops.sum(in_b, axis=1, keepdims=True)
    out = keras.layers.Add(name="out")([sum_a, sum_b * 100.0])
    model = keras.Model(inputs=[in_a, in_b], outputs=out, name="reordered")

    @tf.function(input_signature=[
        tf.TensorSpec([None, 2], tf.float32, name="in_a"),
        tf.TensorSpec([None, 3], tf.float32, name="in_b"),
    ])
    def serve(a, b):
        return {"out": model([a, b])}

    return _convert(serve, model)


def build_output_types() -> bytes:
    """One float32 input, one output per dtype."""
    module = tf.Module()

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32, name="input")])
    def f(x):
        return {
            "as_int8": tf.cast(x, tf.int8),
            "as_int16": tf.cast(x, tf.int16),
            "as_bool": x > 0.0,
            "as_float16": tf.cast(x, tf.float16),
            # x * 0.5 rather than an identity: an identity output is folded
            # into the input tensor by the converter.
            "as_float32": x * 0.5,
        }

    module.f = f
    return _convert(f, module)


# ---- image models --------------------------------------------------------
# None of these may be a pure identity: the converter folds x * 1, x + 0 and
# tf.identity away and the output then *is* the input tensor (the
# verification checks that every output is a tensor of its own).

def build_pixelbuffer_identity() -> bytes:
    """output = (input + 1) - 1, shape [224, 224, 3] (ADD, SUB)."""
    module = tf.Module()

    @tf.function(input_signature=[
        tf.TensorSpec([224, 224, 3], tf.float32, name="input")])
    def f(x):
        return {"output": (x + 1.0) - 1.0}

    module.f = f
    return _convert(f, module)


def build_pixelbuffer_normalization() -> bytes:
    """output = 2 * input - 1, shape [224, 224, 3]: [0,1] -> [-1,1]."""
    module = tf.Module()

    @tf.function(input_signature=[
        tf.TensorSpec([224, 224, 3], tf.float32, name="input")])
    def f(x):
        return {"output": 2.0 * x - 1.0}

    module.f = f
    return _convert(f, module)


def build_channel_means() -> bytes:
    """output[c] = mean of tensor channel c over the image, [4,4,3] -> [3]."""
    module = tf.Module()

    @tf.function(input_signature=[tf.TensorSpec([4, 4, 3], tf.float32, name="input")])
    def f(x):
        return {"output": tf.reduce_mean(x, axis=[0, 1])}

    module.f = f
    return _convert(f, module)


def build_gray_invert() -> bytes:
    """output = 1 - input, shape [8, 8, 1]."""
    module = tf.Module()

    @tf.function(input_signature=[tf.TensorSpec([8, 8, 1], tf.float32, name="input")])
    def f(x):
        return {"output": 1.0 - x}

    module.f = f
    return _convert(f, module)


def build_uint8_passthrough() -> bytes:
    """uint8 [6, 4, 3] in, the same values out: uint8 -> int32 -> uint8.

    The "+ 0" is folded by the converter; the two CAST ops remain, so the
    output is a tensor of its own (tf.identity would alias the input)."""
    module = tf.Module()

    @tf.function(input_signature=[tf.TensorSpec([6, 4, 3], tf.uint8, name="input")])
    def f(x):
        return {"output": tf.cast(tf.cast(x, tf.int32) + 0, tf.uint8)}

    module.f = f
    return _convert(f, module)


def build_two_image_means() -> bytes:
    """output = [mean(left), mean(right)] over all elements, [4,4,3] x 2 -> [2]."""
    module = tf.Module()

    @tf.function(input_signature=[
        tf.TensorSpec([4, 4, 3], tf.float32, name="left"),
        tf.TensorSpec([4, 4, 3], tf.float32, name="right"),
    ])
    def f(left, right):
        return {"output": tf.stack([tf.reduce_mean(left), tf.reduce_mean(right)])}

    module.f = f
    return _convert(f, module)


def build_asymmetric() -> bytes:
    """output = max(input, 0) (RELU), shape [3, 2, 3]: the identity on pixel
    values 0...255 that the converter does not fold away."""
    module = tf.Module()

    @tf.function(input_signature=[tf.TensorSpec([3, 2, 3], tf.float32, name="input")])
    def f(x):
        return {"output": tf.maximum(x, 0.0)}

    module.f = f
    return _convert(f, module)


# --------------------------------------------------------------------------
# Bundle descriptions
# --------------------------------------------------------------------------

@dataclass
class Case:
    """One inference check: model.json layer name -> value."""
    inputs: dict
    outputs: dict
    # "exact": np.array_equal, "float": rel 1e-5, "close": rel 1e-5 or abs
    # 1e-6 (normalized pixels near 0), "quant": +-1 quantum after
    # dequantization, "quant_raw": +-1 in the raw integer domain.
    compare: str = "float"
    # Pass inputs as raw bytes (string layers) and decode outputs from bytes.
    as_bytes: bool = False
    # Image input layer name -> pixels (uint8 RGB [h, w, 3], or gray [h, w]
    # for GRAY layers). Turned into tensor values the way TensorIO does it
    # (image_to_tensor) and fed in addition to ``inputs``.
    images: dict = field(default_factory=dict)
    # Image output layer name -> the pixels expected after denormalization
    # (tensor_to_image: RGB [h, w, 3] or gray [h, w, 1]), compared exactly.
    images_out: dict = field(default_factory=dict)


@dataclass
class Bundle:
    dirname: str
    meta: dict | None = None          # model.json document (None: no file)
    json_text: str | None = None      # overrides meta serialization
    tflite: bytes | None = None       # model.tflite contents (None: no file)
    assets: dict = field(default_factory=dict)
    cases: list = field(default_factory=list)
    # "valid": parse + names + shapes + run; "unnamed": model.json names do
    # not match the signature, bind by order; custom checks for invalid ones.
    kind: str = "valid"
    notes: str = ""


def number_meta(id_, name="1 in 1 out numeric test", dtype=None, **kw):
    return model_json(
        name=name,
        details="Simple model with a single valued input and single valued output",
        id_=id_,
        inputs=[layer("input", [1], dtype=dtype)],
        outputs=[layer("output", [1], dtype=dtype)],
        **kw,
    )


def vectors_2_meta(id_, name, details, output2_labels=None):
    return model_json(
        name=name,
        details=details,
        id_=id_,
        inputs=[layer("input1", [1, 4]), layer("input2", [1, 4])],
        outputs=[layer("output1", [1, 1]),
                 layer("output2", [1, 1], labels=output2_labels)],
    )


def make_bundles() -> list[Bundle]:
    f32 = np.float32
    number = build_number(tf.float32)
    number_i32 = build_number(tf.int32)
    number_i64 = build_number(tf.int64)
    vectors = build_vectors()
    vectors_2 = build_2_in_2_out_vectors()
    matrices = build_2_in_2_out_matrices()
    tensors = build_tensors()
    quant = build_quantized_uint8()
    reordered = build_reordered_inputs()
    out_types = build_output_types()

    number_case = Case({"input": np.array([2], f32)},
                       {"output": np.array([25], f32)})
    vectors_case = Case({"input": np.array([1, 2, 3, 4], f32)},
                        {"output": np.array([2, 2, 4, 4], f32)})
    vectors_2_case = Case(
        {"input1": np.array([[1, 2, 3, 4]], f32),
         "input2": np.array([[10, 20, 30, 40]], f32)},
        {"output1": np.array([[240]], f32), "output2": np.array([[64]], f32)})

    scale = (10.0 ** np.arange(4, dtype=np.float64))[:, None]
    mx = (np.array([1, 2, 3, 4], np.float64) * scale).astype(f32)
    my = (np.array([5, 6, 7, 8], np.float64) * scale).astype(f32)
    matrices_case = Case(
        {"input1": mx, "input2": my},
        {"output1": (np.array([56, 72, 56, 72], np.float64) * scale ** 2).astype(f32),
         "output2": (np.full(4, 18.0) * scale).astype(f32)})

    tx = np.concatenate([np.arange(1, 10, dtype=f32).reshape(1, 3, 3) * 10.0 ** i
                         for i in range(3)]).astype(f32)
    tensors_case = Case(
        {"input": tx},
        {"output": (tx + np.array([1, 2, 3], f32).reshape(3, 1, 1)).astype(f32)})

    quant_in = np.array([0.0, 0.25, 0.5, 1.0], f32)
    reordered_inputs = {"in_a": np.array([[1, 2]], f32),
                        "in_b": np.array([[3, 4, 5]], f32)}

    bundles = [
        Bundle("1_in_1_out_number_test.tiobundle",
               number_meta("1_in_1_out_number_test"), tflite=number,
               cases=[number_case],
               notes="output = 10 * input + 5"),
        Bundle("1_in_1_out_number_int32_test.tiobundle",
               number_meta("1_in_1_out_number_int32_test",
                           name="1 in 1 out numeric int32 test", dtype="int32"),
               tflite=number_i32,
               cases=[Case({"input": np.array([2], np.int32)},
                           {"output": np.array([25], np.int32)}, "exact")],
               notes="output = 10 * input + 5 (int32 tensors)"),
        Bundle("1_in_1_out_number_int64_test.tiobundle",
               number_meta("1_in_1_out_number_int64_test",
                           name="1 in 1 out numeric int64 test", dtype="int64"),
               tflite=number_i64,
               cases=[Case({"input": np.array([2], np.int64)},
                           {"output": np.array([25], np.int64)}, "exact")],
               notes="output = 10 * input + 5 (int64 tensors)"),
        Bundle("1_in_1_out_vectors_test.tiobundle",
               model_json(
                   name="1 in 1 out vectors test",
                   details="Simple model with a single vector valued input and "
                           "single vector valued output",
                   id_="1_in_1_out_vectors_test",
                   inputs=[layer("input", [4])],
                   outputs=[layer("output", [4])]),
               tflite=vectors, cases=[vectors_case],
               notes="output = input + [1, 0, 1, 0]"),
        Bundle("2_in_2_out_vectors_test.tiobundle",
               vectors_2_meta("2_in_2_out_vectors_test", "2 in 2 out vectors test",
                              "Simple model with two vector input nodes and two "
                              "vector output nodes"),
               tflite=vectors_2, cases=[vectors_2_case],
               notes="s1 = input1 . [1,0,1,0], s2 = input2 . [0,1,0,1]; "
                     "output1 = s1 * s2, output2 = s1 + s2"),
        Bundle("2_in_2_out_matrices_test.tiobundle",
               model_json(
                   name="2 in 2 out matrices test",
                   details="Simple model with two matrix input nodes and two "
                           "matrix output nodes",
                   id_="2_in_2_out_matrices_test",
                   inputs=[layer("input1", [4, 4]), layer("input2", [4, 4])],
                   outputs=[layer("output1", [4, 4]), layer("output2", [4, 4])]),
               tflite=matrices, cases=[matrices_case],
               notes="output1 = (input1 W^T) * (input2 B^T), "
                     "output2 = input1 W^T + input2 B^T"),
        Bundle("1_in_1_out_tensors_test.tiobundle",
               model_json(
                   name="1 in 1 out tensors test",
                   details="A more complex model with a single 3 dimensional "
                           "tensor for an input and one for an output",
                   id_="1_in_1_out_tensors_test",
                   inputs=[layer("input", [3, 3, 3])],
                   outputs=[layer("output", [3, 3, 3])]),
               tflite=tensors, cases=[tensors_case],
               notes="output[i] = input[i] + (i + 1)"),
        Bundle("1_in_1_out_string_test.tiobundle",
               model_json(
                   name="1 in 1 out string test",
                   details="Simple model with a single valued input and single "
                           "valued output exchanged as raw bytes",
                   id_="1_in_1_out_string_test",
                   inputs=[layer("input", [1], type_="string", dtype="float32")],
                   outputs=[layer("output", [1], type_="string", dtype="float32")]),
               tflite=number,
               cases=[Case({"input": np.array([2], f32)},
                           {"output": np.array([25], f32)}, as_bytes=True)],
               notes="output = 10 * input + 5, layers of type string (raw bytes)"),
        Bundle("1_in_1_out_number_test_no_backend.tiobundle",
               number_meta("no_backend_test", backend=None), tflite=number,
               cases=[number_case], notes="number model, model.json without backend"),
        Bundle("1_in_1_out_number_test_no_modes.tiobundle",
               number_meta("no_modes_test", modes=None), tflite=number,
               cases=[number_case], notes="number model, model.json without modes"),
        Bundle("deprecated.tfbundle",
               number_meta("deprecated_tfbundle_test"), tflite=number,
               cases=[number_case], notes="number model, deprecated .tfbundle extension"),
        Bundle("placeholder.tiobundle",
               model_json(
                   name="Placeholder model",
                   details="Bundle with no model file that should otherwise parse "
                           "the json and instantiate an empty model.",
                   id_="placeholder_test",
                   placeholder=True, file="",
                   inputs=[layer("input", [1])],
                   outputs=[layer("output", [1])]),
               kind="placeholder", notes="placeholder, no model file"),
        # ---- invalid bundles for the validator -------------------------------
        Bundle("invalid-model-bad-json.tiobundle",
               json_text=bad_json(number_meta("invalid-model-bad-json",
                                              name="Invalid model bad json")),
               tflite=number, kind="bad-json",
               notes="model.json has a syntax error (missing ':' after \"version\")"),
        Bundle("invalid-model-no-json.tiobundle", tflite=number, kind="no-json",
               notes="only model.tflite, no model.json"),
        Bundle("invalid-model-no-ext",
               number_meta("invalid-model-no-ext", name="Invalid model no extension"),
               tflite=number, cases=[number_case], kind="no-ext",
               notes="valid number bundle in a folder without the .tiobundle extension"),
        Bundle("invalid-model-incorrect-model-file.tiobundle",
               number_meta("invalid-model-incorrect-model-file",
                           name="Invalid model incorrect model file",
                           file="missing.tflite"),
               tflite=number, kind="missing-model-file",
               notes="model.file is missing.tflite, which does not exist "
                     "(model.tflite is present)"),
        Bundle("invalid-model-incorrect-labels-file.tiobundle",
               vectors_2_meta("invalid-model-incorrect-labels-file",
                              "Invalid model incorrect labels file",
                              "The second output names a labels file that does "
                              "not exist",
                              output2_labels="missing-labels.txt"),
               tflite=vectors_2, cases=[vectors_2_case], kind="missing-labels",
               notes="2_in_2_out_vectors model; output2 labels missing-labels.txt "
                     "(absent)"),
        # ---- additions for TensorIO for Swift --------------------------------
        Bundle("labeled_vectors_test.tiobundle",
               model_json(
                   name="Labeled vectors test",
                   details="Vectors model whose output is labelled by "
                           "assets/labels.txt",
                   id_="labeled_vectors_test",
                   inputs=[layer("input", [4])],
                   outputs=[layer("output", [4], labels="labels.txt")]),
               tflite=vectors, assets={"labels.txt": "alpha\nbeta\ngamma\ndelta\n"},
               cases=[vectors_case], kind="labeled",
               notes="output = input + [1, 0, 1, 0]; labels alpha/beta/gamma/delta"),
        Bundle("quantized_uint8_test.tiobundle",
               model_json(
                   name="Quantized uint8 test",
                   details="Full-integer quantized y = 0.5 * x + 0.25 with uint8 "
                           "input and output; quantization taken from the tensors",
                   id_="quantized_uint8_test", quantized=True,
                   inputs=[layer("input", [4], dtype="uint8",
                                 quantize={"from": "tensor"})],
                   outputs=[layer("output", [4], dtype="uint8",
                                  dequantize={"from": "tensor"})]),
               tflite=quant,
               cases=[Case({"input": quant_in},
                           {"output": (quant_in * 0.5 + 0.25).astype(f32)}, "quant")],
               notes="y = 0.5 * x + 0.25, uint8 I/O, quantize/dequantize from tensor"),
        Bundle("quantized_uint8_raw_test.tiobundle",
               model_json(
                   name="Quantized uint8 raw test",
                   details="Same model as quantized_uint8_test, raw uint8 in and out",
                   id_="quantized_uint8_raw_test", quantized=True,
                   inputs=[layer("input", [4], dtype="uint8")],
                   outputs=[layer("output", [4], dtype="uint8")]),
               tflite=quant,
               cases=[Case({"input": np.array([0, 64, 128, 255], np.uint8)},
                           {}, "quant_raw")],
               notes="same .tflite, raw uint8 values"),
        Bundle("reordered_inputs_test.tiobundle",
               model_json(
                   name="Reordered inputs test",
                   details="Keras functional model whose TFLite subgraph input "
                           "order differs from the model.json order",
                   id_="reordered_inputs_test",
                   inputs=[layer("in_a", [1, 2]), layer("in_b", [1, 3])],
                   outputs=[layer("out", [1, 1])]),
               tflite=reordered,
               cases=[Case(reordered_inputs, {"out": np.array([[1203]], f32)})],
               kind="reordered",
               notes="out = sum(in_a) + 100 * sum(in_b)"),
        Bundle("unnamed_inputs_test.tiobundle",
               model_json(
                   name="Unnamed inputs test",
                   details="Same model as reordered_inputs_test; layer names do "
                           "not match the signature so layers bind by order "
                           "(LiteRT lists the subgraph's order: in_b, then in_a)",
                   id_="unnamed_inputs_test",
                   inputs=[layer("first", [1, 3]), layer("second", [1, 2])],
                   outputs=[layer("result", [1, 1])]),
               tflite=reordered,
               cases=[Case({"first": reordered_inputs["in_b"],
                            "second": reordered_inputs["in_a"]},
                           {"result": np.array([[1203]], f32)})],
               kind="unnamed",
               notes="same .tflite as reordered_inputs_test, bound by order"),
        Bundle("output_types_test.tiobundle",
               model_json(
                   name="Output types test",
                   details="One float32 input, one output per tensor dtype",
                   id_="output_types_test",
                   inputs=[layer("input", [4], dtype="float32")],
                   outputs=[layer("as_int8", [4], dtype="int8"),
                            layer("as_int16", [4], dtype="int16"),
                            layer("as_bool", [4], dtype="bool"),
                            layer("as_float16", [4], dtype="float16"),
                            layer("as_float32", [4], dtype="float32")]),
               tflite=out_types,
               cases=[Case({"input": np.array([-1, 0, 2, 100], f32)},
                           {"as_int8": np.array([-1, 0, 2, 100], np.int8),
                            "as_int16": np.array([-1, 0, 2, 100], np.int16),
                            "as_bool": np.array([False, False, True, True]),
                            "as_float16": np.array([-1, 0, 2, 100], np.float16),
                            "as_float32": np.array([-0.5, 0, 1, 50], f32)},
                           "exact")],
               notes="casts to int8/int16/float16, x > 0 as bool, x * 0.5 as float32"),
    ]
    bundles += make_image_bundles()
    return bundles


def solid(h, w, rgb) -> np.ndarray:
    """An h x w RGB image of one colour."""
    return np.broadcast_to(np.array(rgb, np.uint8), (h, w, 3)).copy()


def make_image_bundles() -> list[Bundle]:
    """Bundles with image layers ("type": "image")."""
    f32 = np.float32
    u8 = np.uint8
    identity = build_pixelbuffer_identity()
    normalization = build_pixelbuffer_normalization()
    channel_means = build_channel_means()
    gray_invert = build_gray_invert()
    uint8_passthrough = build_uint8_passthrough()
    two_means = build_two_image_means()
    asymmetric = build_asymmetric()

    # 224 x 224 gradient: R = column, G = row, B = (column + row) mod 256.
    yy, xx = np.mgrid[0:224, 0:224]
    gradient = np.stack([xx, yy, (xx + yy) % 256], axis=-1).astype(u8)
    red = solid(224, 224, (255, 0, 0))
    magenta = solid(224, 224, (255, 0, 255))

    rgb01 = image_layer("input", [224, 224, 3], "RGB", normalize=STANDARD_0_1)

    def identity_case(pixels):
        x = image_to_tensor(rgb01, pixels)
        return Case({}, {"output": x}, "close", images={"input": pixels},
                    images_out={"output": pixels})

    def normalization_case(pixels):
        x = image_to_tensor(rgb01, pixels)
        return Case({}, {"output": (F32(2) * x - F32(1)).astype(f32)}, "close",
                    images={"input": pixels}, images_out={"output": pixels})

    # BGR with per-colour bias: tensor channel 0 is blue, so output is
    # [mean(B) - 1, mean(G) - 10, mean(R) - 100].
    bgr_layer = image_layer("input", [4, 4, 3], "BGR",
                            normalize={"scale": 1,
                                       "bias": {"r": -100, "g": -10, "b": -1}})
    i16 = np.arange(16).reshape(4, 4)          # 4 * row + column
    bgr_gradient = np.stack([10 * i16, 255 - 10 * i16, 5 * i16 + 3],
                            axis=-1).astype(u8)

    # 8 x 8 gray: gradient 32 * row + 4 * column (0...252) and a 0/255
    # checkerboard (255 where row + column is odd).
    gy, gx = np.mgrid[0:8, 0:8]
    gray_gradient = (32 * gy + 4 * gx).astype(u8)[..., None]
    gray_checker = (((gy + gx) % 2) * 255).astype(u8)[..., None]
    gray_layer = image_layer("input", [8, 8, 1], "GRAY", normalize=STANDARD_0_1)

    def gray_case(g):
        x = image_to_tensor(gray_layer, g)
        return Case({}, {"output": (F32(1) - x).astype(f32)}, "close",
                    images={"input": g}, images_out={"output": 255 - g})

    # uint8 6 x 4 (height x width): element [y, x, c] = 40y + 10x + c, i.e.
    # flat index (4y + x) * 3 + c in row-major (h, w, c) order.
    uy, ux, uc = np.mgrid[0:6, 0:4, 0:3]
    uint8_pixels = (40 * uy + 10 * ux + uc).astype(u8)
    uint8_checker = np.where(((uy + ux) % 2) == 1, 255, 0).astype(u8)

    left_layer = image_layer("left", [4, 4, 3], "RGB", normalize=STANDARD_0_1)
    right_layer = image_layer("right", [4, 4, 3], "RGB", normalize=STANDARD_0_1)
    white4 = solid(4, 4, (255, 255, 255))
    black4 = solid(4, 4, (0, 0, 0))
    colour4 = solid(4, 4, (51, 102, 153))   # 0.2, 0.4, 0.6 -> mean 0.4

    def two_case(left, right):
        means = [image_to_tensor(l, px).astype(np.float64).mean()
                 for l, px in ((left_layer, left), (right_layer, right))]
        return Case({}, {"output": np.array(means, f32)}, "close",
                    images={"left": left, "right": right})

    # 3 x 2 (height x width), raw floats: element [y, x, c] = 100y + 10x + c,
    # flat index (2y + x) * 3 + c.
    ay, ax, ac = np.mgrid[0:3, 0:2, 0:3]
    asym_pixels = (100 * ay + 10 * ax + ac).astype(u8)

    return [
        Bundle("pixelbuffer_identity_test.tiobundle",
               model_json(
                   name="Pixel buffer identity test",
                   details="Outputs the input image: (x + 1) - 1 on pixels "
                           "normalized to [0,1], denormalized from [0,1]. Made "
                           "to test the normalization and denormalization "
                           "functions.",
                   id_="pixelbuffer_identity_test",
                   inputs=[rgb01],
                   outputs=[image_layer("output", [224, 224, 3], "RGB",
                                        denormalize=STANDARD_0_1)]),
               tflite=identity,
               cases=[identity_case(red), identity_case(gradient)],
               notes="output = (input + 1) - 1; RGB [0,1] in and out"),
        Bundle("pixelbuffer_normalization_test.tiobundle",
               model_json(
                   name="Pixel buffer normalization test",
                   details="Outputs the input image mapped from [0,1] to [-1,1] "
                           "(2x - 1) and denormalized from [-1,1]. Made to test "
                           "the normalization and denormalization functions.",
                   id_="pixelbuffer_normalization_test",
                   inputs=[rgb01],
                   outputs=[image_layer("output", [224, 224, 3], "RGB",
                                        denormalize=STANDARD_M1_1)]),
               tflite=normalization,
               cases=[normalization_case(magenta), normalization_case(gradient)],
               notes="output = 2 * input - 1; normalize [0,1], denormalize [-1,1]"),
        Bundle("image_bgr_bias_test.tiobundle",
               model_json(
                   name="Image BGR bias test",
                   details="BGR image input with a bias per colour; outputs the "
                           "mean of each tensor channel: [mean(B) - 1, "
                           "mean(G) - 10, mean(R) - 100]",
                   id_="image_bgr_bias_test",
                   inputs=[bgr_layer],
                   outputs=[layer("output", [3])]),
               tflite=channel_means,
               cases=[Case({}, {"output": np.array([49, 90, 100], f32)}, "close",
                           images={"input": solid(4, 4, (200, 100, 50))}),
                      Case({}, {"output": np.array([39.5, 170, -25], f32)}, "close",
                           images={"input": bgr_gradient})],
               notes="output = per-channel mean of the BGR tensor"),
        Bundle("image_gray_test.tiobundle",
               model_json(
                   name="Image gray test",
                   details="One-channel (GRAY) image in and out; outputs the "
                           "inverted image, 1 - x, in [0,1]",
                   id_="image_gray_test",
                   inputs=[gray_layer],
                   outputs=[image_layer("output", [8, 8, 1], "GRAY",
                                        denormalize=STANDARD_0_1)]),
               tflite=gray_invert,
               cases=[gray_case(gray_gradient), gray_case(gray_checker)],
               notes="output = 1 - input; GRAY [0,1] in and out"),
        Bundle("image_uint8_test.tiobundle",
               model_json(
                   name="Image uint8 test",
                   details="Quantized model taking raw uint8 RGB pixels "
                           "(height 6, width 4) and returning them unchanged",
                   id_="image_uint8_test", quantized=True,
                   inputs=[image_layer("input", [6, 4, 3], "RGB", dtype="uint8")],
                   outputs=[image_layer("output", [6, 4, 3], "RGB", dtype="uint8")]),
               tflite=uint8_passthrough,
               cases=[Case({}, {"output": uint8_pixels}, "exact",
                           images={"input": uint8_pixels},
                           images_out={"output": uint8_pixels}),
                      Case({}, {"output": uint8_checker}, "exact",
                           images={"input": uint8_checker},
                           images_out={"output": uint8_checker})],
               notes="output = uint8(int32(input)); raw pixels in and out"),
        Bundle("two_images_test.tiobundle",
               model_json(
                   name="Two images test",
                   details="Two RGB image inputs normalized to [0,1]; outputs "
                           "[mean(left), mean(right)] over all elements",
                   id_="two_images_test",
                   inputs=[left_layer, right_layer],
                   outputs=[layer("output", [2])]),
               tflite=two_means,
               cases=[two_case(white4, colour4), two_case(black4, white4),
                      two_case(colour4, black4)],
               notes="output = [mean(left), mean(right)]"),
        Bundle("image_asymmetric_test.tiobundle",
               model_json(
                   name="Image asymmetric test",
                   details="RGB image of height 3 and width 2 as raw 0-255 "
                           "floats; outputs the tensor unchanged (max(x, 0)) "
                           "as an array",
                   id_="image_asymmetric_test",
                   inputs=[image_layer("input", [3, 2, 3], "RGB")],
                   outputs=[layer("output", [3, 2, 3])]),
               tflite=asymmetric,
               cases=[Case({}, {"output": asym_pixels.astype(f32)}, "exact",
                           images={"input": asym_pixels})],
               notes="output = max(input, 0) = input for pixels; raw floats"),
    ]


def bad_json(meta: dict) -> str:
    text = dump_json(meta) + "\n"
    broken = text.replace('"version": "1"', '"version" "1"', 1)
    assert broken != text
    return broken


# --------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------

def write_bundle(out: Path, b: Bundle) -> None:
    path = out / b.dirname
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    if b.json_text is not None:
        (path / "model.json").write_text(b.json_text)
    elif b.meta is not None:
        (path / "model.json").write_text(dump_json(b.meta) + "\n")
    if b.tflite is not None:
        (path / "model.tflite").write_bytes(b.tflite)
    if b.assets:
        (path / "assets").mkdir()
        for name, content in b.assets.items():
            (path / "assets" / name).write_text(content)


# --------------------------------------------------------------------------
# Verification (reads back what was written)
# --------------------------------------------------------------------------

class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def raw_signature(tflite_bytes: bytes):
    """(input names in SignatureDef order, subgraph input names in order,
    output names in SignatureDef order, subgraph output names in order),
    read straight from the flatbuffer."""
    model = tfl_schema.ModelT.InitFromObj(
        tfl_schema.Model.GetRootAsModel(tflite_bytes, 0))
    sg = model.subgraphs[0]
    sig = [s for s in model.signatureDefs
           if s.signatureKey.decode() == SIGNATURE_KEY][0]
    by_index_in = {t.tensorIndex: t.name.decode() for t in sig.inputs}
    by_index_out = {t.tensorIndex: t.name.decode() for t in sig.outputs}
    return ([t.name.decode() for t in sig.inputs],
            [by_index_in[i] for i in sg.inputs],
            [t.name.decode() for t in sig.outputs],
            [by_index_out[i] for i in sg.outputs])


def model_ops(tflite_bytes: bytes) -> tuple[list[str], str]:
    """(["OP(version)", ...] in execution order, min_runtime_version)."""
    model = tfl_schema.ModelT.InitFromObj(
        tfl_schema.Model.GetRootAsModel(tflite_bytes, 0))
    names = {v: k for k, v in vars(tfl_schema.BuiltinOperator).items()
             if not k.startswith("_")}
    ops = []
    for op in model.subgraphs[0].operators:
        code = model.operatorCodes[op.opcodeIndex]
        ops.append(f"{names.get(code.builtinCode, code.builtinCode)}({code.version})")
    runtime = ""
    for m in model.metadata or []:
        if m.name.decode() == "min_runtime_version":
            runtime = bytes(model.buffers[m.buffer].data).split(b"\0")[0].decode()
    return ops, runtime


def load_interpreter(path: Path):
    it = Interpreter(model_path=str(path))
    it.allocate_tensors()
    return it


def tensor_dtype_name(np_dtype) -> str:
    for k, v in DTYPES.items():
        if np.dtype(v) == np.dtype(np_dtype):
            return k
    return str(np_dtype)


def compare(name, got, want, mode, quant_scale=None):
    got = np.asarray(got)
    want = np.asarray(want)
    check(got.shape == want.shape, f"{name}: shape {got.shape} != {want.shape}")
    if mode == "exact":
        check(got.dtype == want.dtype, f"{name}: dtype {got.dtype} != {want.dtype}")
        check(np.array_equal(got, want), f"{name}: {got.tolist()} != {want.tolist()}")
    elif mode == "float":
        ok = np.allclose(got.astype(np.float64), want.astype(np.float64),
                         rtol=1e-5, atol=0.0)
        check(ok, f"{name}: {got.tolist()} !~ {want.tolist()}")
    elif mode == "close":
        ok = np.allclose(got.astype(np.float64), want.astype(np.float64),
                         rtol=1e-5, atol=1e-6)
        bad = np.argwhere(~np.isclose(got.astype(np.float64),
                                      want.astype(np.float64), rtol=1e-5, atol=1e-6))
        check(ok, f"{name}: {len(bad)} values differ, first at {bad[:1].tolist()}")
    elif mode == "quant":
        err = np.abs(got.astype(np.float64) - want.astype(np.float64))
        check(np.all(err <= quant_scale * (1 + 1e-6)),
              f"{name}: {got.tolist()} not within 1 quantum ({quant_scale}) "
              f"of {want.tolist()}")
    elif mode == "quant_raw":
        diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
        check(np.all(diff <= 1), f"{name}: {got.tolist()} not within 1 of "
                                 f"{want.tolist()}")
    else:
        raise ValueError(mode)


def verify_model(path: Path, b: Bundle, report: dict) -> list[str]:
    """Full check of a bundle that is supposed to load and run."""
    details = []
    meta = json.loads((path / "model.json").read_text())
    model_file = path / meta["model"]["file"]
    check(model_file.is_file(), f"model file {model_file.name} missing")
    tflite_bytes = model_file.read_bytes()
    it = load_interpreter(model_file)

    sigs = it.get_signature_list()
    check(list(sigs) == [SIGNATURE_KEY], f"signatures {list(sigs)}")
    runner = it.get_signature_runner(SIGNATURE_KEY)
    sig_in = runner.get_input_details()
    sig_out = runner.get_output_details()
    raw_in, sub_in, raw_out, sub_out = raw_signature(tflite_bytes)
    report.update(sig_inputs=raw_in, subgraph_inputs=sub_in,
                  sig_outputs=raw_out, subgraph_outputs=sub_out)
    report["ops"], report["min_runtime"] = model_ops(tflite_bytes)
    # An output folded into an input by the converter would be the same tensor.
    in_tensors = {d["index"] for d in sig_in.values()}
    for n, d in sig_out.items():
        check(d["index"] not in in_tensors,
              f"output {n} is input tensor {d['index']} (identity folded away)")
    check(len({d["index"] for d in sig_out.values()}) == len(sig_out),
          "two outputs share a tensor")
    report["tensor_indices"] = (
        {n: int(d["index"]) for n, d in sig_in.items()},
        {n: int(d["index"]) for n, d in sig_out.items()})

    json_in = [l["name"] for l in meta["inputs"]]
    json_out = [l["name"] for l in meta["outputs"]]
    if b.kind == "unnamed":
        check(not set(json_in) & set(sig_in) and not set(json_out) & set(sig_out),
              "unnamed bundle: model.json names unexpectedly match the signature")
        check(len(json_in) == len(raw_in) and len(json_out) == len(raw_out),
              "unnamed bundle: layer count mismatch")
        # Bind by order: n-th model.json layer <-> n-th signature tensor as the
        # LiteRT C API lists them, which is the subgraph's order (not the
        # SignatureDef's alphabetical order that Python shows).
        in_map = dict(zip(json_in, sub_in))
        out_map = dict(zip(json_out, sub_out))
        details.append("bound by order: " + ", ".join(
            f"{k}->{v}" for k, v in list(in_map.items()) + list(out_map.items())))
    else:
        check(set(json_in) == set(sig_in),
              f"inputs: model.json {json_in} vs signature {list(sig_in)}")
        check(set(json_out) == set(sig_out),
              f"outputs: model.json {json_out} vs signature {list(sig_out)}")
        in_map = {n: n for n in json_in}
        out_map = {n: n for n in json_out}
    if b.kind == "reordered":
        check(sub_in != json_in,
              f"subgraph input order {sub_in} equals model.json order {json_in}")
        details.append(f"subgraph inputs {sub_in} vs model.json {json_in}")

    # shapes and dtypes
    for layers, sig, mapping in ((meta["inputs"], sig_in, in_map),
                                 (meta["outputs"], sig_out, out_map)):
        for l in layers:
            d = sig[mapping[l["name"]]]
            tensor_shape = [int(v) for v in d["shape"]]
            check(tensor_shape == l["shape"],
                  f"{l['name']}: tensor shape {tensor_shape} != {l['shape']}")
            want_dtype = l.get("dtype", "float32")
            check(tensor_dtype_name(d["dtype"]) == want_dtype,
                  f"{l['name']}: tensor dtype {tensor_dtype_name(d['dtype'])} "
                  f"!= {want_dtype}")
            if "quantize" in l or "dequantize" in l:
                s, z = d["quantization"]
                check(s > 0, f"{l['name']}: tensor has no quantization parameters")
            if l["type"] == "image":
                check(len(l["shape"]) == 3, f"{l['name']}: image shape {l['shape']}")
                check(l.get("format") in FORMAT_COLOURS,
                      f"{l['name']}: format {l.get('format')}")
                channels = 1 if l["format"] == "GRAY" else 3
                check(l["shape"][2] == channels,
                      f"{l['name']}: {l['format']} with {l['shape'][2]} channels")
                wrong = "denormalize" if l in meta["inputs"] else "normalize"
                check(wrong not in l, f"{l['name']}: {wrong} on the wrong side")
            if "labels" in l:
                labels_path = path / "assets" / l["labels"]
                if b.kind == "labeled":
                    labels = labels_path.read_text().splitlines()
                    check(len(labels) == int(np.prod(l["shape"])),
                          f"{l['name']}: {len(labels)} labels for shape {l['shape']}")

    report["quant"] = {}
    for l in meta["inputs"] + meta["outputs"]:
        sig = sig_in if l in meta["inputs"] else sig_out
        mapping = in_map if l in meta["inputs"] else out_map
        s, z = sig[mapping[l["name"]]]["quantization"]
        if s:
            report["quant"][l["name"]] = (float(s), int(z))

    for case in b.cases:
        feed = {}
        case_inputs = dict(case.inputs)
        for name, pixels in case.images.items():
            l = next(x for x in meta["inputs"] if x["name"] == name)
            check(l["type"] == "image", f"{name}: pixels for a non-image layer")
            case_inputs[name] = image_to_tensor(l, pixels)
        for name, value in case_inputs.items():
            d = sig_in[in_map[name]]
            l = next(x for x in meta["inputs"] if x["name"] == name)
            if "quantize" in l:
                s, z = d["quantization"]
                info = np.iinfo(d["dtype"])
                value = np.clip(np.round(value / s + z), info.min, info.max)
                value = value.astype(d["dtype"])
            if case.as_bytes:
                # string layers: the caller hands over raw little-endian bytes
                raw = np.asarray(value, DTYPES[l["dtype"]]).astype("<" + np.dtype(
                    DTYPES[l["dtype"]]).str[1:]).tobytes()
                value = np.frombuffer(raw, dtype=d["dtype"]).reshape(d["shape"])
            feed[in_map[name]] = value.astype(d["dtype"])
        result = runner(**feed)
        got_all = {}
        for l in meta["outputs"]:
            name = l["name"]
            got = result[out_map[name]]
            d = sig_out[out_map[name]]
            if case.as_bytes:
                got = np.frombuffer(got.tobytes(), dtype=DTYPES[l["dtype"]]).reshape(
                    got.shape)
            scale = None
            if "dequantize" in l:
                s, z = d["quantization"]
                got = (got.astype(np.float64) - z) * s
                scale = s
            got_all[name] = got
            if case.compare == "quant":
                # expected value for the input as it is actually represented
                # after quantization, compared to within one output quantum
                in_l = meta["inputs"][0]
                s_in, z_in = sig_in[in_map[in_l["name"]]]["quantization"]
                x = (feed[in_map[in_l["name"]]].astype(np.float64) - z_in) * s_in
                compare(name, got, x * 0.5 + 0.25, "quant", scale)
                compare(name, got, case.outputs[name], "quant",
                        scale + 0.5 * s_in)
            elif case.compare == "quant_raw":
                s_in, z_in = sig_in["input"]["quantization"]
                s_out, z_out = d["quantization"]
                x = (case.inputs["input"].astype(np.float64) - z_in) * s_in
                want = np.clip(np.round((x * 0.5 + 0.25) / s_out + z_out), 0, 255)
                compare(name, got, want.astype(np.uint8), "quant_raw")
            else:
                compare(name, got, case.outputs[name], case.compare)
            if name in case.images_out:
                compare(f"{name} (pixels)", tensor_to_image(l, got),
                        np.asarray(case.images_out[name], np.uint8), "exact")
        report.setdefault("results", []).append(
            {k: np.asarray(v).tolist() for k, v in got_all.items()})
        report.setdefault("fed", []).append(
            {k: np.asarray(v).tolist() for k, v in feed.items()})
    return details


def verify_bundle(out: Path, b: Bundle, report: dict) -> str:
    path = out / b.dirname
    check(path.is_dir(), "bundle folder missing")
    files = sorted(str(p.relative_to(path)) for p in path.rglob("*") if p.is_file())
    report["files"] = files
    if b.kind in ("valid", "reordered", "unnamed", "labeled"):
        check(path.suffix in (".tiobundle", ".tfbundle"),
              "expected a .tiobundle (or deprecated .tfbundle) extension")
        return "; ".join(verify_model(path, b, report)) or "ok"
    if b.kind == "no-ext":
        check(path.suffix == "", "folder should have no extension")
        verify_model(path, b, report)
        return "valid bundle contents, no extension"
    if b.kind == "placeholder":
        meta = json.loads((path / "model.json").read_text())
        check(meta.get("placeholder") is True, "placeholder flag")
        check(meta["model"]["file"] == "", "model.file should be empty")
        check(files == ["model.json"], f"unexpected files {files}")
        return "no model file"
    if b.kind == "bad-json":
        try:
            json.loads((path / "model.json").read_text())
        except json.JSONDecodeError as e:
            load_interpreter(path / "model.tflite")
            return f"json error: {e.msg} (line {e.lineno})"
        raise Failure("model.json unexpectedly parses")
    if b.kind == "no-json":
        check(files == ["model.tflite"], f"unexpected files {files}")
        load_interpreter(path / "model.tflite")
        return "only model.tflite"
    if b.kind == "missing-model-file":
        meta = json.loads((path / "model.json").read_text())
        check(meta["model"]["file"] == "missing.tflite", "model.file")
        check(not (path / "missing.tflite").exists(), "missing.tflite exists")
        load_interpreter(path / "model.tflite")
        return "model.file missing.tflite absent"
    if b.kind == "missing-labels":
        meta = json.loads((path / "model.json").read_text())
        check("labels" not in meta["outputs"][0], "first output must have no labels")
        check(meta["outputs"][1].get("labels") == "missing-labels.txt",
              "second output labels")
        check(not (path / "assets").exists(), "assets folder exists")
        verify_model(path, b, report)
        return "output2 labels missing-labels.txt absent"
    raise ValueError(b.kind)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="output folder (default: Tests/Fixtures/Bundles "
                             "in the repository)")
    args = parser.parse_args(argv)
    out = args.out.resolve()

    np.random.seed(SEED)
    tf.random.set_seed(SEED)

    # The converter may drop temporary files; keep them out of the repo.
    tempfile.tempdir = tempfile.mkdtemp(prefix="tio-models-")
    try:
        bundles = make_bundles()
    finally:
        shutil.rmtree(tempfile.tempdir, ignore_errors=True)
        tempfile.tempdir = None

    out.mkdir(parents=True, exist_ok=True)
    for b in bundles:
        write_bundle(out, b)

    rows = []
    reports = {}
    failures = 0
    for b in bundles:
        report = {}
        reports[b.dirname] = report
        try:
            detail = verify_bundle(out, b, report)
            rows.append((b.dirname, "PASS", detail))
        except Exception as e:  # noqa: BLE001 - report everything
            failures += 1
            rows.append((b.dirname, "FAIL", f"{type(e).__name__}: {e}"))

    width = max(len(r[0]) for r in rows)
    print(f"\nTensor/IO test bundles written to {out}\n")
    print(f"{'bundle'.ljust(width)}  result  detail")
    print(f"{'-' * width}  ------  ------")
    for name, status, detail in rows:
        print(f"{name.ljust(width)}  {status:6}  {detail}")

    print("\nSignature / subgraph order:")
    for name in ("reordered_inputs_test.tiobundle", "unnamed_inputs_test.tiobundle",
                 "output_types_test.tiobundle"):
        r = reports.get(name, {})
        if "sig_inputs" in r:
            print(f"  {name}: SignatureDef inputs {r['sig_inputs']}, subgraph inputs "
                  f"{r['subgraph_inputs']}; SignatureDef outputs {r['sig_outputs']}, "
                  f"subgraph outputs {r['subgraph_outputs']}")
    print("\nQuantization parameters (scale, zero point):")
    for name in ("quantized_uint8_test.tiobundle", "quantized_uint8_raw_test.tiobundle"):
        r = reports.get(name, {})
        for layer_name, (s, z) in r.get("quant", {}).items():
            print(f"  {name} {layer_name}: scale={s!r} zero_point={z}")
        for fed, res in zip(r.get("fed", []), r.get("results", [])):
            print(f"    fed {fed} -> {res}")

    print("\nImage bundles (signature tensor indices; ops; min runtime):")
    for b in bundles:
        r = reports.get(b.dirname, {})
        if "tensor_indices" not in r or not any(
                l["type"] == "image" for l in b.meta["inputs"] + b.meta["outputs"]):
            continue
        ins, outs = r["tensor_indices"]
        print(f"  {b.dirname}: inputs {ins} -> outputs {outs}; "
              f"{', '.join(r['ops'])}; {r['min_runtime']}")

    print(f"\n{len(rows) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
