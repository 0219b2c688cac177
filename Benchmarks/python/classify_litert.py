"""Usage: classify_litert.py BUNDLE IMAGE

What `tensorio classify BUNDLE IMAGE --top 5` does, in Python: LiteRT's interpreter, Pillow decoding,
NumPy preprocessing, labels from the bundle. Timed as a whole process by run-image-benchmarks.py."""
import json
import os
import sys

import numpy as np
from ai_edge_litert.interpreter import Interpreter
from PIL import Image, ImageOps


def main():
    bundle, path = sys.argv[1], sys.argv[2]
    with open(os.path.join(bundle, "model.json")) as f:
        spec = json.load(f)
    with open(os.path.join(bundle, "assets", spec["outputs"][0]["labels"])) as f:
        labels = f.read().splitlines()
    interpreter = Interpreter(model_path=os.path.join(bundle, spec["model"]["file"]))
    runner = interpreter.get_signature_runner()
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
    scores = runner(image=tensor)["classification"][0].astype(np.float32)
    scale, zero_point = interpreter.get_output_details()[0]["quantization"]
    if scale:
        scores = (scores - zero_point) * scale
    for rank, index in enumerate(np.argsort(-scores, kind="stable")[:5]):
        print(f"  {rank + 1}. {labels[index]}  {scores[index]:.4f}")


if __name__ == "__main__":
    main()
