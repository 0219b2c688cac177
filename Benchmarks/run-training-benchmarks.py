"""Training speed, side by side in one run on one machine (run it with `make bench-training`; issue 12 point 5).

Trains the two untrained digits bundles of Examples/digits-training on data/train.json (1437 items), the
same batches on both sides (file order, no shuffle, --batch-size items, the last batch of an epoch smaller),
for --epochs epochs, one CPU thread each:
  TensorIO   tensorio train BUNDLE --data train.json --epochs N --batch-size B --json: its steps_per_second
             is timed over the epochs' loops, each batch read from the data source and the step, without
             the process start or loading the model and the data
  Python     Benchmarks/python/train_litert.py (ai_edge_litert's Interpreter and the "train" signature
             runner) and Benchmarks/python/train_tensorflow.py (a tf.compat.v1 Session with the SavedModel
             loaded by saved_model.loader.load, one sess.run per batch with TensorIO's feeds, fetches and
             target), NumPy slices of arrays read once, timing the same loop
The TensorFlow bundle is fed learning_rate 0.3 on both sides (the TFLite model has it built in).

Each pair is run --repeats times, interleaved and alternating which side goes first (a slow spell of the
shared machine hits both), after one untimed run of each; the figure is the median steps/s over the
repeats. As a check that both sides did the same work, each epoch's mean training loss must agree.
Prints the table and the goals with PASS/FAIL, writes bench-results/training.json, and exits 0 whatever
the outcome: it reports, it does not gate."""
import argparse
import importlib.metadata
import json
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))
DIGITS = os.path.join(ROOT, "Examples", "digits-training")

# (key, bundle, Python script, placeholders fed on both sides)
BACKENDS = [
    ("tflite", "digits-train-tflite", "train_litert.py", []),
    ("tensorflow", "digits-train-tensorflow", "train_tensorflow.py", ["learning_rate=0.3"]),
]

# Epoch losses are float32 sums taken in a different order on the two sides, read back as doubles.
LOSS_TOLERANCE = 1e-5


def log(message):
    print(message, file=sys.stderr, flush=True)


def run_json(command):
    """Runs a command that prints one JSON object (the last line of stdout) and returns it."""
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {tail}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def losses_agree(ours, theirs):
    return len(ours) == len(theirs) and all(
        abs(a - b) <= LOSS_TOLERANCE * max(1.0, abs(b)) for a, b in zip(ours, theirs))


