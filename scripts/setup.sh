#!/usr/bin/env bash
# Installs what TensorIO needs on a fresh Debian machine, once: the system libraries the build links (the
# image libraries libjpeg-turbo's TurboJPEG, libspng and libyuv; libsndfile and libsoxr, for TensorIOAudio; RE2 and SentencePiece, for TensorIOText;
# FFmpeg's libavformat, libavcodec, libswscale and libavutil, for TensorIOVideo, with the ffmpeg program that makes its
# test clips; zlib, for reading zip archives; SQLite, for
# the repository server's index through GRDB; libcurl's development files, which the statically linked
# release build of the tool needs for Foundation's networking), pkg-config, pip (to fetch the LiteRT wheel), venv (for
# the contract test's schemathesis) and the LiteRT
# runtime itself. Safe to run again: it skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
for package in libturbojpeg0-dev libspng-dev libyuv-dev zlib1g-dev libsndfile1-dev libsoxr-dev libre2-dev libsentencepiece-dev \
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev ffmpeg libsqlite3-dev libcurl4-openssl-dev pkg-config libcairo2-dev fonts-dejavu-core; do
  dpkg -s "$package" >/dev/null 2>&1 || need_apt+=("$package")
done
python3 -m pip --version >/dev/null 2>&1 || need_apt+=(python3-pip)
# The contract test's schemathesis lives in a virtual environment (scripts/contract-test.sh).
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need_apt+=(python3-venv)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: please install ${need_apt[*]} (apt-get install ${need_apt[*]})" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}"
fi

scripts/install-litert.sh
