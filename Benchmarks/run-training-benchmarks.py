"""Training speed, side by side in one run on one machine (run it with `make bench-training`; issue 12 point 5,
issue 38 point 7).

Trains the two untrained digits bundles of Examples/digits-training on data/train.json (1437 items), the
same batches on both sides (file order, no shuffle, --batch-size items, the last batch of an epoch smaller),
one CPU thread each:
  TensorIO   tensorio train BUNDLE --data train.json --epochs N --batch-size B --json: each epoch's seconds
             are its loop (each batch read from the data source, and the step), without the process start
             or loading the model and the data
  Python     Benchmarks/python/train_litert.py (ai_edge_litert's Interpreter and the "train" signature
             runner) and Benchmarks/python/train_tensorflow.py (a tf.compat.v1 Session with the SavedModel
             loaded by saved_model.loader.load, one sess.run per batch with TensorIO's feeds, fetches and
             target), NumPy slices of arrays read once, timing the same loop per epoch
The TensorFlow bundle is fed learning_rate 0.3 on both sides (the TFLite model has it built in).

What is measured is the steps, not the machine: a LiteRT step of the digits model takes about 10 µs, so
five epochs (225 steps, 2 ms) were a measure of the scheduler. Each run now trains as many epochs as make
at least --min-seconds of steps (found from an untimed run of each side, the same count on both sides),
and its figure is the steps per second of its median epoch, from the second on: the first epoch warms
up (TensorFlow's first steps take tens of milliseconds), and an epoch in which another process took the
core is one of hundreds, not a fifth of the figure. The mean over those epochs is kept as a reference.

The two sides run --repeats times, alternating which goes first; the goal is decided on the median of the
repeats' TensorIO/Python ratios (each pair ran back to back), printed with their range. As a check that
both sides did the same work, every epoch's mean training loss must agree. Prints the table and the goals
with PASS/FAIL, writes bench-results/training.json, and exits 0 whatever the outcome: it reports, it does
not gate."""
import argparse
import math
import os
import sys

import benchlib
from benchlib import ROOT, HERE, describe, median, ratios, relative, run_json

DIGITS = os.path.join(ROOT, "Examples", "digits-training")

# (key, bundle, Python script, placeholders fed on both sides)
BACKENDS = [
    ("tflite", "digits-train-tflite", "train_litert.py", []),
    ("tensorflow", "digits-train-tensorflow", "train_tensorflow.py", ["learning_rate=0.3"]),
]

# Epoch losses are float32 sums taken in a different order on the two sides, read back as doubles.
LOSS_TOLERANCE = 1e-5
# Epochs a run trains at the most, whatever --min-seconds asks; epochs of the untimed run that measures one.
MAX_EPOCHS = 20000
CALIBRATION_EPOCHS = 20


def losses_agree(ours, theirs):
    return len(ours) == len(theirs) and all(
        abs(a - b) <= LOSS_TOLERANCE * max(1.0, abs(b)) for a, b in zip(ours, theirs))


def epoch_figures(result):
    """(steps/s of the median epoch, steps/s over all the epochs, the median epoch's seconds), the first
    epoch left out when there are others."""
    epochs = result["epochs"]
    steps_per_epoch = result["steps"] / len(epochs)
    timed = epochs[1:] if len(epochs) > 1 else epochs
    seconds = [epoch["seconds"] for epoch in timed]
    typical = median(seconds)
    return steps_per_epoch / typical, steps_per_epoch * len(seconds) / sum(seconds), typical


