"""What every benchmark script shares, in one place (issue 38): the runners (Benchmarks/run-*.py), the summary
(Benchmarks/print-goals.py) and the Python sides they measure (Benchmarks/python/*.py, which put this folder
on sys.path). Standard library only, so that it imports in every environment the scripts run in
(.venv-bench, .venv-mediapipe, the system Python).

  statistics   median, percentile (nearest rank, as Benchmarks/Statistics and `tensorio bench`), spread,
               describe ("median (min–max over N)"), ms
  timing       sample_us (a function's calls, warm), timed (a process, start to exit)
  processes    run_json (a command's last JSON line)
  alternation  alternate (each side once per round, the order rotated: a slow spell of the shared machine
               hits every side), alternate_json (of programs printing JSON), figures (one figure of every
               round), ratios (side A over side B, round by round), jobs_goal (--jobs N against --jobs 1)
  goals        goal (PASS/FAIL on the median of the rounds, with the spread beside it), check (a yes/no
               goal), goal_line (how a goal is printed, here and by print-goals.py)
  results      machine (the machine and package versions), report (prints the goals and writes
               bench-results/NAME.json), copy_round_robin (N photo files made from a few), per_photo and
               print_photo_table (the vision runners' per-photo goal, reference line and table)
  programs     TENSORIO, program (a Benchmarks package program), mediapipe_arguments (the options of the
               runners against MediaPipe)
  output       log (a progress line on stderr), emit (a Python side's one JSON line on stdout)

A goal's figure is measured over several rounds and decided on their median: one number from one run on a
shared two-core machine says more about the machine's mood than about the code.

(side_by_side.py held the task runners' share of this; it is folded in here, under a name that says what the
module is rather than one of the things it does.)"""
import argparse
import importlib.metadata
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(ROOT, "bench-results")
# Programs: the release tool (make build-tool) and the Benchmarks package's (swift build --package-path Benchmarks).
TENSORIO = os.path.join(ROOT, "Tools", ".build", "release", "tensorio")


def program(name):
    """A benchmark program of the Benchmarks package, built in release."""
    return os.path.join(HERE, ".build", "release", name)


def mediapipe_arguments(description, runs, runs_help, runs_name="--runs", repeats=5):
    """The options of a runner that sets a program against MediaPipe's Python Tasks API (detection,
    segmentation, audio, text): --repeats (rounds), `runs_name` (the timed passes inside each process) and
    --python (.venv-mediapipe's, made by make setup-mediapipe). Returns the parsed arguments."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--repeats", type=int, default=repeats, help=f"alternating rounds (default {repeats})")
    parser.add_argument(runs_name, type=int, default=runs, help=f"{runs_help} (default {runs})")
    parser.add_argument("--python", default=os.path.join(ROOT, ".venv-mediapipe", "bin", "python"))
    arguments = parser.parse_args()
    if min(arguments.repeats, getattr(arguments, runs_name.lstrip("-").replace("-", "_"))) < 1:
        parser.error(f"--repeats and {runs_name} must be at least 1")
    return arguments


# Output.

def log(message):
    """A progress line, on stderr (stdout is for the tables and the goals)."""
    print(message, file=sys.stderr, flush=True)


def emit(result):
    """A Python side's result: one JSON object on one line of stdout, which run_json reads."""
    print(json.dumps(result), flush=True)


def relative(path):
    """PATH relative to the repository when it is inside it (for what is printed and written)."""
    path = os.path.abspath(path)
    return os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path


# Statistics.

def median(values):
    """The median (the mean of the middle two of an even count)."""
    return statistics.median(values)


def percentile(values, fraction):
    """The value at `fraction` (0…1) of `values` in ascending order, by nearest rank, halves rounded up: as
    BenchmarkStatistics.percentile and `tensorio bench` compute it."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * (len(ordered) - 1) + 0.5))]


def spread(values):
    """{median, min, max, q1, q3, n} of the values (q1 and q3 the quartiles, inclusive method)."""
    values = list(values)
    if len(values) > 1:
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    else:
        q1 = q3 = values[0]
    return {"median": median(values), "min": min(values), "max": max(values), "q1": q1, "q3": q3, "n": len(values)}


def ms(microseconds, digits=2):
    """Microseconds shown in milliseconds: "12.34 ms"."""
    return f"{microseconds / 1000:.{digits}f} ms"


def describe(values, show=lambda value: f"{value:.2f}"):
    """"M (min–max over N)": a median with the range of the values it was taken from."""
    s = spread(values)
    if s["n"] == 1:
        return f"{show(s['median'])} (one run)"
    return f"{show(s['median'])} ({show(s['min'])}–{show(s['max'])} over {s['n']})"


# Timing.

def sample_us(step, runs, warmup=0):
    """Each of `runs` calls of `step()` in microseconds, after `warmup` untimed calls."""
    for _ in range(warmup):
        step()
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        step()
        times.append((time.perf_counter_ns() - start) / 1000)
    return times


def _failed(command, done):
    tail = " | ".join((done.stderr or done.stdout or "").strip().splitlines()[-3:])
    return f"{' '.join(relative(part) if os.sep in part else part for part in command[:4])} … exited {done.returncode}: {tail[-600:]}"


def timed(command):
    """(seconds from starting the command to its exit, its stdout); exits with its error when it fails."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(_failed(command, done))
    return seconds, done.stdout


