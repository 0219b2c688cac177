#!/usr/bin/env python3
"""Reference outputs for the model zoo test (Tests/TensorIOTests/ModelZooTests.swift).

Runs every pinned .tflite file under task-models/ of the test data (Tests/TestData/manifest.json; those in the
cache that `make test-data` fills) and of the pinned mediapipe wheel's mediapipe/modules/
(unpacked into .build/zoo/mediapipe-modules/ by scripts/zoo/setup.sh) in ai_edge_litert's Interpreter on
fixed random inputs, and writes into OUT (the test uses .build/zoo/reference/):

  manifest.json                 every model: its path, its inputs and outputs (the names TensorIO gives the
                                layers, dtypes, shapes, data files), or the error Python met loading or
                                running it
  MODEL_ID/inputs.npz           the inputs, keyed by layer name (for people and `tensorio run --input @FILE`)
  MODEL_ID/outputs.npz          Python's outputs (get_tensor after invoke), keyed by layer name
  MODEL_ID/inputs/N.bin         the same arrays as raw little-endian bytes, in C order (what the Swift test
  MODEL_ID/outputs/N.bin        reads: no NumPy reader needed, and names with "/" or ":" need no escaping)

Layer names are the ones TensorIO's inferred bundle (ModelBundle(modelAt:), `tensorio inspect`) uses: the
signature's input and output names when the model has a signature (serving_default, else the first), the
tensor names of subgraph 0's inputs and outputs otherwise.

Inputs, from a seed derived from the model's relative name (zlib.crc32, so every run feeds the same values):
float tensors uniform in [-1, 1); uint8, int8 and int16 over their full range; int32 and int64 in [0, 100)
(text models take token ids); bool at random.

Usage: reference.py OUT [--force]. Nothing is rewritten when OUT/manifest.json is newer than this script,
the requirements and every model (--force rewrites anyway).
"""

import json
import os
import shutil
import sys
import time
import zlib

import numpy as np
from ai_edge_litert.interpreter import Interpreter

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import testdata  # noqa: E402  (the test data's manifest and cache)

MODULES = ".build/zoo/mediapipe-modules"
FORMAT_VERSION = 1


def model_files():
    """(name, path, file) of every model, sorted; name is what the test shows, path what the manifest records
    (a test-data name, read from the cache, or a path relative to the repository root) and file where it is.
    Pinned models not in the cache are left out: the Swift test skips the task models then."""
    found = []
    entries = testdata.load_manifest()
    for name in entries:
        if name.startswith("task-models/") and name.endswith(".tflite") and testdata.is_cached(name, entries):
            found.append((name, name, str(testdata.cache_dir() / name)))
    base = os.path.join(ROOT, MODULES)
    if not os.path.isdir(base):
        sys.exit(f"reference.py: {MODULES} is missing (run make setup-zoo)")
    for directory, _, files in os.walk(base):
        for file in files:
            if file.endswith(".tflite"):
                relative = os.path.relpath(os.path.join(directory, file), base).replace(os.sep, "/")
                found.append((f"mediapipe/modules/{relative}", f"{MODULES}/{relative}", os.path.join(base, relative)))
    return sorted(found)


def model_id(name):
    """A folder name for the model's data files."""
    return name.replace("/", "__")


def seed(name):
    return zlib.crc32(name.encode("utf-8"))


def random_input(rng, dtype, shape):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rng.uniform(-1.0, 1.0, size=shape).astype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dtype in (np.dtype(np.uint8), np.dtype(np.int8), np.dtype(np.int16)):
        info = np.iinfo(dtype)
        return rng.integers(info.min, int(info.max) + 1, size=shape, dtype=dtype)
    if dtype in (np.dtype(np.int32), np.dtype(np.int64)):
        return rng.integers(0, 100, size=shape, dtype=dtype)
    raise ValueError(f"no random values for {dtype} inputs")


def entry_point(interpreter):
    """(signature key or None, [(layer name, tensor index)] of inputs, same of outputs)."""
    signatures = interpreter._get_full_signature_list()
    if signatures:
        key = "serving_default" if "serving_default" in signatures else next(iter(signatures))
        signature = signatures[key]
        return key, list(signature["inputs"].items()), list(signature["outputs"].items())
    inputs = [(d["name"], d["index"]) for d in interpreter.get_input_details()]
    outputs = [(d["name"], d["index"]) for d in interpreter.get_output_details()]
    return None, inputs, outputs


