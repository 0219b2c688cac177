"""Throughput across cores, in one run on one machine (run it with `make bench-throughput`).

Classifies 200 photos (the six of Examples/photos, copied round-robin into a temporary folder so each file
is read as a file of its own) with EfficientNet-Lite0 uint8, process start to the last printed result:
  tensorio classify --jobs 1 --threads 1   one image at a time on one thread: the one-core figure
  tensorio classify --jobs N       N = the machine's cores: decoding and inference overlap, N compiled models
  Python, N processes              Benchmarks/python/classify_many.py: a multiprocessing pool of N processes,
                                   each with its own ai_edge_litert Interpreter, Pillow and NumPy
Each is run --repeats times, interleaved (a slow spell of the shared machine hits all three); the figure
is the median images/s. Prints the table and the goals (issue 12 point 3) with PASS/FAIL, writes
bench-results/throughput.json, and exits 0 whatever the outcome: it reports, it does not gate."""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))

MIN_SCALING = 1.8  # --jobs N over --jobs 1 on 2 cores
MIN_OVER_PYTHON = 1.5  # --jobs N over Python's pool of N processes


def timed(command):
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])} … failed ({result.returncode}): {result.stderr.strip()[-400:]}")
    return seconds, result.stdout


def top1s(stdout):
    """The first label printed under each path, in order (the same text format for both tools)."""
    labels, expecting = [], False
    for line in stdout.splitlines():
        if not line.startswith(" ") and line.strip():
            expecting = True
        elif expecting and line.strip().startswith("1."):
            labels.append(line.strip()[2:].rsplit("  ", 1)[0].strip())
            expecting = False
    return labels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--images", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--bundle", default=os.path.join(ROOT, "Examples", "efficientnet-lite0-uint8.tiobundle"))
    parser.add_argument("--tensorio", default=os.path.join(ROOT, ".build", "release", "tensorio"))
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--json", default=os.path.join(ROOT, "bench-results", "throughput.json"))
    args = parser.parse_args()
    cores = os.cpu_count() or 1

    folder = tempfile.mkdtemp(prefix="tensorio-throughput-")
    try:
        photos = sorted(os.path.join(ROOT, "Examples", "photos", name)
                        for name in os.listdir(os.path.join(ROOT, "Examples", "photos")) if name.endswith(".jpg"))
        paths = []
        for index in range(args.images):
            path = os.path.join(folder, f"{index:04d}-{os.path.basename(photos[index % len(photos)])}")
            shutil.copyfile(photos[index % len(photos)], path)
            paths.append(path)

        commands = {
            # One image at a time on one thread: classify would otherwise give a lone job every core.
            "jobs_1": [args.tensorio, "classify", args.bundle, *paths, "--jobs", "1", "--threads", "1"],
            "jobs_n": [args.tensorio, "classify", args.bundle, *paths, "--jobs", str(cores)],
            "python_n": [args.python, os.path.join(HERE, "python", "classify_many.py"), args.bundle, *paths,
                         "--processes", str(cores)],
        }
        for command in commands.values():  # warm the file cache and the libraries
            timed(command)
        seconds = {name: [] for name in commands}
        labels = {}
        names = list(commands)
        for repeat in range(args.repeats):
            order = names[repeat % len(names):] + names[:repeat % len(names)]
            for name in order:
                elapsed, stdout = timed(commands[name])
                seconds[name].append(elapsed)
                labels[name] = top1s(stdout)
                print(f"repeat {repeat + 1}/{args.repeats} {name}: {args.images / elapsed:.1f} images/s", file=sys.stderr)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    rate = {name: args.images / statistics.median(values) for name, values in seconds.items()}
    agree = labels["jobs_1"] == labels["jobs_n"]
    agree_python = sum(a == b for a, b in zip(labels["jobs_n"], labels["python_n"]))
    scaling = rate["jobs_n"] / rate["jobs_1"]
    over_python = rate["jobs_n"] / rate["python_n"]

    print(f"\nClassifying {args.images} photos with {os.path.relpath(args.bundle, ROOT)}, process start to the last "
          f"result ({cores} cores; median of {args.repeats} interleaved repeats)")
    print(f"| run | images/s | seconds |\n|---|---:|---:|")
    for name, label in (("jobs_1", "tensorio classify --jobs 1 --threads 1"), ("jobs_n", f"tensorio classify --jobs {cores}"),
                        ("python_n", f"Python, a pool of {cores} processes (Pillow, NumPy, ai_edge_litert)")):
        print(f"| {label} | {rate[name]:.1f} | {statistics.median(seconds[name]):.2f} |")
    print(f"Results in the order given: --jobs {cores} printed the same top-1 labels as --jobs 1: {agree}; "
          f"top-1 equal to Python's for {agree_python}/{args.images} photos.")

    goals = [
        (f"--jobs {cores} at least {MIN_SCALING:g}x the one-core images/s", scaling >= MIN_SCALING, f"{scaling:.2f}x"),
        (f"--jobs {cores} at least {MIN_OVER_PYTHON:g}x Python's {cores}-process pool", over_python >= MIN_OVER_PYTHON,
         f"{over_python:.2f}x"),
        ("output order kept", agree, str(agree)),
    ]
    print("\nGoals (issue 12, point 3)")
    for name, passed, shown in goals:
        print(f"  {'PASS' if passed else 'FAIL'}  {name}: {shown}")

    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump({"machine": {"platform": platform.platform(), "cores": cores},
                   "date": time.strftime("%Y-%m-%d %H:%M:%S %z"), "images": args.images,
                   "seconds": seconds, "images_per_second": rate, "scaling": scaling, "over_python": over_python,
                   "goals": [{"goal": n, "result": "PASS" if p else "FAIL", "shown": s} for n, p, s in goals]}, f, indent=2)
    print(f"\nwrote {os.path.relpath(args.json, ROOT)}")


if __name__ == "__main__":
    main()