def run_json(command, timeout=None, check=True):
    """The JSON object the command prints (its last line that is one, else the text from its first "{" to its
    last "}"), with "wall_s", the seconds from its start to its exit. When it fails: exits with its error, or
    with check=False returns {"error": …} so that the caller can go on without that figure."""
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as error:
        if check:
            raise SystemExit(f"{' '.join(command)}: {error}")
        return {"error": f"{' '.join(command)}: {error}"}
    wall = time.perf_counter() - start
    result = None
    if done.returncode == 0:
        text = done.stdout.strip()
        for line in reversed(text.splitlines()):
            if line.startswith("{"):
                try:
                    result = json.loads(line)
                    break
                except ValueError:
                    pass
        if result is None and "{" in text:
            try:
                result = json.loads(text[text.index("{"):text.rindex("}") + 1])
            except ValueError:
                pass
    if not isinstance(result, dict):
        message = _failed(command, done) if done.returncode != 0 else f"{' '.join(command[:4])} … printed no JSON object"
        if check:
            raise SystemExit(message)
        return {"error": message}
    result["wall_s"] = wall
    return result


# Alternation.

def alternate(sides, rounds, warmup=1, label="", show=None):
    """Runs every side once per round, `rounds` rounds, after `warmup` untimed runs of each.

    `sides` maps a name to a function that runs that side once and returns its result. The order of the sides
    turns by one each round (A B C, B C A, C A B, …; two sides: A B, B A, …) so that a slow spell of the
    shared machine, or whatever the side before leaves behind, hits every side alike. After each round
    `show(round)` (round: name → that round's result) is logged, when given. Returns name → [result per round].
    """
    names = list(sides)
    for _ in range(warmup):
        for name in names:
            sides[name]()
    results = {name: [] for name in names}
    for index in range(rounds):
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            results[name].append(sides[name]())
        if show:
            log(f"[{label}] round {index + 1}/{rounds}: {show({name: results[name][-1] for name in names})}")
    return results


def alternate_json(commands, rounds, warmup=0, label="", show=None):
    """alternate() over commands that each print one JSON object (run_json): name → [object per round].
    No untimed round by default: such programs warm up inside their process before they time."""
    return alternate({name: (lambda command=command: run_json(command)) for name, command in commands.items()},
                     rounds, warmup=warmup, label=label, show=show)


def figures(results, key):
    """One figure of every round's result: [result[key] for each round]."""
    return [result[key] for result in results]


def ratios(numerators, denominators):
    """numerator / denominator round by round: the two ran side by side in the same round, so the machine's
    speed, which drifts over minutes, cancels out of each ratio."""
    return [a / b for a, b in zip(numerators, denominators)]


def jobs_goal(label, command, count, rounds, minimum, jobs=2, unit="photos"):
    """`command + ["--jobs", N]` against `command + ["--jobs", "1", "--threads", "1"]` over `count` inputs,
    process start to exit, alternating, after one untimed run of each: the goal that N jobs are at least
    `minimum` times as fast, decided on the median of the rounds' ratios."""
    sides = {"one": command + ["--jobs", "1", "--threads", "1"], "many": command + ["--jobs", str(jobs)]}
    seconds = alternate({side: (lambda c=c: timed(c)[0]) for side, c in sides.items()}, rounds, label=f"{label} --jobs",
                        show=lambda r: f"--jobs 1 {count / r['one']:.1f}, --jobs {jobs} {count / r['many']:.1f} {unit}/s")
    return goal(f"{label} --jobs {jobs} over {count} {unit} at least {minimum}x --jobs 1",
                ratios(seconds["one"], seconds["many"]), minimum,
                detail=f"--jobs 1 {count / median(seconds['one']):.1f}, --jobs {jobs} {count / median(seconds['many']):.1f} "
                       f"{unit}/s (medians; process start to exit)")


def per_photo(model, task, results, minimum, against):
    """The per-photo figures of the vision runners (detection, segmentation). `results` has the rounds of
    "ours" (TensorIO with its default threads, every core), "single" (one thread) and "theirs" (MediaPipe,
    one thread), each with "photo_us". Returns (the table row with those medians and every round, the goal
    that MediaPipe's time over TensorIO's is at least `minimum` round by round, the reference line of the
    same on one thread each)."""
    ours, single, theirs = (figures(results[side], "photo_us") for side in ("ours", "single", "theirs"))
    cores = os.cpu_count() or 1
    row = {"model": model, "tensorio_photo_us": median(ours), "tensorio_one_thread_photo_us": median(single),
           "mediapipe_photo_us": median(theirs), "rounds": results}
    entry = goal(f"{model}: {task} per photo at least {minimum}x faster than {against}, each with its default threads",
                 ratios(theirs, ours), minimum,
                 detail=f"TensorIO {describe(ours, ms)} ({cores} threads), MediaPipe {describe(theirs, ms)} (1 thread)")
    reference = (f"{model}: on one thread each: TensorIO {ms(median(single))}, MediaPipe {ms(median(theirs))} "
                 f"({median(ratios(theirs, single)):.2f}x, the median of the rounds)")
    return row, entry, reference


