#!/usr/bin/env python3
"""Third-party test data: the pinned manifest, its cache, and fetching into it.

The TFLite Task Library's models, photos and recordings and MediaPipe Model Maker's gesture photos are not in
the repository. Tests/TestData/manifest.json pins each file (its name, public origin at a fixed commit,
size, sha-256 and licence); this script fills a cache folder with them, and the tests (Tests/TestSupport/
TestData.swift), scripts and benchmarks read them there by name.

    scripts/testdata.py fetch          fills the cache (`make test-data` runs it)
    scripts/testdata.py path NAME      prints where NAME is cached (exit 1 when it is not there)
    scripts/testdata.py pin FILE NAME ORIGIN LICENCE
                                       prints the manifest entry for a new file

The cache is $TENSORIO_TEST_DATA_CACHE, else $XDG_CACHE_HOME/tensorio/test-data, else
~/.cache/tensorio/test-data. `fetch` copies each missing file from the folder $TENSORIO_TEST_DATA_MIRROR
names (laid out as the names are: MIRROR/task-models/…), when it is set and holds the file, else downloads it
from its origin. Either way the file is checked against its size and sha-256 before it is moved into the
cache; a file that fails is refused and removed, and so is a cached file that no longer matches. A file that
could not be had is named in one line at the end; the exit status is 0 then (the tests that need it are
skipped, with their reason), unless $TENSORIO_TEST_DATA_REQUIRED is 1 (CI, where the mirror must hold
everything).
"""

import hashlib
import http.client
import json
import os
import shutil
import sys
import urllib.error
import urllib.request
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "Tests" / "TestData" / "manifest.json"

# Bounds on what a manifest may ask for: a download is never larger than its entry says, and an entry never
# larger than this (the largest pinned file today is 4 MB).
MAXIMUM_FILE_SIZE = 256 << 20
MAXIMUM_FILES = 10_000
# Seconds a download may wait for the server before it gives up (per connection and per read).
TIMEOUT = 30
CHUNK = 1 << 16


class Refused(Exception):
    """A file that did not match its entry, or could not be had from a source (`absent`: the source does not
    hold it, which is not worth a line of its own)."""

    def __init__(self, reason, absent=False):
        super().__init__(reason)
        self.absent = absent


def cache_dir():
    """The cache folder, by the rule in this module's comment."""
    explicit = os.environ.get("TENSORIO_TEST_DATA_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tensorio" / "test-data"


def load_manifest(path=MANIFEST):
    """The manifest's entries by name, each checked: a relative name without `..`, an http(s) origin, a size
    within MAXIMUM_FILE_SIZE and a 64-digit sha-256."""
    with open(path, encoding="utf-8") as handle:
        document = json.load(handle)
    files = document.get("files") if isinstance(document, dict) else None
    if not isinstance(files, list) or len(files) > MAXIMUM_FILES:
        raise SystemExit(f"testdata: {path}: \"files\" is not a list of at most {MAXIMUM_FILES} entries")
    entries = {}
    for index, entry in enumerate(files):
        where = f"{path}: files[{index}]"
        if not isinstance(entry, dict):
            raise SystemExit(f"testdata: {where} is not an object")
        name, origin, size, digest = entry.get("path"), entry.get("origin"), entry.get("size"), entry.get("sha256")
        parts = PurePosixPath(name).parts if isinstance(name, str) else ()
        if not parts or name.startswith("/") or any(part in ("", ".", "..") for part in parts) or "\\" in name:
            raise SystemExit(f"testdata: {where}.path must be a relative name without . or .. ({name!r})")
        if not isinstance(origin, str) or not origin.startswith(("https://", "http://")):
            raise SystemExit(f"testdata: {where}.origin must be an http(s) URL ({origin!r})")
        if not isinstance(size, int) or isinstance(size, bool) or not 0 <= size <= MAXIMUM_FILE_SIZE:
            raise SystemExit(f"testdata: {where}.size must be a whole number of bytes up to {MAXIMUM_FILE_SIZE}")
        if not isinstance(digest, str) or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise SystemExit(f"testdata: {where}.sha256 must be 64 lowercase hexadecimal digits")
        if not isinstance(entry.get("license"), str) or not entry["license"]:
            raise SystemExit(f"testdata: {where}.license must name the file's licence")
        if name in entries:
            raise SystemExit(f"testdata: {where}.path {name!r} is listed twice")
        entries[name] = entry
    return entries


def matches(path, entry):
    """Whether the file at `path` has the entry's size and sha-256."""
    try:
        if path.stat().st_size != entry["size"]:
            return False
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(CHUNK), b""):
                digest.update(block)
        return digest.hexdigest() == entry["sha256"]
    except OSError:
        return False


def copy_bounded(source, target, entry):
    """Copies the readable `source` into the file `target`, refusing more bytes than the entry's size."""
    written = 0
    with open(target, "wb") as out:
        while True:
            block = source.read(CHUNK)
            if not block:
                break
            written += len(block)
            if written > entry["size"]:
                raise Refused(f"more than the {entry['size']} bytes pinned")
            out.write(block)
    if written != entry["size"]:
        raise Refused(f"{written} bytes where {entry['size']} are pinned")


def from_mirror(mirror, name, target, entry):
    source = mirror / name
    if not source.is_file():
        raise Refused(f"not in the mirror {mirror}", absent=True)
    with open(source, "rb") as handle:
        copy_bounded(handle, target, entry)


