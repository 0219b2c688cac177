"""Usage: bench_litert.py BUNDLE [--runs N] [--warmup N] [--threads N] [--image PATH]

What `tensorio bench BUNDLE --json` measures, done the way Python users do it: ai_edge_litert's
Interpreter with NumPy. Prints one JSON object.

inference_*_us: per run, what TensorIO's `run()` does around the invoke: set every input from a NumPy
array of the right dtype and shape (random values made once: floats in [-1, 1), uint8 0-255, other
integers 0-100, as `tensorio bench` feeds), invoke, read every output with get_tensor (a copy), and
dequantize the outputs model.json asks to. Statistics over RUNS runs after WARMUP untimed ones, computed
as `tensorio bench` computes them (population std, nearest-rank percentiles).

With --image PATH (models whose one input is an image layer), two end-to-end figures, each per run up to
and including the outputs:
  end_to_end_numpy_*_us   from an image Pillow decoded once (EXIF-transposed, RGB, as an array):
                          centre crop, bilinear resize to the layer's size and normalization, all in
                          NumPy (2-tap bilinear with half-pixel centres, as cv2.resize INTER_LINEAR does)
  end_to_end_pillow_*_us  from the file each run, as the Python scripts beside this one do: open,
                          exif_transpose, RGB, centre crop + resize (Image.BILINEAR), NumPy normalization
                          (model.json's `normalize`: [-1,1] for the float bundle; raw uint8 bytes for the
                          uint8 bundle)
  numpy_top1 / pillow_top1 name the top class of each, as a check that both paths classify alike.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np
from ai_edge_litert.interpreter import Interpreter
from PIL import Image, ImageOps

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Benchmarks/, for benchlib
import benchlib  # noqa: E402


def summary(prefix, times_us):
    """The figures `tensorio bench` reports, under its key names with `prefix`."""
    ordered = sorted(times_us)
    count = len(ordered)
    mean = sum(ordered) / count

    return {
        f"{prefix}_avg_us": mean,
        f"{prefix}_min_us": ordered[0],
        f"{prefix}_max_us": ordered[-1],
        f"{prefix}_std_us": statistics.pstdev(ordered) if count > 1 else 0.0,
        f"{prefix}_p50_us": benchlib.percentile(ordered, 0.50),
        f"{prefix}_p95_us": benchlib.percentile(ordered, 0.95),
    }


def random_input(detail, rng):
    shape, dtype = detail["shape"], np.dtype(detail["dtype"])
    if np.issubdtype(dtype, np.floating):
        return rng.uniform(-1, 1, size=shape).astype(dtype)
    if dtype == np.uint8:
        return rng.integers(0, 256, size=shape, dtype=np.uint8)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    return rng.integers(0, 101, size=shape).astype(dtype)


def dequantizer(layer, detail):
    """A function turning the output tensor into the floats TensorIO returns, or None to keep it as is."""
    spec = layer.get("dequantize") if layer else None
    if not spec:
        return None
    if spec.get("from") == "tensor":
        scale, zero_point = detail["quantization"]
        return lambda q: (q.astype(np.float32) - np.float32(zero_point)) * np.float32(scale)
    standard = spec.get("standard")
    if standard == "[0,1]":
        return lambda q: q.astype(np.float32) / np.float32(255)
    if standard == "[-1,1]":
        return lambda q: q.astype(np.float32) * np.float32(2 / 255) - np.float32(1)
    scale, bias = np.float32(spec.get("scale", 1)), np.float32(spec.get("bias", 0))
    return lambda q: q.astype(np.float32) * scale + bias


def normalizer(layer, dtype):
    """A function turning an HxWx3 float32 or uint8 RGB array into the input tensor's values."""
    if dtype == np.uint8:
        if layer.get("normalize"):
            sys.exit("bench_litert.py: a uint8 image input with `normalize` is not supported")
        return lambda pixels: pixels if pixels.dtype == np.uint8 else np.rint(pixels).astype(np.uint8)
    spec = layer.get("normalize") or {}
    standard = spec.get("standard")
    if standard == "[-1,1]":
        return lambda pixels: pixels.astype(np.float32) / np.float32(127.5) - np.float32(1)
    if standard == "[0,1]":
        return lambda pixels: pixels.astype(np.float32) / np.float32(255)
    if "scale" in spec or "bias" in spec:
        scale = np.float32(spec.get("scale", 1))
        bias = spec.get("bias", 0)
        if isinstance(bias, dict):
            bias = np.array([bias.get(c, 0) for c in ("r", "g", "b")], dtype=np.float32)
        else:
            bias = np.float32(bias)
        return lambda pixels: pixels.astype(np.float32) * scale + bias
    return lambda pixels: pixels.astype(np.float32)


def crop_box(width, height):
    side = min(width, height)
    left, top = (width - side) // 2, (height - side) // 2
    return left, top, left + side, top + side


