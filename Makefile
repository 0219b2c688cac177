# TensorIO for Swift — set-up, the main example, tests.
#   make demo    installs what is missing, builds the tool alone, and classifies the cat photo with EfficientNet-Lite0
#   make test    fetches the third-party test data into its cache (make test-data), installs what is missing
#                (LiteRT, the TensorFlow runtime: a 274 MB download, 853 MB on disk, Debian's postgresql, and for
#                the model zoo test ai_edge_litert in .venv-zoo and the MediaPipe models: make setup-zoo), runs
#                every test through both runtimes (with a throwaway PostgreSQL server on 127.0.0.1 for the
#                shared-index tests), then the concurrency tests under the thread sanitizer, then builds the
#                documentation with warnings as errors; first it builds a package that uses the TensorIO
#                library alone; last it says how many tests were skipped for missing test data
#   make docs    builds the DocC documentation of the seven libraries into .build/docs
#   make bench   every performance goal side by side with its alternative, PASS/FAIL (docs/performance.md)
#   make fuzz    the libFuzzer targets, FUZZ_SECONDS each (docs/security.md)
# The benchmark programs and the fuzz targets are packages of their own (Benchmarks/Package.swift,
# Fuzz/Package.swift, each depending on this one by path), so a plain `swift build` here builds neither.
SWIFT ?= swift
TENSORIO = Tools/.build/release/tensorio
# Release builds link Swift's runtime and Foundation statically: the tool starts in about 13 ms instead
# of 22 (no dynamic loading and symbol binding of a dozen Swift libraries), which is most of a one-photo
# classify's cold start after the weight cache (docs/performance.md). Every release build uses the same
# flags, or SwiftPM would rebuild everything each time they changed.
RELEASE = -c release --static-swift-stdlib
# The Benchmarks package, built in its own folder, Benchmarks/.build (the scripts there look for it).
BENCHMARKS = --package-path Benchmarks
# The libraries' default traits are empty (a consumer resolves swift-log alone); this repository builds and
# tests the delivery client and the repository server too, which need the Server trait (it enables
# Delivery): every build and test of the root package here passes it, so the debug build, the tests and the
# docs share one configuration.
SERVER = --traits Server
# The tools (tensorio, tensorio-repository) are a package of their own, Tools/Package.swift, built in
# Tools/.build; it builds the root's tensorio-load-check next to them.
TOOLS = --package-path Tools

.PHONY: help setup setup-tensorflow setup-zoo test-data test-data-report build build-tool build-server build-load-check demo bench-delivery bench-load-check bench-model-load train-demo test test-consumer test-unit test-tsan test-contract docs models bench-images clean fuzz fuzz-models

# What the build needs from Debian and PyPI (LiteRT, the image libraries), installed when missing.
setup:
	@scripts/setup.sh

# The TensorFlow runtime, for "backend": "tensorflow" bundles only (tests and training need it).
setup-tensorflow: setup
	@scripts/install-tensorflow.sh

# The model zoo test's Python side (Tests/Fixtures/README.md, "The model zoo"): ai_edge_litert and NumPy
# in .venv-zoo, and the .tflite files of the pinned mediapipe wheel's mediapipe/modules/ in
# .build/zoo/mediapipe-modules/.
setup-zoo: setup test-data
	@scripts/zoo/setup.sh

# The third-party test data (the TFLite Task Library's models, photos and recordings, MediaPipe Model Maker's
# gesture photos), pinned in Tests/TestData/manifest.json, into ~/.cache/tensorio/test-data
# (TENSORIO_TEST_DATA_CACHE overrides it): copied from the folder TENSORIO_TEST_DATA_MIRROR names, else
# downloaded; every file checked against its sha-256. What cannot be had is named in one line and its tests
# are skipped (Tests/TestData/README.md).
test-data:
	@python3 scripts/testdata.py fetch
	@scripts/testdata-skips.sh reset

# How many tests the last `make test` skipped for missing test data (the skips that scripts/failures-last.sh
# collected), and which command fetches it.
test-data-report:
	@scripts/testdata-skips.sh report

