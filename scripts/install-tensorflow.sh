#!/usr/bin/env bash
# Installs the TensorFlow runtime the "tensorflow" backend loads at run time: the TensorFlow C API
# (libtensorflow_cc.so.2 and the libtensorflow_framework.so.2 it needs) from the PyPI wheel
# tensorflow-cpu==2.21.0, unpacked into the per-user location the library searches
# ($XDG_DATA_HOME/tensorio/tensorflow-2.21.0/, by default ~/.local/share/tensorio/tensorflow-2.21.0/).
#
# Size: a 274 MB download, 853 MB on disk (the two libraries; the rest of the wheel is not kept).
# Only bundles with "backend": "tensorflow" need it; TensorFlow Lite users can skip it.
set -euo pipefail

version=2.21.0
dest="${XDG_DATA_HOME:-$HOME/.local/share}/tensorio/tensorflow-$version"
if [ -f "$dest/libtensorflow_cc.so.2" ] && [ -f "$dest/libtensorflow_framework.so.2" ]; then
  exit 0
fi

case "$(uname -m)" in
  x86_64) ;;
  *) echo "install-tensorflow: tensorflow-cpu has no Linux wheel for $(uname -m)" >&2; exit 1 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "Installing the TensorFlow runtime (tensorflow-cpu==$version, 274 MB download) into $dest" >&2
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  --python-version 3.11 --platform manylinux_2_27_x86_64 "tensorflow-cpu==$version" -d "$tmp"
mkdir -p "$dest"
python3 - "$tmp" "$dest" <<'PY'
import glob, os, shutil, sys, zipfile
wheel = glob.glob(os.path.join(sys.argv[1], "tensorflow_cpu-*.whl"))[0]
with zipfile.ZipFile(wheel) as archive:
    # The framework library first: the C API library is the one the loader looks for, so it must
    # appear only once everything it needs is in place.
    for name in ("libtensorflow_framework.so.2", "libtensorflow_cc.so.2"):
        target = os.path.join(sys.argv[2], name)
        with archive.open("tensorflow/" + name) as source, open(target + ".partial", "wb") as out:
            shutil.copyfileobj(source, out, 1 << 20)
        os.replace(target + ".partial", target)  # never leave a half-written library behind
PY