def print_photo_table(rows, rounds, heading, cells):
    """The per-photo table of the vision runners: a row per model of TensorIO's time per photo (every core and
    one thread) and MediaPipe's, then the runner's own `heading` and `cells(row)`; medians of `rounds`."""
    width = max(len(row["model"]) for row in rows) + 1
    print(f"\nmedians of {rounds} rounds")
    print(f"{'model':{width}} TensorIO/photo  (one thread)  MediaPipe/photo  {heading}")
    for row in rows:
        print(f"{row['model']:{width}} {ms(row['tensorio_photo_us']):>14} {ms(row['tensorio_one_thread_photo_us']):>13}"
              f" {ms(row['mediapipe_photo_us']):>16}  {cells(row)}")


def copy_round_robin(sources, count, folder, name="photo{index:03}{extension}"):
    """`count` files in `folder`, copies of `sources` in turn (each read as a file of its own); their paths."""
    paths = []
    for index in range(count):
        source = sources[index % len(sources)]
        stem, extension = os.path.splitext(os.path.basename(source))
        path = os.path.join(folder, name.format(index=index, stem=stem, extension=extension))
        shutil.copyfile(source, path)
        paths.append(path)
    return paths


# Goals.

def goal(name, values, limit, at_least=True, show=lambda value: f"{value:.2f}x", detail=""):
    """A goal on a figure measured once per round: PASS when the median of `values` is at least `limit`
    (at_least) or at most it; N/A when there are no values. Returns the goal as written to JSON: name, result, the median and the spread
    (min, max, quartiles), every round's value, the limit, and `shown` (the median with its range, then
    `detail`), which goal_line prints."""
    values = list(values)
    if not values:  # every round's measurement failed
        return {"goal": name, "result": "N/A", "shown": "— (not measured)" + (f"; {detail}" if detail else ""), "limit": limit}
    s = spread(values)
    passed = s["median"] >= limit if at_least else s["median"] <= limit
    shown = describe(values, show) + (f"; {detail}" if detail else "")
    return {"goal": name, "result": "PASS" if passed else "FAIL", "shown": shown, "limit": limit,
            "at_least": at_least, **s, "values": values, "spread": f"{show(s['min'])}–{show(s['max'])}"}


def check(name, passed, shown):
    """A yes/no goal (the same outputs, the same losses…): no figure, no spread."""
    return {"goal": name, "result": "PASS" if passed else "FAIL", "shown": shown}


def goal_line(entry, title=None):
    """'PASS  [title: ]goal: M (min–max over N); detail' — one goal as the runners and print-goals.py print it."""
    result = entry.get("result", "FAIL")
    name = entry.get("goal") or entry.get("name") or "?"
    shown = entry.get("shown", "")
    if "spread" in entry and "over" not in shown and entry.get("n", 1) > 1:
        shown += f" (spread {entry['spread']} over {entry['n']})"  # results written before the spread was shown
    return f"  {result:4}  {title + ': ' if title else ''}{name}: {shown}"


# Results.

def machine(packages=(), swift=False):
    """What the figures were measured on: platform, processor, cores, Python, and the versions of `packages`
    that are installed (and of Swift, with swift=True)."""
    info = {"platform": platform.platform(), "machine": platform.machine(), "cpus": os.cpu_count(),
            "python": platform.python_version()}
    try:
        with open("/proc/cpuinfo") as f:
            names = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
        if names:
            info["cpu"] = names[0]
    except OSError:
        pass
    try:
        info["load_average"] = os.getloadavg()
    except OSError:
        pass
    if swift:
        try:
            version = subprocess.run(["swift", "--version"], capture_output=True, text=True, timeout=60)
            info["swift"] = (version.stdout or version.stderr).strip().splitlines()[0]
        except (OSError, subprocess.TimeoutExpired, IndexError):
            pass
    for package in packages:
        try:
            info[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            pass
    return info


def report(name, goals, references=(), data=None, path=None, heading="Goals:", packages=()):
    """Prints the goals with PASS/FAIL and the reference lines, and writes bench-results/NAME.json (or `path`):
    the date, the machine, the command, `data`, the references and the goals."""
    print(f"\n{heading}")
    for entry in goals:
        print(goal_line(entry))
    for line in references:
        print(f"  (reference, not a goal) {line}")
    path = path or os.path.join(RESULTS, f"{name}.json")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    document = {"date": time.strftime("%Y-%m-%d %H:%M:%S %z"), "machine": machine(packages),
                "command": " ".join([relative(sys.argv[0])] + sys.argv[1:]), **(data or {}),
                "references": list(references), "goals": goals}
    with open(path, "w") as f:
        json.dump(document, f, indent=2)
        f.write("\n")
    print(f"\nwrote {relative(path)}")