# The three programs, in release: tensorio-repository and tensorio-load-check go next to tensorio: tensorio
# hands its repository commands (serve, push, pull, …) to the first; validate --load, pull, update and serve
# load models in the second. Each has a target of its own, which the commands that need it use.
build: build-tool build-server build-load-check

# `tensorio` alone: the model commands (classify, detect, run, train, …), all that `make demo` needs.
build-tool: setup
	$(SWIFT) build $(RELEASE) $(TOOLS) --product tensorio

# `tensorio-repository`, which runs tensorio's repository commands (serve, push, pull, …).
build-server: setup
	$(SWIFT) build $(RELEASE) $(TOOLS) --product tensorio-repository

# `tensorio-load-check`, which loads models in a process of its own (validate --load, pull, update, serve).
build-load-check: setup
	$(SWIFT) build $(RELEASE) $(TOOLS) --product tensorio-load-check

# The main job on a bundled example: EfficientNet-Lite0 classifies the cat photo (the tool alone is built).
demo: build-tool
	$(TENSORIO) classify Examples/efficientnet-lite0-float32.tiobundle Examples/photos/cat.jpg

# Trains the untrained digits classifier on LiteRT (TensorFlow Lite on-device training) and reports
# its held-out accuracy.
train-demo: build-tool
	$(TENSORIO) train Examples/digits-training/digits-train-tflite.tiobundle \
		--data Examples/digits-training/data/train.json --test Examples/digits-training/data/test.json \
		--epochs 20 --batch-size 32 --shuffle

# The README's test command: everything CI runs (the test data, the consumer check, every test, TSan, the
# contract test, DocC), then how many tests were skipped for missing test data.
test: test-data test-consumer test-unit test-tsan test-contract docs test-data-report

# Tests/ConsumerPackage against the TensorIO library alone, in .build-consumer: fails when SwiftPM resolves
# more than swift-log for it (docs/packages.md).
test-consumer: setup test-data
	@scripts/consumer-check.sh

# With a throwaway PostgreSQL server on loopback for the tests of servers sharing a PostgreSQL index
# (scripts/with-postgres.sh installs Debian's postgresql when it is missing). A failure is repeated at the
# end of the output (scripts/failures-last.sh), where a CI log's last lines show it.
test-unit: setup-tensorflow setup-zoo
	scripts/failures-last.sh $(SWIFT) test $(SERVER)
	scripts/with-postgres.sh scripts/failures-last.sh $(SWIFT) test $(TOOLS)