def run_model(name, file):
    """The model's inputs and outputs as {layer name: array}, in entry-point order, and its signature key."""
    interpreter = Interpreter(model_path=file)
    interpreter.allocate_tensors()
    key, input_tensors, output_tensors = entry_point(interpreter)
    details = {d["index"]: d for d in interpreter.get_tensor_details()}
    rng = np.random.default_rng(seed(name))
    inputs = {}
    for layer, index in input_tensors:
        detail = details[index]
        inputs[layer] = random_input(rng, detail["dtype"], tuple(int(n) for n in detail["shape"]))
    subgraph_inputs = sorted(d["index"] for d in interpreter.get_input_details())
    if key is None or sorted(index for _, index in input_tensors) == subgraph_inputs:
        # The entry point is subgraph 0: set, invoke, read back with get_tensor.
        for layer, index in input_tensors:
            interpreter.set_tensor(index, inputs[layer])
        interpreter.invoke()
        outputs = {layer: np.array(interpreter.get_tensor(index)) for layer, index in output_tensors}
    else:
        # A signature over another subgraph: its runner.
        results = interpreter.get_signature_runner(key)(**inputs)
        outputs = {layer: np.array(results[layer]) for layer, _ in output_tensors}
    return key, inputs, outputs


def describe(arrays, folder):
    """The manifest entries of arrays written as folder/N.bin."""
    entries = []
    for number, (layer, array) in enumerate(arrays.items()):
        file = f"{folder}/{number}.bin"
        entries.append({"name": layer, "dtype": array.dtype.name, "shape": list(array.shape), "file": file})
    return entries


def write_arrays(arrays, directory, folder):
    os.makedirs(os.path.join(directory, folder))
    for number, array in enumerate(arrays.values()):
        with open(os.path.join(directory, folder, f"{number}.bin"), "wb") as out:
            out.write(np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False).tobytes())
    np.savez(os.path.join(directory, f"{folder}.npz"), **arrays)


def up_to_date(manifest_path, models):
    if not os.path.exists(manifest_path):
        return False
    written = os.path.getmtime(manifest_path)
    here = os.path.dirname(os.path.abspath(__file__))
    sources = [os.path.abspath(__file__), os.path.join(here, "requirements.txt")]
    sources += [file for _, _, file in models]
    if any(os.path.getmtime(source) >= written for source in sources):
        return False
    try:
        with open(manifest_path) as file:
            manifest = json.load(file)
    except (OSError, ValueError):
        return False
    return manifest.get("format") == FORMAT_VERSION and [m["name"] for m in manifest["models"]] == [n for n, _, _ in models]


def main(arguments):
    force = "--force" in arguments
    arguments = [a for a in arguments if a != "--force"]
    if len(arguments) != 1:
        sys.exit("usage: reference.py OUT [--force]")
    out = os.path.abspath(arguments[0])
    models = model_files()
    manifest_path = os.path.join(out, "manifest.json")
    if not force and up_to_date(manifest_path, models):
        print(f"reference.py: {os.path.relpath(manifest_path)} is up to date ({len(models)} models)")
        return

    started = time.monotonic()
    # Written beside OUT and swapped in at the end, so a reader never sees half a reference; per process,
    # so two test runs in the same checkout do not write into each other's.
    partial = f"{out}.partial-{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(partial)
    entries = []
    for name, path, file in models:
        entry = {"name": name, "path": path, "id": model_id(name), "seed": seed(name)}
        try:
            key, inputs, outputs = run_model(name, file)
        except Exception as error:  # what Python could not load or run: the test expects TensorIO to refuse it too
            entry["error"] = f"{type(error).__name__}: {error}".strip()
            entries.append(entry)
            continue
        directory = os.path.join(partial, entry["id"])
        os.makedirs(directory)
        write_arrays(inputs, directory, "inputs")
        write_arrays(outputs, directory, "outputs")
        entry["signature"] = key
        entry["inputs"] = describe(inputs, "inputs")
        entry["outputs"] = describe(outputs, "outputs")
        entries.append(entry)
    manifest = {
        "format": FORMAT_VERSION,
        "litert": "ai-edge-litert " + _version("ai-edge-litert"),
        "numpy": np.__version__,
        "models": entries,
    }
    with open(os.path.join(partial, "manifest.json"), "w") as file:
        json.dump(manifest, file, indent=1)
    previous = f"{out}.previous-{os.getpid()}"
    if os.path.exists(out):
        os.replace(out, previous)
    os.replace(partial, out)
    shutil.rmtree(previous, ignore_errors=True)
    failed = sum("error" in entry for entry in entries)
    print(
        f"reference.py: {len(entries)} models ({failed} Python cannot run) in {time.monotonic() - started:.1f} s"
        f" -> {os.path.relpath(out)}"
    )


def _version(distribution):
    from importlib.metadata import version

    return version(distribution)


if __name__ == "__main__":
    main(sys.argv[1:])