def numpy_crop_resize(pixels, height, width):
    """Centre crop to a square and bilinear resize (2 taps, half-pixel centres) of an HxWx3 uint8 array."""
    left, top, right, bottom = crop_box(pixels.shape[1], pixels.shape[0])
    square = pixels[top:bottom, left:right]
    side = square.shape[0]

    def taps(size):
        coords = np.clip((np.arange(size, dtype=np.float32) + 0.5) * (side / size) - 0.5, 0, side - 1)
        low = coords.astype(np.intp)
        high = np.minimum(low + 1, side - 1)
        return low, high, (coords - low).astype(np.float32)

    y0, y1, wy = taps(height)
    x0, x1, wx = taps(width)
    top_rows = square[y0].astype(np.float32)
    rows = top_rows + (square[y1].astype(np.float32) - top_rows) * wy[:, None, None]
    left_columns = rows[:, x0]
    return left_columns + (rows[:, x1] - left_columns) * wx[None, :, None]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--image")
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0 or args.threads < 1:
        parser.error("--runs must be at least 1, --warmup at least 0, --threads at least 1")

    with open(os.path.join(args.bundle, "model.json")) as f:
        spec = json.load(f)
    start = time.perf_counter_ns()
    interpreter = Interpreter(model_path=os.path.join(args.bundle, spec["model"]["file"]), num_threads=args.threads)
    interpreter.allocate_tensors()
    init_us = (time.perf_counter_ns() - start) / 1000

    inputs = interpreter.get_input_details()
    outputs = interpreter.get_output_details()
    # model.json's layers by the tensors' signature names when they match, else in order.
    signature = interpreter.get_signature_list()
    key = "serving_default" if "serving_default" in signature else next(iter(signature), None)
    try:  # name -> tensor index per signature; a private method, so tolerate its absence
        full = interpreter._get_full_signature_list().get(key, {}) if key else {}
    except AttributeError:
        full = {}
    output_names = {index: name for name, index in full.get("outputs", {}).items()}
    layers = {layer["name"]: layer for layer in spec["outputs"]}
    readers = []
    for position, detail in enumerate(outputs):
        layer = layers.get(output_names.get(detail["index"])) or (spec["outputs"][position] if position < len(spec["outputs"]) else None)
        readers.append((detail["index"], dequantizer(layer, detail)))

    def read_outputs():
        values = []
        for index, convert in readers:
            value = interpreter.get_tensor(index)  # a copy
            values.append(convert(value) if convert else value)
        return values

    rng = np.random.default_rng(2024)
    arrays = [(detail["index"], random_input(detail, rng)) for detail in inputs]

    def run_random():
        for index, array in arrays:
            interpreter.set_tensor(index, array)
        interpreter.invoke()
        return read_outputs()

    start = time.perf_counter_ns()
    run_random()
    first_us = (time.perf_counter_ns() - start) / 1000
    result = {"bundle": os.path.basename(os.path.normpath(args.bundle)), "runs": args.runs, "warmup": args.warmup,
              "threads": args.threads, "init_us": init_us, "first_inference_us": first_us}
    result.update(summary("inference", benchlib.sample_us(run_random, args.runs, args.warmup)))

    if args.image:
        image_layers = [layer for layer in spec["inputs"] if layer.get("type") == "image"]
        if len(spec["inputs"]) != 1 or len(image_layers) != 1 or len(inputs) != 1:
            sys.exit("bench_litert.py: --image needs a model with one input, an image layer")
        layer, detail = image_layers[0], inputs[0]
        height, width = layer["shape"][:2]
        batched = len(detail["shape"]) == 4
        normalize = normalizer(layer, np.dtype(detail["dtype"]))
        labels = None
        if spec["outputs"][0].get("labels"):
            with open(os.path.join(args.bundle, "assets", spec["outputs"][0]["labels"])) as f:
                labels = f.read().splitlines()

        def infer(tensor):
            interpreter.set_tensor(detail["index"], tensor[np.newaxis] if batched else tensor)
            interpreter.invoke()
            return read_outputs()

        with Image.open(args.image) as opened:
            decoded = np.asarray(ImageOps.exif_transpose(opened).convert("RGB"))

        def run_numpy():
            return infer(normalize(numpy_crop_resize(decoded, height, width)))

        def run_pillow():
            with Image.open(args.image) as image:
                image = ImageOps.exif_transpose(image).convert("RGB")
                image = image.resize((width, height), Image.BILINEAR, box=crop_box(*image.size))
                return infer(normalize(np.asarray(image)))

        def top1(values):
            index = int(np.argmax(np.asarray(values[0]).reshape(-1)))
            return labels[index] if labels and index < len(labels) else index

        result.update(summary("end_to_end_numpy", benchlib.sample_us(run_numpy, args.runs, args.warmup)))
        result["numpy_top1"] = top1(run_numpy())
        result.update(summary("end_to_end_pillow", benchlib.sample_us(run_pillow, args.runs, args.warmup)))
        result["pillow_top1"] = top1(run_pillow())

    benchlib.emit(result)


if __name__ == "__main__":
    main()
