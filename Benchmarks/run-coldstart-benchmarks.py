#!/usr/bin/env python3
"""Cold start (issue 12, point 4): process start to printed top-5 for one photo, side by side, in one run.

Each measurement is the wall time of one whole `tensorio classify BUNDLE PHOTO` process, from launch to
exit (its top-5 printed), as hyperfine would measure it: the processes are interleaved (--runs rounds,
each running every variant once, in a rotating order: benchlib's alternate).

  process start     `tensorio --version`: what starting the executable costs before any model work
  no weight cache   `tensorio classify` as before (LiteRT repacks the weights on every load)
  weight cache      `tensorio classify --weight-cache DIR`, the cache written by one run beforehand
  baseline build    with --baseline PATH: that executable's `classify` (for example a build of the commit
                    before this work), the "today's" of the goal

The goal: the weight-cache run at most 60% of the baseline build's run, or of the no-weight-cache run when
no baseline build is given, decided on the median of the rounds' ratios (the two ran in the same round) and
printed with their range. Prints a table and the goal with PASS/FAIL, writes
bench-results/coldstart.json, and exits 0 whatever the outcome: it reports, it does not gate.
"""
import argparse
import os
import shutil
import tempfile

import benchlib
from benchlib import ROOT, describe, median, ratios

MAX_RATIO = 0.60


def timed(command):
    """(milliseconds, stdout) of one process run to completion; exits when it fails."""
    seconds, stdout = benchlib.timed(command)
    return seconds * 1000, stdout


def main():
    parser = argparse.ArgumentParser(description="tensorio classify cold start, with and without the weight cache.")
    parser.add_argument("--runs", type=int, default=30, help="interleaved rounds (default 30)")
    parser.add_argument("--tensorio", default=os.path.join(ROOT, "Tools", ".build", "release", "tensorio"))
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
        # Every executable and library read once before timing (alternate's untimed round).
        runs = benchlib.alternate({name: (lambda c=c: timed(c)) for name, c in variants.items()}, args.runs,
                                  label="cold start", show=lambda r: " ".join(f"{name} {ms:.1f} ms" for name, (ms, _) in r.items()))
    finally:
        shutil.rmtree(cache, ignore_errors=True)

    names = list(variants)
    times = {name: [ms for ms, _ in results] for name, results in runs.items()}
    outputs_match = outputs_match and all(output == plain_output for _, output in runs["weight_cache"])
    medians = {name: median(values) for name, values in times.items()}
    reference_name = "baseline_build" if args.baseline else "no_weight_cache"
    shares = ratios(times["weight_cache"], times[reference_name])
    ratio = median(shares)

    labels = {"process_start": "process start (tensorio --version)",
              "no_weight_cache": "classify, no weight cache",
              "weight_cache": "classify --weight-cache (cache written beforehand)",
              "baseline_build": "classify, baseline build"}
    print(f"Cold start: {benchlib.relative(args.bundle)} on {benchlib.relative(args.image)}, "
          f"{args.runs} interleaved rounds, wall time per process (ms)")
    print(f"{'':52} {'median':>8} {'min':>8} {'max':>8}")
    for name in names:
        print(f"{labels[name]:52} {medians[name]:8.1f} {min(times[name]):8.1f} {max(times[name]):8.1f}")
    print(f"{'first run with an empty cache (writes it), once':52} {first_ms:8.1f}")

    name = f"cold start with the weight cache at most {MAX_RATIO:.0%} of {labels[reference_name]}"
    goal = benchlib.goal(name, shares, MAX_RATIO, at_least=False, show=lambda v: f"{v:.0%}",
                         detail=f"{describe(times['weight_cache'], lambda v: f'{v:.1f} ms')} against "
                                f"{describe(times[reference_name], lambda v: f'{v:.1f} ms')}")
    if not outputs_match:
        goal.update(result="FAIL", shown=goal["shown"] + " (the cached run printed something else: FAIL)")
    benchlib.report("coldstart", [goal], data={"runs": args.runs, "medians_ms": medians, "times_ms": times,
                                               "first_cached_run_ms": first_ms, "reference": reference_name,
                                               "ratio": ratio, "max_ratio": MAX_RATIO, "outputs_match": outputs_match},
                    path=args.json)


if __name__ == "__main__":
    main()