# The thread sanitizer needs its own build folder (.build-tsan) so it does not rebuild the normal one.
# ConcurrencyTests (models shared by threads and tasks) and AsyncRunTests (async runs, cancellation): the
# library's own, so no trait (the server's dependencies are not built under TSan); and TensorIOVideo's
# decoding thread and its bounded queue (VideoStreamingTests, VideoInternalsTests).
test-tsan: setup-tensorflow
	scripts/failures-last.sh $(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter "ConcurrencyTests|AsyncRunTests|ModelResultsTests|InstancePoolTests|RunThreadsTests|VideoStreamingTests|VideoInternalsTests|LiveVideoTests"

# docs/openapi.yaml against a running `tensorio serve` (debug build), with schemathesis from PyPI in
# .venv-contract (scripts/contract-test.sh): a few minutes at most.
test-contract: setup
	$(SWIFT) build $(TOOLS) --product tensorio
	$(SWIFT) build $(TOOLS) --product tensorio-repository
	$(SWIFT) build $(TOOLS) --product tensorio-load-check
	@SWIFT=$(SWIFT) scripts/contract-test.sh

# The DocC catalogs (Sources/*/*.docc) and every doc comment of the seven libraries (TensorIO,
# TensorIOVision, TensorIOAudio, TensorIOText, TensorIOVideo, TensorIODelivery, TensorIORepositoryServer),
# with warnings as errors: an unresolved link fails. Reuses the debug build in .build that test-unit made;
# the archives go to .build/docs.
docs: setup
	@SWIFT=$(SWIFT) scripts/build-docs.sh

# Regenerates the test models (TensorFlow from PyPI, pinned) — only needed when changing them.
models:
	python3 -m venv .venv-models
	.venv-models/bin/pip install --quiet -r scripts/models/requirements.txt
	.venv-models/bin/python scripts/models/make_test_models.py

# Side-by-side image benchmarks: TensorIO against Pillow + NumPy and a Python LiteRT script (one run).
bench-images: build-tool
	python3 -m venv .venv-bench
	.venv-bench/bin/pip install --quiet -r Benchmarks/python/requirements.txt
	$(SWIFT) build $(RELEASE) $(BENCHMARKS) --product image-preprocessing-benchmark
	.venv-bench/bin/python Benchmarks/run-image-benchmarks.py

# Removes every build folder this Makefile makes.
clean:
	rm -rf .build .build-tsan .build-fuzz .build-consumer .fuzz Benchmarks/.build Fuzz/.build

# libFuzzer over model.json reading, the model-file verifier, the image decoders, the audio and video readers,
# the text tokenizers, the archive reader, the training data sources, the NumPy .npy/.npz readers of
# `--input @FILE` and the delivery side's rollout rules, assignments and signatures, FUZZ_SECONDS per target
# (default 60); findings land in .fuzz/findings.
# The targets are the Fuzz package's (Fuzz/Package.swift), built in .build-fuzz. See docs/security.md.
fuzz: setup
	@scripts/fuzz.sh

# A mutation campaign against the release tool (scripts/mutate-models.py): 20,000 mutated copies of the
# fixtures' .tflite files go through `tensorio inspect` and `tensorio run`, two at a time, which must answer
# or fail but never die by a signal or hang; such cases land in .fuzz/campaign with a case.txt. It catches
# what the verifier lets through to LiteRT, which `make fuzz` (the verifier alone) cannot. FUZZ_MODELS_ARGS
# go to the script, e.g. FUZZ_MODELS_ARGS="--count 2000 --seed 7".
fuzz-models: setup
	$(SWIFT) build $(RELEASE) $(TOOLS) --product tensorio
	python3 scripts/mutate-models.py --tensorio $(TENSORIO) --count 20000 --jobs 2 $(FUZZ_MODELS_ARGS)

# Every performance goal, side by side with its alternative, in one run (docs/performance.md): inference
# against a raw LiteRT C API loop and Python's ai_edge_litert Interpreter (bench-inference), throughput
# across cores (bench-throughput), cold start (bench-coldstart), training speed (bench-training), detection,
# segmentation, landmarks, video, audio and text classification against MediaPipe (bench-detection, bench-segmentation,
# bench-landmarks, bench-video, bench-audio, bench-text), training your own classifier against ai_edge_litert + scikit-learn
# (bench-classifier-training); then every goal's PASS/FAIL together. Each goal is measured over alternating
# rounds and decided on their median, printed with their range (Benchmarks/benchlib.py). Results in
# bench-results/*.json. BENCH_ARGS go to the inference one.
.PHONY: bench bench-inference bench-venv
bench: bench-inference bench-throughput bench-coldstart bench-training bench-detection bench-segmentation bench-landmarks bench-video bench-audio bench-text bench-classifier-training
	@.venv-bench/bin/python Benchmarks/print-goals.py

# Python's side of the benchmarks (ai_edge_litert, NumPy, Pillow, scikit-learn) in .venv-bench.
bench-venv:
	python3 -m venv .venv-bench
	.venv-bench/bin/pip install --quiet -r Benchmarks/python/requirements.txt

# TensorIO (`tensorio bench`) against the raw LiteRT C API loop (the floor) and Python's ai_edge_litert
# Interpreter with NumPy and with Pillow: per-run medians, memory in three modes, concurrent callers.
bench-inference: build-tool bench-venv
	$(SWIFT) build $(RELEASE) $(BENCHMARKS) --product raw-litert-benchmark
	.venv-bench/bin/python Benchmarks/run-benchmarks.py $(BENCH_ARGS)

# MediaPipe 0.10.21's Python environment in .venv-mediapipe (the reference fixtures' pins,
# scripts/fixtures/mediapipe-requirements.txt), which the task benchmarks run MediaPipe in.
.PHONY: setup-mediapipe
setup-mediapipe:
	@[ -x .venv-mediapipe/bin/python ] || python3 -m venv .venv-mediapipe
	@.venv-mediapipe/bin/pip install --quiet --disable-pip-version-check -r scripts/fixtures/mediapipe-requirements.txt

# Detection (issue 27, point 6): detect per photo against MediaPipe 0.10.21's Python Tasks API on the same
# models and photos, what decoding and suppression add to a run, and `detect --jobs 2` against --jobs 1;
# writes bench-results/detection.json. MediaPipe runs in .venv-mediapipe (the reference fixtures' pins).
.PHONY: bench-detection
bench-detection: build-tool setup-zoo setup-mediapipe
	$(SWIFT) build $(RELEASE) $(BENCHMARKS) --product detection-benchmark
	.venv-mediapipe/bin/python Benchmarks/run-detection-benchmarks.py

# Segmentation and embeddings (issue 28, point 6): segment per photo against MediaPipe 0.10.21's
# ImageSegmenter on the same models and photos, what the mask adds against the model's invoke, and
# `similar --jobs 2` over 200 photos against --jobs 1; writes bench-results/segmentation.json.
.PHONY: bench-segmentation
bench-segmentation: build-tool setup-zoo setup-mediapipe
	$(SWIFT) build $(RELEASE) $(BENCHMARKS) --product segmentation-benchmark
	.venv-mediapipe/bin/python Benchmarks/run-segmentation-benchmarks.py

# Landmarks (issue 39, point 6): `landmarks` per photo (Landmarker.landmarks(in:) on the decoded photo) against
# MediaPipe 0.10.21's legacy Python solutions (Hands, FaceMesh, Pose; static-image mode, warm, process() on the
# decoded RGB array) on the same models and photo, for hand, face and pose (bundles made by `tensorio init
# --landmarker` from .build/zoo/mediapipe-modules/); what the region crop and the point mapping add against
# the two invokes; and `landmarks --jobs 2` over 100 photos against --jobs 1; writes bench-results/landmarks.json.
# MediaPipe runs in .venv-mediapipe (the reference fixtures' pins).
.PHONY: bench-landmarks
bench-landmarks: build-tool setup-zoo setup-mediapipe
	$(SWIFT) build $(RELEASE) $(BENCHMARKS) --product landmarks-benchmark
	.venv-mediapipe/bin/python Benchmarks/run-landmarks-benchmarks.py

# Video (issue 41, point 5): on a 30-second 1280×720 H.264 clip with motion (scripts/make_benchmark_clip.sh, from
# a gesture photo of the test data, into .build/video-bench/), decoding with pose landmarks tracked frame to
# frame (LandmarkTracker) against MediaPipe 0.10.21's Pose in video mode fed by OpenCV's decoder, and decoding
# alone against `ffmpeg -pix_fmt bgra -f null`; frames per second and real-time factors; writes
# bench-results/video.json. MediaPipe runs in .venv-mediapipe (the reference fixtures' pins).
.PHONY: bench-video
bench-video: build-tool setup-zoo setup-mediapipe test-data
	$(SWIFT) build $(RELEASE) $(BENCHMARKS) --product video-benchmark
	.venv-mediapipe/bin/python Benchmarks/run-video-benchmarks.py

# Audio classification (issue 29, point 6): YAMNet on a 10-minute 44.1 kHz stereo WAV (read, mix, resample,
# all 616 windows; .build/audio/long-recording-44100-stereo.wav, made by scripts/fixtures/make_long_recording.py
# when missing) against MediaPipe 0.10.21's Python AudioClassifier on the same file, with TensorIO's parts;
# writes bench-results/audio.json. MediaPipe runs in .venv-mediapipe (the reference fixtures' pins).
.PHONY: bench-audio
bench-audio: setup test-data setup-mediapipe
	$(SWIFT) build $(RELEASE) $(BENCHMARKS) --product audio-classification-benchmark
	.venv-mediapipe/bin/python Benchmarks/run-audio-benchmarks.py

# Text classification (issue 29, point 6): Model.classify(text:) per sentence on one thread, the 25 sentences of
# Tests/Fixtures/Text/regex.json one after another, against MediaPipe 0.10.21's Python TextClassifier on the
# same model (the regex-tokenizer test classifier) and sentences, with TensorIO's tokenization and run timed
# alone; stops when a top label or a score (1e-5) differs; writes bench-results/text.json. MediaPipe runs in
# .venv-mediapipe (the reference fixtures' pins).
.PHONY: bench-text
bench-text: setup test-data setup-mediapipe
	$(SWIFT) build $(RELEASE) $(BENCHMARKS) --product text-classification-benchmark
	.venv-mediapipe/bin/python Benchmarks/run-text-benchmarks.py

# Training your own classifier (issue 40, point 4): `tensorio train-classifier` with the EfficientNet-Lite0
# embedder on the 28 gesture photos (4 classes) against the same work in Python (Pillow, ai_edge_litert,
# scikit-learn's StandardScaler + LogisticRegression, np.savez; Benchmarks/python/train_classifier_reference.py),
# each a whole process, alternating rounds; goal: TensorIO at least 1.5x faster. A hand landmarker base (bundle
# made by `tensorio init --landmarker hand`) against MediaPipe's Hands + scikit-learn is a reference line;
# writes bench-results/classifier-training.json. MediaPipe runs in .venv-mediapipe (the reference fixtures' pins).
.PHONY: bench-classifier-training
bench-classifier-training: build-tool setup-zoo setup-mediapipe bench-venv
	.venv-bench/bin/python Benchmarks/run-classifier-training-benchmarks.py

# Cold start (issue 12, point 4): process start to printed top-5 for one photo, interleaved: `tensorio
# classify` with and without --weight-cache, and today's tool before this work (built once from commit
# COLDSTART_BASELINE by scripts/build-coldstart-baseline.sh); writes bench-results/coldstart.json.
.PHONY: bench-coldstart
bench-coldstart: build-tool
	@scripts/build-coldstart-baseline.sh
	python3 Benchmarks/run-coldstart-benchmarks.py --baseline .build-baseline/release/tensorio

# Throughput across cores (issue 12, point 3): `tensorio classify --jobs 1` and `--jobs N` against a Python
# multiprocessing pool of N processes, over 200 photos; prints the goals and writes bench-results/throughput.json.
.PHONY: bench-throughput
bench-throughput: build-tool bench-venv
	.venv-bench/bin/python Benchmarks/run-throughput-benchmarks.py

# Training speed (issue 12, point 5): `tensorio train --json` against the same steps driven from Python
# (ai_edge_litert's signature runner; TensorFlow's tf.compat.v1 Session) on the two digits bundles, batch 32 in
# file order, as many epochs as make 0.5 s of steps a run, each run's median epoch; prints the goals and writes
# bench-results/training.json.
.PHONY: bench-training
bench-training: build-tool setup-tensorflow bench-venv
	.venv-bench/bin/python Benchmarks/run-training-benchmarks.py

# Delivery under load (issue 13): downloads/s and MB/s with 50 concurrent clients against one server on
# SQLite and against two sharing a PostgreSQL database (wrk from Debian's packages, 127.0.0.1 only).
bench-delivery: build
	scripts/with-postgres.sh Benchmarks/run-delivery-load.sh

# What an isolated load check (ModelBundle.checkLoading(.isolated)) costs next to loading in-process,
# on EfficientNet-Lite0 and a TensorFlow SavedModel (docs/security.md has the figures). The Benchmarks
# package builds the tensorio-load-check it runs, next to the benchmark.
bench-load-check: setup-tensorflow
	$(SWIFT) build $(RELEASE) $(BENCHMARKS) --product load-check-benchmark
	Benchmarks/.build/release/load-check-benchmark 20 Examples/efficientnet-lite0-float32.tiobundle \
		Tests/Fixtures/TensorFlowBundles/tf_2_in_2_out_vectors_test.tiobundle

# What verifying a .tflite file adds to loading it (the goal: at most 3%): full loads of EfficientNet-Lite0
# float32 and the verifier alone, interleaved, 30 rounds (docs/performance.md, "Model-file verification").
bench-model-load: setup
	$(SWIFT) build $(RELEASE) $(BENCHMARKS) --product model-load-benchmark
	Benchmarks/.build/release/model-load-benchmark 30 Examples/efficientnet-lite0-float32.tiobundle

# Every target with the first line of its comment (scripts/make-help.py reads this Makefile).
help:
	@python3 scripts/make-help.py
