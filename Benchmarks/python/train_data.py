"""What the two training scripts share: the data, the batches, the timing and the JSON they print.

The data is read once into NumPy arrays (float32, as the models take it) and each batch is a slice of them,
as a Python user feeds a model; the batches are the dataset in file order (no shuffle), `batch_size` items
each, the last one smaller, as `tensorio train` without --shuffle visits them."""
import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Benchmarks/, for benchlib
import benchlib  # noqa: E402


def arguments():
    """The options both scripts take (as `tensorio train` names them); returns the parser to add more."""
    parser = argparse.ArgumentParser()
    parser.add_argument("bundle")
    parser.add_argument("--data", required=True)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--threads", type=int, default=1)
    return parser


def model_json(bundle):
    """The bundle's model.json, parsed."""
    with open(os.path.join(bundle, "model.json")) as f:
        return json.load(f)


def load(path, keys):
    """{key: float32 array [items, ...]} from a JSON array of items keyed by layer name (train.json)."""
    with open(path) as f:
        items = json.load(f)
    return {key: np.asarray([item[key] for item in items], dtype=np.float32) for key in keys}


def train(step, arrays, epochs, batch_size):
    """Runs `step(batch) -> loss` over every batch for `epochs` epochs, timing each epoch's loop only.

    Returns what the scripts print: per epoch its mean loss and seconds, and over all epochs the steps,
    their seconds and the steps per second."""
    count = len(next(iter(arrays.values())))
    history = []
    for epoch in range(1, epochs + 1):
        losses = []
        start = time.perf_counter()
        for first in range(0, count, batch_size):
            losses.append(float(step({key: array[first:first + batch_size] for key, array in arrays.items()})))
        seconds = time.perf_counter() - start
        history.append({"epoch": epoch, "loss": sum(losses) / len(losses), "seconds": seconds, "steps": len(losses)})
    steps = sum(epoch["steps"] for epoch in history)
    seconds = sum(epoch["seconds"] for epoch in history)
    return {"epochs": history, "steps": steps, "step_seconds": seconds, "steps_per_second": steps / seconds}


emit = benchlib.emit
