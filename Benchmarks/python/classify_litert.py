"""Usage: classify_litert.py BUNDLE IMAGE

What `tensorio classify BUNDLE IMAGE --top 5` does, in Python: LiteRT's interpreter, Pillow decoding,
NumPy preprocessing, labels from the bundle. Timed as a whole process by run-image-benchmarks.py;
classify_many.py reuses load() and top5()."""
import json
import os
import sys

import numpy as np
from ai_edge_litert.interpreter import Interpreter
from PIL import Image, ImageOps


def load(bundle, num_threads=None):
    """The bundle's spec, labels, signature runner and output quantization."""
    with open(os.path.join(bundle, "model.json")) as f:
        spec = json.load(f)
    with open(os.path.join(bundle, "assets", spec["outputs"][0]["labels"])) as f:
        labels = f.read().splitlines()
    interpreter = Interpreter(model_path=os.path.join(bundle, spec["model"]["file"]), num_threads=num_threads)
    scale, zero_point = interpreter.get_output_details()[0]["quantization"]
    return {"spec": spec, "labels": labels, "runner": interpreter.get_signature_runner(),
            "scale": scale, "zero_point": zero_point}


def top5(model, path):
    """Decodes, centre-crops and scales the photo, runs the model, and returns the five best (label, score)."""
    spec = model["spec"]
    height, width = spec["inputs"][0]["shape"][:2]
    with Image.open(path) as image:
        image = ImageOps.exif_transpose(image).convert("RGB")
        w, h = image.size
        side = min(w, h)
        left, top = (w - side) // 2, (h - side) // 2
        image = image.resize((width, height), Image.BILINEAR, box=(left, top, left + side, top + side))
    pixels = np.asarray(image)
    if spec["model"]["quantized"]:
        tensor = pixels[np.newaxis].astype(np.uint8)
    else:
        tensor = (pixels.astype(np.float32) / 127.5 - 1.0)[np.newaxis]
    scores = model["runner"](image=tensor)["classification"][0].astype(np.float32)
    if model["scale"]:
        scores = (scores - model["zero_point"]) * model["scale"]
    return [(model["labels"][i], float(scores[i])) for i in np.argsort(-scores, kind="stable")[:5]]


def main():
    bundle, path = sys.argv[1], sys.argv[2]
    for rank, (label, score) in enumerate(top5(load(bundle), path)):
        print(f"  {rank + 1}. {label}  {score:.4f}")


if __name__ == "__main__":
    main()