def from_origin(name, target, entry, network):
    # After one failure to reach a server, the rest are not tried: offline, each would wait out its timeout.
    if network.get("down"):
        raise Refused(network["down"])
    request = urllib.request.Request(entry["origin"], headers={"User-Agent": "tensorio-testdata"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            copy_bounded(answer, target, entry)
    except urllib.error.HTTPError as error:
        raise Refused(f"HTTP {error.code} from {entry['origin']}") from None
    except http.client.HTTPException as error:
        # The server was reached but its answer broke off (a connection closed before its Content-Length).
        raise Refused(f"{entry['origin']}: an incomplete answer ({type(error).__name__})") from None
    except (urllib.error.URLError, OSError) as error:
        network["down"] = f"{entry['origin']}: {getattr(error, 'reason', error)}"
        raise Refused(network["down"]) from None


def fetch_one(name, entry, cache, mirror, network):
    """Makes the cache hold `name` as pinned; returns where it came from, or raises Refused with why not."""
    target = cache / name
    if target.exists():
        if matches(target, entry):
            return "cached"
        # A cached copy that no longer matches its pin (an edited file, a changed pin) is not used.
        print(f"testdata: {name}: the cached copy does not match its pin; removed", file=sys.stderr)
        target.unlink(missing_ok=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    # Per process: two fetches into one cache (two checkouts testing at once) never write the same file.
    partial = target.with_name(f"{target.name}.partial-{os.getpid()}")
    sources = ([("mirror", lambda: from_mirror(mirror, name, partial, entry))] if mirror else []) + [
        ("origin", lambda: from_origin(name, partial, entry, network))
    ]
    reasons = []
    for label, fetch in sources:
        try:
            fetch()
            if not matches(partial, entry):
                raise Refused(f"its sha-256 is not the pinned {entry['sha256']}")
            os.replace(partial, target)
            return label
        except Refused as refusal:
            reasons.append(f"{label}: {refusal}")
            if label == "mirror" and not refusal.absent:
                print(f"testdata: {name}: refused the mirror's copy ({refusal}); removed", file=sys.stderr)
        finally:
            if partial.exists():
                partial.unlink()
    raise Refused("; ".join(reasons))


def fetch(manifest_path=MANIFEST):
    entries = load_manifest(manifest_path)
    cache = cache_dir()
    mirror = Path(os.environ["TENSORIO_TEST_DATA_MIRROR"]) if os.environ.get("TENSORIO_TEST_DATA_MIRROR") else None
    counts, missing, network = {}, [], {}
    for name, entry in entries.items():
        try:
            source = fetch_one(name, entry, cache, mirror, network)
            counts[source] = counts.get(source, 0) + 1
        except Refused as refusal:
            missing.append((name, str(refusal)))
    fetched = ", ".join(f"{count} from the {label}" if label != "cached" else f"{count} already cached"
                        for label, count in sorted(counts.items()))
    print(f"testdata: {len(entries) - len(missing)} of {len(entries)} pinned files in {cache} ({fetched or 'none'})")
    if missing:
        # One line, whatever the count: which files, and the first reason (usually the same for all).
        names = ", ".join(name for name, _ in missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        print(f"testdata: could not fetch {len(missing)} file(s) ({missing[0][1]}): {names}; "
              "the tests that need them are skipped (make test-data fetches them; TENSORIO_TEST_DATA_MIRROR names "
              "a local copy)", file=sys.stderr)
        if os.environ.get("TENSORIO_TEST_DATA_REQUIRED") == "1":
            return 1
    return 0


def pin(file, name, origin, license):
    data = Path(file).read_bytes()
    entry = {"path": name, "origin": origin, "size": len(data), "sha256": hashlib.sha256(data).hexdigest(),
             "license": license}
    print(json.dumps(entry))
    return 0


def main(arguments):
    if len(arguments) >= 1 and arguments[0] == "fetch" and len(arguments) in (1, 3) and \
            (len(arguments) == 1 or arguments[1] == "--manifest"):
        return fetch(Path(arguments[2]) if len(arguments) == 3 else MANIFEST)
    if len(arguments) == 2 and arguments[0] == "path":
        entries = load_manifest()
        if arguments[1] not in entries:
            print(f"testdata: {arguments[1]} is not in {MANIFEST.relative_to(ROOT)}", file=sys.stderr)
            return 2
        print(cache_dir() / arguments[1])
        return 0 if is_cached(arguments[1], entries) else 1
    if len(arguments) == 5 and arguments[0] == "pin":
        return pin(*arguments[1:])
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


def reference_name(file):
    """How a committed reference names `file`: its manifest name when it is in the cache, else its path
    relative to the repository root (for the scripts under scripts/fixtures/)."""
    file, cache = Path(file).resolve(), cache_dir().resolve()
    if file.is_relative_to(cache):
        return file.relative_to(cache).as_posix()
    return os.path.relpath(file, ROOT).replace(os.sep, "/")


def is_cached(name, entries):
    """Whether the cache holds `name` at its pinned size: the rule the Swift tests' TestData follows too (`fetch`
    checked the sha-256 of what it put there)."""
    try:
        return (cache_dir() / name).stat().st_size == entries[name]["size"]
    except OSError:
        return False


def path(name):
    """Where `name` is cached (for scripts and benchmarks); exits with one line when it is not there."""
    entries = load_manifest()
    if name not in entries:
        raise SystemExit(f"testdata: {name} is not in {MANIFEST.relative_to(ROOT)}")
    if not is_cached(name, entries):
        raise SystemExit(f"testdata: {name} is not in the cache {cache_dir()}: run `make test-data`")
    return cache_dir() / name


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
