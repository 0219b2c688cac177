#!/usr/bin/env python3
"""A mutation campaign against the release `tensorio`: mutated copies of the project's own .tflite fixtures
go through `tensorio inspect` and `tensorio run`, which must end with an answer or an error, never a signal
or a hang.

libFuzzer (`make fuzz`) exercises the model-file verifier alone; this exercises what happens after it:
a file the verifier accepts is parsed, compiled and run by LiteRT in the same process, so a gap in the
verifier shows up here as a process killed by SIGSEGV or SIGABRT.

Every model.tflite under Tests/Fixtures/Bundles and Examples (in a .tiobundle folder, under 2 MB, one per
distinct file) is a fixture. Case N mutates fixture N mod F with one kind of mutation, the kinds taking
turns, from a random generator seeded with (--seed, N), so a case is the same on every run:

    bitflip   1-4 flipped bits
    byteset   1-4 bytes set to 0, 0xff, 0x7f, 0x80 or a small integer
    truncate  the file cut short
    offset    1-3 4-byte values that look like offsets (uoffset_t pointing inside the file, or a table's
              soffset_t to something shaped like a vtable) nudged, zeroed or pointed at another object, or
              a vtable entry changed
    splice    1-2 ranges (or tables' inline parts) overwritten with bytes from elsewhere in the file or
              from another fixture

Each case runs in a copy of its bundle in a temporary folder. A command killed by a signal (a negative
return code or 128+N), or whose stderr holds "Fatal error", "terminate called" or "AddressSanitizer", is a
crash; one still running after --timeout seconds is a hang. Crashing and hanging bundles are copied to
.fuzz/campaign/ with a case.txt. The last line is the summary; the exit status is 1 on any crash or hang.

    make fuzz-models                                          # builds tensorio, then 20,000 cases
    swift build -c release --static-swift-stdlib --product tensorio   # the Makefile's RELEASE flags
    python3 scripts/mutate-models.py --count 2000 --seed 7
    python3 scripts/mutate-models.py --seed 7 --only 1234     # one case again (case.txt has the line)

Python's standard library only.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = ["bitflip", "byteset", "truncate", "offset", "splice"]
INTERESTING = [0x00, 0xFF, 0x7F, 0x80, 0x01, 0x02, 0x03, 0x04, 0x08, 0x10, 0x20, 0x40, 0xFE, 0x81]
CRASH_MARKERS = ["Fatal error", "terminate called", "AddressSanitizer"]
MAXIMUM_MODEL_BYTES = 2 << 20
IMAGE = os.path.join("Examples", "photos", "cat.jpg")


# --- fixtures -------------------------------------------------------------------------------------------

class Fixture:
    def __init__(self, bundle, document, model_name, data):
        self.bundle = bundle                  # relative to the repository
        self.name = os.path.basename(bundle).rsplit(".", 1)[0]
        self.model_name = model_name
        self.data = data
        self.run_arguments = run_arguments(document)
        # `run` refuses to start without somewhere to write image outputs.
        self.writes_images = any(layer.get("type") == "image" for layer in document.get("outputs", []))
        self.offsets = offset_candidates(data)
        self.tables = table_candidates(data)


def run_arguments(document):
    """`tensorio run` options that fit the bundle's inputs: the cat photo for image layers, zeros otherwise.
    Inputs only training takes are left out (run predicts)."""
    arguments = []
    training_only = set(document.get("train", {}).get("inputs", []))
    for layer in document.get("inputs", []):
        name = layer.get("name", "input")
        if name in training_only:
            continue
        if layer.get("type") == "image":
            arguments += ["--image", f"{name}={IMAGE}"]
            continue
        value = 0
        for size in reversed([max(int(size), 1) for size in layer.get("shape", [1])]):
            value = [value] * size
        arguments += ["--input", f"{name}={json.dumps(value, separators=(',', ':'))}"]
    return arguments


def find_fixtures():
    """Every distinct TFLite model file under 2 MB in a bundle of Tests/Fixtures/Bundles or Examples."""
    bundles = []
    for top in (os.path.join("Tests", "Fixtures", "Bundles"), "Examples"):
        for folder, subfolders, _ in os.walk(os.path.join(ROOT, top)):
            subfolders.sort()
            if folder.endswith(".tiobundle"):
                bundles.append(os.path.relpath(folder, ROOT))
                subfolders.clear()
    fixtures, seen = [], set()
    for bundle in sorted(bundles):
        try:
            with open(os.path.join(ROOT, bundle, "model.json")) as handle:
                document = json.load(handle)
        except (OSError, ValueError):
            continue  # the invalid-bundle fixtures: nothing reaches the model file
        model = document.get("model", {})
        model_name = model.get("file", "")
        if model.get("backend", "tflite") != "tflite" or not model_name.endswith(".tflite"):
            continue
        path = os.path.join(ROOT, bundle, model_name)
        if not os.path.isfile(path) or os.path.getsize(path) >= MAXIMUM_MODEL_BYTES:
            continue
        with open(path, "rb") as handle:
            data = handle.read()
        digest = hashlib.sha256(data).digest()
        if digest in seen:
            continue
        seen.add(digest)
        fixtures.append(Fixture(bundle, document, model_name, data))
    return fixtures


# --- mutations ------------------------------------------------------------------------------------------

def u32(data, position):
    return struct.unpack_from("<I", data, position)[0]


def offset_candidates(data):
    """Positions of 4-byte aligned values that look like uoffset_t: non-zero, a multiple of 4, pointing inside."""
    return [p for p in range(0, len(data) - 3, 4) if 0 < u32(data, p) < len(data) - p and u32(data, p) % 4 == 0]


def table_candidates(data):
    """Positions of tables: an soffset_t leading to something shaped like a vtable (even sizes, in range)."""
    found = []
    for position in range(0, len(data) - 3, 4):
        vtable = position - struct.unpack_from("<i", data, position)[0]
        if vtable == position or vtable < 0 or vtable % 2 or vtable + 4 > len(data):
            continue
        vtable_size, object_size = struct.unpack_from("<HH", data, vtable)
        if 4 <= vtable_size <= 256 and vtable_size % 2 == 0 and vtable + vtable_size <= len(data) \
                and 4 <= object_size <= 1024 and position + object_size <= len(data):
            found.append((position, vtable, vtable_size))
    return found


def mutate(kind, fixture, fixtures, rng):
    """The mutated bytes and a one-line description of what was changed."""
    data = bytearray(fixture.data)
    size = len(data)
    edits = []
    if kind == "bitflip":
        for _ in range(rng.randint(1, 4)):
            position, bit = rng.randrange(size), rng.randrange(8)
            data[position] ^= 1 << bit
            edits.append(f"bit {bit} of byte {position}")
    elif kind == "byteset":
        for _ in range(rng.randint(1, 4)):
            position, value = rng.randrange(size), rng.choice(INTERESTING)
            data[position] = value
            edits.append(f"byte {position} = 0x{value:02x}")
    elif kind == "truncate":
        length = rng.randrange(size)
        del data[length:]
        edits.append(f"cut to {length} of {size} bytes")
    elif kind == "offset":
        for _ in range(rng.randint(1, 3)):
            edits.append(mutate_offset(data, fixture, rng))
    else:
        for _ in range(rng.randint(1, 2)):
            source = fixture if rng.random() < 0.6 else rng.choice(fixtures)
            if source.tables and fixture.tables and rng.random() < 0.5:
                # A table's inline part over another table's.
                start, vtable, _ = rng.choice(source.tables)
                target, _, _ = rng.choice(fixture.tables)
                length = struct.unpack_from("<H", source.data, vtable + 2)[0]
            else:
                length = rng.choice([4, 8, 12, 16, 24, 32, 64])
                start, target = rng.randrange(len(source.data)), rng.randrange(size)
            length = max(min(length, len(source.data) - start, size - target), 0)
            data[target:target + length] = source.data[start:start + length]
            where = "the same file" if source is fixture else source.name
            edits.append(f"{length} bytes at {target} = bytes {start}..<{start + length} of {where}")
    return bytes(data), f"{kind}: " + "; ".join(edits)


def mutate_offset(data, fixture, rng):
    """One edit of a uoffset_t, a table's soffset_t or a vtable entry."""
    choice = rng.random()
    if fixture.tables and choice < 0.35:
        position, vtable, vtable_size = rng.choice(fixture.tables)
        if choice < 0.15 or vtable_size <= 4:
            others = [candidate for _, candidate, _ in fixture.tables if candidate != vtable] or [vtable + 2]
            other = rng.choice(others)
            struct.pack_into("<i", data, position, position - other)
            return f"table at {position}: vtable {vtable} -> {other}"
        entry = vtable + 4 + 2 * rng.randrange((vtable_size - 4) // 2)
        old = struct.unpack_from("<H", data, entry)[0]
        new = rng.choice([0, 4, old + 4, max(old - 4, 0), old + 1, 0xFFFF, rng.randrange(64)])
        struct.pack_into("<H", data, entry, new & 0xFFFF)
        return f"vtable entry at {entry}: {old} -> {new & 0xFFFF}"
    if not fixture.offsets:
        position = rng.randrange(0, len(data) - 3)
        struct.pack_into("<I", data, position, rng.randrange(len(data)))
        return f"u32 at {position} = random offset"
    position = rng.choice(fixture.offsets)
    old = u32(data, position)
    way = rng.randrange(4)
    if way == 0:
        new = old + rng.choice([-8, -4, -2, -1, 1, 2, 4, 8])
    elif way == 1:
        # At another object of the file: the target of another offset.
        other = rng.choice(fixture.offsets)
        new = other + u32(fixture.data, other) - position
    elif way == 2:
        new = rng.choice([0, len(data) - position, len(data) - position - 4, 0x7FFFFFFF, 0xFFFFFFFF])
    else:
        new = rng.randrange(len(data))
    new &= 0xFFFFFFFF
    struct.pack_into("<I", data, position, new)
    return f"offset at {position}: {old} -> {new}"


# --- running --------------------------------------------------------------------------------------------

def run_command(command, timeout, environment):
    """(return code or None on timeout, stderr's text). The process group is killed on timeout."""
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, env=environment, start_new_session=True)
    try:
        _, stderr = process.communicate(timeout=timeout)
        return process.returncode, stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        _, stderr = process.communicate()
        return None, stderr.decode("utf-8", "replace")


