# TensorIO for Swift — set-up, the main example, tests.
#   make demo    installs what is missing, builds, and classifies the cat photo with EfficientNet-Lite0
#   make test    installs what is missing, runs every test through LiteRT, then the concurrency
#                tests under the thread sanitizer
SWIFT ?= swift
TENSORIO = .build/release/tensorio

.PHONY: setup build demo test test-unit test-tsan models bench-images clean

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build -c release --product tensorio

demo: build
	$(TENSORIO) classify Examples/efficientnet-lite0-float32.tiobundle Examples/photos/cat.jpg

test: test-unit test-tsan

test-unit: setup
	$(SWIFT) test

# The thread sanitizer needs its own build folder (.build-tsan) so it does not rebuild the normal one.
test-tsan: setup
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter Concurrency

# Regenerates the test models (TensorFlow from PyPI, pinned) — only needed when changing them.
models:
	python3 -m venv .venv-models
	.venv-models/bin/pip install --quiet -r scripts/models/requirements.txt
	.venv-models/bin/python scripts/models/make_test_models.py

# Side-by-side image benchmarks: TensorIO against Pillow + NumPy and a Python LiteRT script (one run).
bench-images: build
	python3 -m venv .venv-bench
	.venv-bench/bin/pip install --quiet -r Benchmarks/python/requirements.txt
	$(SWIFT) build -c release --product image-preprocessing-benchmark
	.venv-bench/bin/python Benchmarks/run-image-benchmarks.py

clean:
	rm -rf .build .build-tsan

# The side-by-side comparison of issue 5, in one run: TensorIO (`tensorio bench`) against a raw LiteRT C API
# loop (the floor) and Python's ai_edge_litert Interpreter with NumPy and with Pillow; prints the table and
# the goals, and writes bench-results/benchmarks.json. Options: make bench BENCH_ARGS="--repeats 5".
.PHONY: bench
bench: build
	$(SWIFT) build -c release --product raw-litert-benchmark
	python3 -m venv .venv-bench
	.venv-bench/bin/pip install --quiet -r Benchmarks/python/requirements.txt
	.venv-bench/bin/python Benchmarks/run-benchmarks.py $(BENCH_ARGS)
