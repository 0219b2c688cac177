"""What the task benchmarks (run-detection-benchmarks.py, run-segmentation-benchmarks.py) share: running a
benchmark program for its JSON line, timing a command from process start to exit, the `--jobs 2` against
`--jobs 1` goal, and printing and writing the goals."""
import json
import os
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_json(command):
    """The last line of the command's output, as JSON; exits with its error when it fails."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command[:2])} … failed ({result.returncode}): {result.stderr.strip()[-600:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def timed(command):
    """Seconds from starting the command to its exit; exits with its error when it fails."""
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])} … failed ({result.returncode}): {result.stderr.strip()[-400:]}")
    return time.perf_counter() - start


def jobs_goal(label, command, count, repeats, minimum):
    """Times `command + ["--jobs", "1", "--threads", "1"]` against `command + ["--jobs", "2"]`, interleaved,
    over `count` photos; returns the goal (name, passed, shown) that --jobs 2 is at least `minimum`× faster."""
    one, two = [], []
    for repeat in range(repeats):
        one.append(timed(command + ["--jobs", "1", "--threads", "1"]))
        two.append(timed(command + ["--jobs", "2"]))
        print(f"[{label} --jobs] repeat {repeat + 1}/{repeats}: --jobs 1 {count / one[-1]:.1f} photos/s, --jobs 2 {count / two[-1]:.1f} photos/s")
    scaling = statistics.median(one) / statistics.median(two)
    return (f"{label} --jobs 2 over {count} photos at least {minimum}x --jobs 1", scaling >= minimum,
            f"{count / statistics.median(one):.1f} and {count / statistics.median(two):.1f} photos/s ({scaling:.2f}x)")


def report(goals, references, name, rows):
    """Prints the goals with PASS/FAIL and the reference lines, and writes bench-results/NAME.json."""
    print("\nGoals:")
    for goal, passed, shown in goals:
        print(f"  {'PASS' if passed else 'FAIL'}  {goal}: {shown}")
    for line in references:
        print(f"  (reference, not a goal) {line}")
    os.makedirs(os.path.join(ROOT, "bench-results"), exist_ok=True)
    with open(os.path.join(ROOT, "bench-results", f"{name}.json"), "w") as f:
        json.dump({"rows": rows, "references": references,
                   "goals": [{"goal": n, "result": "PASS" if p else "FAIL", "shown": s} for n, p, s in goals]}, f, indent=2)