def main():
    parser = argparse.ArgumentParser(description="TensorIO's training steps/s against Python's, side by side.")
    parser.add_argument("--epochs", type=int, default=5, help="epochs per run at the least (default 5)")
    parser.add_argument("--min-seconds", type=float, default=0.5,
                        help="timed steps per run at the least, in seconds: sets the epochs per run (default 0.5)")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=5, help="alternating repeats per backend (default 5)")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads, the same on both sides (default 1)")
    parser.add_argument("--backends", help="comma-separated subset of: " + ", ".join(b[0] for b in BACKENDS))
    parser.add_argument("--data", default=os.path.join(DIGITS, "data", "train.json"))
    parser.add_argument("--tensorio", default=os.path.join(ROOT, "Tools", ".build", "release", "tensorio"))
    parser.add_argument("--python", default=sys.executable,
                        help="the Python with the packages of Benchmarks/python/requirements.txt")
    parser.add_argument("--json", default=os.path.join(benchlib.RESULTS, "training.json"))
    args = parser.parse_args()
    if min(args.epochs, args.batch_size, args.repeats, args.threads) < 1 or args.min_seconds < 0:
        parser.error("--epochs, --batch-size, --repeats and --threads must be at least 1, --min-seconds at least 0")
    backends = BACKENDS
    if args.backends:
        wanted = {name.strip() for name in args.backends.split(",") if name.strip()}
        if wanted - {b[0] for b in BACKENDS}:
            parser.error(f"unknown backends: {', '.join(sorted(wanted - {b[0] for b in BACKENDS}))}")
        backends = [b for b in BACKENDS if b[0] in wanted]

    data = {"settings": {"min_epochs": args.epochs, "min_seconds": args.min_seconds, "batch_size": args.batch_size,
                         "repeats": args.repeats, "threads": args.threads, "data": relative(args.data)},
            "backends": {}}
    rows, goals, references = [], [], []
    for key, name, script, placeholders in backends:
        bundle = os.path.join(DIGITS, name + ".tiobundle")
        fed = [part for text in placeholders for part in ("--placeholder", text)]

        def commands(epochs):
            shared = ["--data", args.data, "--epochs", str(epochs), "--batch-size", str(args.batch_size),
                      "--threads", str(args.threads), *fed]
            return {"tensorio": [args.tensorio, "train", bundle, *shared, "--json"],
                    "python": [args.python, os.path.join(HERE, "python", script), bundle, *shared]}

        # An untimed run of each side warms the file cache and the libraries, and tells how long an epoch
        # takes: the faster side's fastest epoch (after the first; TensorFlow's next few still warm up, and
        # of 20 one is likely to have had the core to itself) sets how many epochs make --min-seconds, for
        # both sides.
        calibration = {side: run_json(command) for side, command in commands(max(args.epochs, CALIBRATION_EPOCHS)).items()}
        fastest_epoch = min(min(e["seconds"] for e in result["epochs"][1:] or result["epochs"]) for result in calibration.values())
        epochs = min(MAX_EPOCHS, max(args.epochs, 1 + math.ceil(args.min_seconds / max(fastest_epoch, 1e-9))))
        benchlib.log(f"[{name}] an epoch takes {fastest_epoch * 1e3:.2f} ms on the faster side: {epochs} epochs per run")
        chosen = commands(epochs)

        # The calibration runs were the untimed ones.
        runs = benchlib.alternate_json(
            chosen, args.repeats, label=name,
            show=lambda r: ", ".join(f"{side} {epoch_figures(result)[0]:.0f} steps/s" for side, result in r.items()))

        rates = {side: [epoch_figures(r)[0] for r in results] for side, results in runs.items()}
        means = {side: [epoch_figures(r)[1] for r in results] for side, results in runs.items()}
        pairs = ratios(rates["tensorio"], rates["python"])
        losses = {side: [e["loss"] for e in results[-1]["epochs"]] for side, results in runs.items()}
        same = losses_agree(losses["tensorio"], losses["python"])
        steps_per_epoch = runs["tensorio"][-1]["steps"] // epochs
        rows.append((name, median(rates["tensorio"]), median(rates["python"]), median(pairs), losses["tensorio"][-1],
                     losses["python"][-1]))
        goals.append(benchlib.goal(
            f"TensorIO training steps/s >= Python on {name}", pairs, 1.0, show=lambda v: f"{v:.3f}x",
            detail=f"TensorIO {describe(rates['tensorio'], lambda v: f'{v:.0f}')} steps/s, Python "
                   f"{describe(rates['python'], lambda v: f'{v:.0f}')} ({epochs} epochs of {steps_per_epoch} steps a run, "
                   f"each run's median epoch)"))
        largest = max((abs(a - b) for a, b in zip(losses["tensorio"], losses["python"])), default=0.0)
        goals.append(benchlib.check(
            f"the same training on {name}: every epoch's mean loss equal to Python's", same,
            f"{epochs} epochs, largest difference {largest:.1e}; epoch {epochs}: {losses['tensorio'][-1]:.6f} and "
            f"{losses['python'][-1]:.6f}"))
        references.append(f"{name}, steps/s over all the epochs from the second (the mean, which an epoch slowed by "
                          f"another process moves): TensorIO {describe(means['tensorio'], lambda v: f'{v:.0f}')}, "
                          f"Python {describe(means['python'], lambda v: f'{v:.0f}')}")
        data["backends"][key] = {
            "bundle": relative(bundle), "epochs": epochs, "steps_per_epoch": steps_per_epoch,
            "commands": {side: " ".join(relative(part) if part.startswith(ROOT) else part for part in command)
                         for side, command in chosen.items()},
            "median_epoch_steps_per_second": rates, "mean_steps_per_second": means,
            "tensorio_over_python": pairs, "epoch_losses": losses, "losses_agree": same,
            "calibration_epoch_seconds": fastest_epoch,
            "runs": {side: [{k: v for k, v in r.items() if k != "epochs"} | {"epoch_seconds": [e["seconds"] for e in r["epochs"]]}
                            for r in results] for side, results in runs.items()}}

    print(f"\nTraining the digits bundles on {relative(args.data)}: batch {args.batch_size}, file order, "
          f"{args.threads} thread(s); steps/s of each run's median epoch (from the second), median of "
          f"{args.repeats} alternating repeats")
    print("| bundle | TensorIO steps/s | Python steps/s | TensorIO / Python (median of pairs) | µs/step TensorIO | "
          "µs/step Python | last epoch's loss TensorIO | Python |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, ours, theirs, pair, loss_ours, loss_theirs in rows:
        print(f"| {name} | {ours:.0f} | {theirs:.0f} | {pair:.2f}x | {1e6 / ours:.1f} | {1e6 / theirs:.1f} | "
              f"{loss_ours:.6f} | {loss_theirs:.6f} |")
    benchlib.report("training", goals, references, data, path=args.json, heading="Goals (issue 12, point 5)",
                    packages=("numpy", "ai-edge-litert", "tensorflow-cpu", "tensorflow"))


if __name__ == "__main__":
    main()
