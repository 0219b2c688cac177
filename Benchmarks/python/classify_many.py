"""Usage: classify_many.py BUNDLE --processes N IMAGE...

What `tensorio classify BUNDLE IMAGE... --jobs N` does, in Python with every core busy the usual way: a
multiprocessing pool of N processes, each with its own ai_edge_litert Interpreter (loaded once per process),
decoding with Pillow and preprocessing with NumPy as classify_litert.py does. Prints the top-5 of each image
in the order given; timed as a whole process by run-throughput-benchmarks.py."""
import argparse
import json
import multiprocessing
import os

import numpy as np
from ai_edge_litert.interpreter import Interpreter
from PIL import Image, ImageOps

_state = {}


def _load(bundle):
    with open(os.path.join(bundle, "model.json")) as f:
        spec = json.load(f)
    with open(os.path.join(bundle, "assets", spec["outputs"][0]["labels"])) as f:
        labels = f.read().splitlines()
    interpreter = Interpreter(model_path=os.path.join(bundle, spec["model"]["file"]), num_threads=1)
    scale, zero_point = interpreter.get_output_details()[0]["quantization"]
    _state.update(spec=spec, labels=labels, runner=interpreter.get_signature_runner(), scale=scale, zero_point=zero_point)


def _classify(path):
    spec = _state["spec"]
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
    scores = _state["runner"](image=tensor)["classification"][0].astype(np.float32)
    if _state["scale"]:
        scores = (scores - _state["zero_point"]) * _state["scale"]
    best = np.argsort(-scores, kind="stable")[:5]
    return path, [(_state["labels"][i], float(scores[i])) for i in best]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bundle")
    parser.add_argument("images", nargs="+")
    parser.add_argument("--processes", type=int, default=os.cpu_count())
    args = parser.parse_args()
    with multiprocessing.Pool(args.processes, initializer=_load, initargs=(args.bundle,)) as pool:
        # imap keeps the order given, as tensorio classify does; a small chunk keeps every process busy.
        for path, best in pool.imap(_classify, args.images, chunksize=4):
            print(path)
            for rank, (label, score) in enumerate(best):
                print(f"  {rank + 1}. {label}  {score:.4f}")


if __name__ == "__main__":
    main()