def verdict(code, stderr):
    """'crash: …', 'hang' or None."""
    if code is None:
        return "hang"
    if code < 0:
        return f"crash: killed by {signal_name(-code)}"
    if 128 < code <= 128 + 64:
        return f"crash: exit status {code} ({signal_name(code - 128)})"
    for marker in CRASH_MARKERS:
        if marker in stderr:
            return f"crash: stderr holds \"{marker}\""
    return None


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def output_options(fixture, folder):
    """`--output-dir` for a bundle with image outputs: a folder next to the case's bundle."""
    return ["--output-dir", os.path.join(os.path.dirname(folder), "outputs")] if fixture.writes_images else []


def run_case(index, options, fixtures, scratch, environment):
    fixture = fixtures[index % len(fixtures)]
    kind = KINDS[(index // len(fixtures)) % len(KINDS)]
    rng = random.Random(f"{options.seed}:{index}")
    data, description = mutate(kind, fixture, fixtures, rng)
    bundle = os.path.join(scratch, f"case-{index}", os.path.basename(fixture.bundle))
    shutil.copytree(os.path.join(ROOT, fixture.bundle), bundle)
    with open(os.path.join(bundle, fixture.model_name), "wb") as handle:
        handle.write(data)
    findings = []
    accepted = False
    for command in (["inspect", bundle], ["run", bundle] + fixture.run_arguments + output_options(fixture, bundle)):
        code, stderr = run_command([options.tensorio] + command, options.timeout, environment)
        problem = verdict(code, stderr)
        if command[0] == "inspect" and code == 0:
            accepted = True
        if problem:
            findings.append((command, problem, stderr))
    saved = None
    if findings:
        saved = save_case(index, options, fixture, kind, description, bundle, findings, len(data))
    shutil.rmtree(os.path.dirname(bundle), ignore_errors=True)
    return index, kind, accepted, findings, saved


def save_case(index, options, fixture, kind, description, bundle, findings, byte_count):
    target = os.path.join(options.out, f"seed{options.seed}-case{index}-{fixture.name}-{kind}")
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    shutil.copytree(bundle, os.path.join(target, os.path.basename(bundle)))
    lines = [
        f"fixture: {fixture.bundle}/{fixture.model_name} ({len(fixture.data)} bytes)",
        f"mutation: {description} ({byte_count} bytes)",
        f"reproduce: python3 scripts/mutate-models.py --seed {options.seed} --only {index}",
    ]
    for command, problem, stderr in findings:
        saved = os.path.relpath(os.path.join(target, os.path.basename(bundle)), ROOT)
        shown = [saved if part == bundle else part for part in command]
        lines.append(f"command: {os.path.relpath(options.tensorio, ROOT)} {' '.join(shown)}")
        lines.append(f"  -> {problem}")
        lines += [f"  | {line}" for line in stderr.strip().splitlines()[-8:]]
    with open(os.path.join(target, "case.txt"), "w") as handle:
        handle.write("\n".join(lines) + "\n")
    return os.path.relpath(target, ROOT)


def baseline(fixtures, options, environment):
    """The fixtures whose unmutated bundle goes through both commands without a crash or a hang."""
    usable = []
    for fixture in fixtures:
        problems = []
        outputs = tempfile.mkdtemp(prefix="tensorio-mutate-outputs-")
        for command in (["inspect", fixture.bundle], ["run", fixture.bundle] + fixture.run_arguments + output_options(fixture, outputs)):
            code, stderr = run_command([options.tensorio] + command, options.timeout, environment)
            problem = verdict(code, stderr)
            if problem:
                problems.append(f"{command[0]}: {problem}")
            elif code != 0:
                # Still usable, but its mutants' runs stop where the original's does.
                last = (stderr.strip().splitlines() or ["no message"])[-1]
                print(f"mutate-models: note: {command[0]} {fixture.bundle} fails unmutated (exit {code}): {last}", file=sys.stderr)
        shutil.rmtree(outputs, ignore_errors=True)
        if problems:
            print(f"mutate-models: skipping {fixture.bundle}, which fails unmutated ({'; '.join(problems)})", file=sys.stderr)
        else:
            usable.append(fixture)
    return usable


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="the campaign's seed (default 1)")
    parser.add_argument("--count", type=int, default=20000, help="mutated cases in all (default 20000)")
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once (default 2)")
    parser.add_argument("--timeout", type=float, default=10, help="seconds per command before a hang (default 10)")
    parser.add_argument("--tensorio", default=os.environ.get("TENSORIO", os.path.join("Tools", ".build", "release", "tensorio")),
                        help="the tool to run (default $TENSORIO or Tools/.build/release/tensorio)")
    parser.add_argument("--out", default=os.path.join(".fuzz", "campaign"), help="where crashing and hanging cases go")
    parser.add_argument("--only", type=int, action="append", help="run only this case (repeatable), to reproduce one")
    options = parser.parse_args()
    options.tensorio = os.path.abspath(os.path.join(ROOT, options.tensorio))
    options.out = os.path.abspath(os.path.join(ROOT, options.out))
    if not os.access(options.tensorio, os.X_OK):
        sys.exit(f"mutate-models: {options.tensorio} is missing; build it: swift build -c release --static-swift-stdlib --product tensorio")

    environment = dict(os.environ)
    environment.pop("TENSORIO_WEIGHT_CACHE", None)  # cases must not share prepared weights
    started = time.monotonic()
    fixtures = baseline(find_fixtures(), options, environment)
    if not fixtures:
        sys.exit("mutate-models: no usable fixture")
    indices = options.only or range(options.count)
    print(f"mutate-models: seed {options.seed}, {len(indices)} cases over {len(fixtures)} fixtures and "
          f"{len(KINDS)} kinds, {options.jobs} at a time", file=sys.stderr)

    crashes, hangs, done = [], [], 0
    accepted = {kind: 0 for kind in KINDS}
    tried = {kind: 0 for kind in KINDS}
    with tempfile.TemporaryDirectory(prefix="tensorio-mutate-") as scratch, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(options.jobs, 1)) as pool:
        futures = [pool.submit(run_case, index, options, fixtures, scratch, environment) for index in indices]
        for future in concurrent.futures.as_completed(futures):
            index, kind, was_accepted, findings, saved = future.result()
            done += 1
            tried[kind] += 1
            accepted[kind] += was_accepted
            for command, problem, _ in findings:
                (hangs if problem == "hang" else crashes).append(index)
                print(f"mutate-models: case {index} ({kind}): {command[0]}: {problem} -> {saved}", file=sys.stderr)
            if done % 500 == 0:
                print(f"mutate-models: {done}/{len(indices)} cases, {time.monotonic() - started:.0f} s", file=sys.stderr)

    elapsed = time.monotonic() - started
    shares = ", ".join(f"{kind} {accepted[kind]}/{tried[kind]}" for kind in KINDS if tried[kind])
    print(f"mutate-models: accepted by the verifier: {shares}", file=sys.stderr)
    crashing, hanging = len(set(crashes)), len(set(hangs) - set(crashes))
    print(f"mutate-models: {len(indices)} cases, {crashing} crashes, {hanging} hangs, {elapsed:.1f} s "
          f"(seed {options.seed}; findings in {os.path.relpath(options.out, ROOT)})")
    sys.exit(1 if crashing or hanging else 0)


if __name__ == "__main__":
    main()