def machine():
    info = {"platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version()}
    try:
        with open("/proc/cpuinfo") as f:
            names = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
        if names:
            info["cpu"] = names[0]
    except OSError:
        pass
    for package in ("numpy", "ai-edge-litert", "tensorflow-cpu", "tensorflow"):
        try:
            info[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            pass
    return info


def main():
    parser = argparse.ArgumentParser(description="TensorIO's training steps/s against Python's, side by side.")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repeats per backend (default 5)")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads, the same on both sides (default 1)")
    parser.add_argument("--backends", help="comma-separated subset of: " + ", ".join(b[0] for b in BACKENDS))
    parser.add_argument("--data", default=os.path.join(DIGITS, "data", "train.json"))
    parser.add_argument("--tensorio", default=os.path.join(ROOT, ".build", "release", "tensorio"))
    parser.add_argument("--python", default=sys.executable,
                        help="the Python with the packages of Benchmarks/python/requirements.txt")
    parser.add_argument("--json", default=os.path.join(ROOT, "bench-results", "training.json"))
    args = parser.parse_args()
    if min(args.epochs, args.batch_size, args.repeats, args.threads) < 1:
        parser.error("--epochs, --batch-size, --repeats and --threads must be at least 1")
    backends = BACKENDS
    if args.backends:
        wanted = {name.strip() for name in args.backends.split(",") if name.strip()}
        if wanted - {b[0] for b in BACKENDS}:
            parser.error(f"unknown backends: {', '.join(sorted(wanted - {b[0] for b in BACKENDS}))}")
        backends = [b for b in BACKENDS if b[0] in wanted]

    shared = ["--data", args.data, "--epochs", str(args.epochs), "--batch-size", str(args.batch_size),
              "--threads", str(args.threads)]
    results = {"machine": machine(), "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
               "command": " ".join([os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:]),
               "settings": {"epochs": args.epochs, "batch_size": args.batch_size, "repeats": args.repeats,
                            "threads": args.threads, "data": os.path.relpath(args.data, ROOT)},
               "backends": {}}
    rows, goals = [], []
    for key, name, script, placeholders in backends:
        bundle = os.path.join(DIGITS, name + ".tiobundle")
        fed = [part for text in placeholders for part in ("--placeholder", text)]
        commands = {
            "tensorio": [args.tensorio, "train", bundle, *shared, *fed, "--json"],
            "python": [args.python, os.path.join(HERE, "python", script), bundle, *shared, *fed],
        }
        for command in commands.values():  # warm the file cache and the libraries
            run_json(command)
        runs = {side: [] for side in commands}
        for repeat in range(args.repeats):
            for side in (("tensorio", "python") if repeat % 2 == 0 else ("python", "tensorio")):
                runs[side].append(run_json(commands[side]))
            log(f"repeat {repeat + 1}/{args.repeats} {name}: TensorIO {runs['tensorio'][-1]['steps_per_second']:.0f}, "
                f"Python {runs['python'][-1]['steps_per_second']:.0f} steps/s")

        rate = {side: statistics.median(r["steps_per_second"] for r in runs[side]) for side in runs}
        pair = statistics.median(t["steps_per_second"] / p["steps_per_second"]
                                 for t, p in zip(runs["tensorio"], runs["python"]))
        losses = {side: [e["loss"] for e in runs[side][-1]["epochs"]] for side in runs}
        same = losses_agree(losses["tensorio"], losses["python"])
        steps = runs["tensorio"][-1]["steps"]
        rows.append((name, rate["tensorio"], rate["python"], rate["tensorio"] / rate["python"], pair,
                     losses["tensorio"][-1], losses["python"][-1]))
        goals.append((f"TensorIO training steps/s >= Python on {name}", rate["tensorio"] >= rate["python"],
                      f"{rate['tensorio']:.0f} against {rate['python']:.0f} steps/s ({rate['tensorio'] / rate['python']:.2f}x)"))
        goals.append((f"the same training on {name}: every epoch's mean loss equal to Python's", same,
                      f"epoch {args.epochs}: {losses['tensorio'][-1]:.6f} and {losses['python'][-1]:.6f}"))
        results["backends"][key] = {
            "bundle": os.path.relpath(bundle, ROOT), "steps": steps, "commands": {
                side: " ".join(os.path.relpath(part, ROOT) if part.startswith(ROOT) else part for part in command)
                for side, command in commands.items()},
            "steps_per_second": rate, "tensorio_over_python": rate["tensorio"] / rate["python"],
            "median_of_repeat_ratios": pair, "epoch_losses": losses, "losses_agree": same, "runs": runs}

    print(f"\nTraining the digits bundles on {os.path.relpath(args.data, ROOT)}: {args.epochs} epochs of batch "
          f"{args.batch_size}, file order, {args.threads} thread(s); steps/s over the step loop, median of "
          f"{args.repeats} interleaved repeats")
    print("| bundle | TensorIO steps/s | Python steps/s | TensorIO / Python | median of pairs | µs/step TensorIO | "
          f"µs/step Python | epoch {args.epochs} loss TensorIO | Python |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, ours, theirs, over, pair, loss_ours, loss_theirs in rows:
        print(f"| {name} | {ours:.0f} | {theirs:.0f} | {over:.2f}x | {pair:.2f}x | {1e6 / ours:.1f} | "
              f"{1e6 / theirs:.1f} | {loss_ours:.6f} | {loss_theirs:.6f} |")

    print("\nGoals (issue 12, point 5)")
    for goal, passed, shown in goals:
        print(f"  {'PASS' if passed else 'FAIL'}  {goal}: {shown}")
    results["goals"] = [{"goal": g, "result": "PASS" if p else "FAIL", "shown": s} for g, p, s in goals]

    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(results, f, indent=2)
    print(f"\nwrote {os.path.relpath(args.json, ROOT) if args.json.startswith(ROOT) else args.json}")


if __name__ == "__main__":
    main()
