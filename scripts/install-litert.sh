#!/usr/bin/env bash
# Installs the LiteRT runtime TensorIO loads at run time: libLiteRt.so from the PyPI wheel
# ai-edge-litert==2.3.0, unpacked into the per-user location the library searches
# ($XDG_DATA_HOME/tensorio/litert-2.3.0/, by default ~/.local/share/tensorio/litert-2.3.0/).
# Only the shared library is kept; Python is needed for this step only, never at run time.
set -euo pipefail

version=2.3.0
dest="${XDG_DATA_HOME:-$HOME/.local/share}/tensorio/litert-$version"
if [ -f "$dest/libLiteRt.so" ]; then
  exit 0
fi

case "$(uname -m)" in
  x86_64) platform=manylinux_2_27_x86_64 ;;
  aarch64 | arm64) platform=manylinux_2_27_aarch64 ;;
  *) echo "install-litert: no ai-edge-litert wheel for $(uname -m)" >&2; exit 1 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "Installing the LiteRT runtime (ai-edge-litert==$version) into $dest" >&2
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  --python-version 3.11 --platform "$platform" "ai-edge-litert==$version" -d "$tmp"
mkdir -p "$dest"
python3 - "$tmp" "$dest" <<'PY'
import glob, os, sys, zipfile
wheel = glob.glob(os.path.join(sys.argv[1], "ai_edge_litert-*.whl"))[0]
with zipfile.ZipFile(wheel) as archive:
    data = archive.read("ai_edge_litert/libLiteRt.so")
target = os.path.join(sys.argv[2], "libLiteRt.so")
with open(target + ".partial", "wb") as out:
    out.write(data)
os.replace(target + ".partial", target)  # never leave a half-written library behind
PY
