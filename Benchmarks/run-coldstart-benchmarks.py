#!/usr/bin/env python3
"""Cold start (issue 12, point 4): process start to printed top-5 for one photo, side by side, in one run.

Each measurement is the wall time of one whole `tensorio classify BUNDLE PHOTO` process, from launch to
exit (its top-5 printed), as hyperfine would measure it: the processes are interleaved (--runs rounds,
each running every variant once, in a rotating order) and the medians compared.

  process start     `tensorio --version`: what starting the executable costs before any model work
  no weight cache   `tensorio classify` as before (LiteRT repacks the weights on every load)
  weight cache      `tensorio classify --weight-cache DIR`, the cache written by one run beforehand
  baseline build    with --baseline PATH: that executable's `classify` (for example a build of the commit
                    before this work), the "today's" of the goal

The goal: the weight-cache median at most 60% of the baseline build's median, or of the no-weight-cache
median when no baseline build is given. Prints a table and the goal with PASS/FAIL, writes
bench-results/coldstart.json, and exits 0 whatever the outcome: it reports, it does not gate.
"""
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
MAX_RATIO = 0.60


def log(message):
    print(message, file=sys.stderr, flush=True)


def timed(command):
    """(milliseconds, stdout) of one process run to completion; raises when it fails."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-300:]}")
    return elapsed, done.stdout


def main():
    parser = argparse.ArgumentParser(description="tensorio classify cold start, with and without the weight cache.")
    parser.add_argument("--runs", type=int, default=30, help="interleaved rounds (default 30)")
    parser.add_argument("--tensorio", default=os.path.join(ROOT, ".build", "release", "tensorio"))
    parser.add_argument("--baseline", help="another tensorio executable to compare with (today's build)")
    parser.add_argument("--bundle", default=os.path.join(ROOT, "Examples", "efficientnet-lite0-float32.tiobundle"))
    parser.add_argument("--image", default=os.path.join(ROOT, "Examples", "photos", "cat.jpg"))
    parser.add_argument("--json", default=os.path.join(ROOT, "bench-results", "coldstart.json"))
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    for path in [args.tensorio] + ([args.baseline] if args.baseline else []):
        if not os.access(path, os.X_OK):
            parser.error(f"{path} is missing: build it first (make build)")

    cache = tempfile.mkdtemp(prefix="tensorio-weight-cache-")
    try:
        classify = [args.tensorio, "classify", args.bundle, args.image]
        variants = {
            "process_start": [args.tensorio, "--version"],
            "no_weight_cache": classify,
            "weight_cache": classify + ["--weight-cache", cache],
        }
        if args.baseline:
            variants["baseline_build"] = [args.baseline, "classify", args.bundle, args.image]
        # Writing the cache is part of the first cached run only; it is timed once, on its own.
        first_ms, first_output = timed(variants["weight_cache"])
        _, plain_output = timed(classify)
        outputs_match = first_output == plain_output
        # Warm the file cache for every executable and library before timing.
        for command in variants.values():
            timed(command)

        times = {name: [] for name in variants}
        names = list(variants)
        for round_index in range(args.runs):
            order = names[round_index % len(names):] + names[:round_index % len(names)]
            for name in order:
                elapsed, output = timed(variants[name])
                times[name].append(elapsed)
                if name == "weight_cache" and output != plain_output:
                    outputs_match = False
            log(f"round {round_index + 1}/{args.runs}")
    finally:
        shutil.rmtree(cache, ignore_errors=True)

    medians = {name: statistics.median(values) for name, values in times.items()}
    reference_name = "baseline_build" if args.baseline else "no_weight_cache"
    ratio = medians["weight_cache"] / medians[reference_name]
    passed = ratio <= MAX_RATIO and outputs_match

    labels = {"process_start": "process start (tensorio --version)",
              "no_weight_cache": "classify, no weight cache",
              "weight_cache": "classify --weight-cache (cache written beforehand)",
              "baseline_build": "classify, baseline build"}
    print(f"Cold start: {os.path.relpath(args.bundle, ROOT)} on {os.path.relpath(args.image, ROOT)}, "
          f"{args.runs} interleaved rounds, wall time per process (ms)")
    print(f"{'':52} {'median':>8} {'min':>8}")
    for name in names:
        print(f"{labels[name]:52} {medians[name]:8.1f} {min(times[name]):8.1f}")
    print(f"{'first run with an empty cache (writes it), once':52} {first_ms:8.1f}")
    print()
    print(f"{'PASS' if passed else 'FAIL'}  cold start with the weight cache at most {MAX_RATIO:.0%} of "
          f"{labels[reference_name]}: {ratio:.0%}"
          + ("" if outputs_match else " (the cached run printed something else: FAIL)"))

    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump({"date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
                   "machine": {"platform": platform.platform(), "processor": platform.processor(),
                               "cpus": os.cpu_count()},
                   "command": " ".join([os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:]),
                   "runs": args.runs, "medians_ms": medians, "times_ms": times, "first_cached_run_ms": first_ms,
                   "reference": reference_name, "ratio": ratio, "max_ratio": MAX_RATIO,
                   "outputs_match": outputs_match,
                   "goals": [{"goal": f"cold start with the weight cache at most {MAX_RATIO:.0%} of {labels[reference_name]}",
                              "result": "PASS" if passed else "FAIL", "shown": f"{ratio:.0%}"}]}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
