"""Throughput across cores, in one run on one machine (run it with `make bench-throughput`).

Classifies 200 photos (the six of Examples/photos, copied round-robin into a temporary folder so each file
is read as a file of its own) with EfficientNet-Lite0 uint8, process start to the last printed result:
  tensorio classify --jobs 1 --threads 1   one image at a time on one thread: the one-core figure
  tensorio classify --jobs N       N = the machine's cores: decoding and inference overlap, N compiled models
  Python, N processes              Benchmarks/python/classify_many.py: a multiprocessing pool of N processes,
                                   each with its own ai_edge_litert Interpreter, Pillow and NumPy
Each is run --repeats times after an untimed run of each, the order turning each round (benchlib's
alternate: a slow spell of the shared machine hits all three); each goal is decided on the median of the
rounds' ratios (two runs of the same round) and printed with their range. Prints the table and the goals
(issue 12 point 3) with PASS/FAIL, writes bench-results/throughput.json, and exits 0 whatever the outcome:
it reports, it does not gate."""
import argparse
import os
import shutil
import sys
import tempfile

import benchlib
from benchlib import ROOT, HERE, describe, median, ratios, timed

MIN_SCALING = 1.8  # --jobs N over --jobs 1 on 2 cores
MIN_OVER_PYTHON = 1.5  # --jobs N over Python's pool of N processes


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
    parser.add_argument("--tensorio", default=os.path.join(ROOT, "Tools", ".build", "release", "tensorio"))
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--json", default=os.path.join(ROOT, "bench-results", "throughput.json"))
    args = parser.parse_args()
    cores = os.cpu_count() or 1

    folder = tempfile.mkdtemp(prefix="tensorio-throughput-")
    try:
        photos = sorted(os.path.join(ROOT, "Examples", "photos", name)
                        for name in os.listdir(os.path.join(ROOT, "Examples", "photos")) if name.endswith(".jpg"))
        paths = benchlib.copy_round_robin(photos, args.images, folder, name="{index:04d}-{stem}{extension}")
        commands = {
            # One image at a time on one thread: classify would otherwise give a lone job every core.
            "jobs_1": [args.tensorio, "classify", args.bundle, *paths, "--jobs", "1", "--threads", "1"],
            "jobs_n": [args.tensorio, "classify", args.bundle, *paths, "--jobs", str(cores)],
            "python_n": [args.python, os.path.join(HERE, "python", "classify_many.py"), args.bundle, *paths,
                         "--processes", str(cores)],
        }
        runs = benchlib.alternate({name: (lambda c=c: timed(c)) for name, c in commands.items()}, args.repeats,
                                  label="classify", show=lambda r: ", ".join(f"{name} {args.images / seconds:.1f} images/s"
                                                                              for name, (seconds, _) in r.items()))
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    seconds = {name: [elapsed for elapsed, _ in results] for name, results in runs.items()}
    labels = {name: top1s(results[-1][1]) for name, results in runs.items()}
    rate = {name: args.images / median(values) for name, values in seconds.items()}
    agree = all(top1s(stdout) == top1s(runs["jobs_1"][0][1]) for name in ("jobs_1", "jobs_n") for _, stdout in runs[name])
    agree_python = sum(a == b for a, b in zip(labels["jobs_n"], labels["python_n"]))
    scaling = ratios(seconds["jobs_1"], seconds["jobs_n"])
    over_python = ratios(seconds["python_n"], seconds["jobs_n"])

    print(f"\nClassifying {args.images} photos with {benchlib.relative(args.bundle)}, process start to the last "
          f"result ({cores} cores; median of {args.repeats} alternating rounds, and their range)")
    print("| run | images/s | seconds |\n|---|---:|---:|")
    for name, label in (("jobs_1", "tensorio classify --jobs 1 --threads 1"), ("jobs_n", f"tensorio classify --jobs {cores}"),
                        ("python_n", f"Python, a pool of {cores} processes (Pillow, NumPy, ai_edge_litert)")):
        print(f"| {label} | {rate[name]:.1f} | {describe(seconds[name])} |")
    print(f"Results in the order given: --jobs {cores} printed the same top-1 labels as --jobs 1 in every round: {agree}; "
          f"top-1 equal to Python's for {agree_python}/{args.images} photos.")

    goals = [
        benchlib.goal(f"--jobs {cores} at least {MIN_SCALING:g}x the one-core images/s", scaling, MIN_SCALING,
                      detail=f"{rate['jobs_1']:.1f} and {rate['jobs_n']:.1f} images/s (medians)"),
        benchlib.goal(f"--jobs {cores} at least {MIN_OVER_PYTHON:g}x Python's {cores}-process pool", over_python, MIN_OVER_PYTHON,
                      detail=f"{rate['jobs_n']:.1f} and {rate['python_n']:.1f} images/s (medians)"),
        benchlib.check("output order kept", agree, str(agree)),
    ]
    benchlib.report("throughput", goals, data={"images": args.images, "seconds": seconds, "images_per_second": rate,
                                               "scaling": scaling, "over_python": over_python},
                    path=args.json, heading="Goals (issue 12, point 3)", packages=("numpy", "pillow", "ai-edge-litert"))


if __name__ == "__main__":
    main()
