"""Text classification per sentence, side by side in one run (issue 29, point 6; `make bench-text`).

  per sentence  text-classification-benchmark (TensorIO: TextModel.classify(text:), the synchronous call, with
                ModelConfiguration(threadCount: 1)) against MediaPipe 0.10.21's Python Tasks API
                (TextClassifier.create_from_options with its default options, classify(text)), warm, on
                test_model_nl_classifier_with_regex_tokenizer.tflite (a regex tokenizer, 256 ids, 2 labels)
                and the 25 sentences of Tests/Fixtures/Text/regex.json, one after another on one thread: one
                untimed round, then --rounds rounds; a process's figure is the median over its rounds of a
                round's time divided by its sentences.
  breakdown     TensorIO's parts, timed on their own in the same process: TextTokenizer.tokenize alone, and
                the inputs made from those tokens (TextTokenizer.input) with the model's run alone; what
                classify spends besides is printed as the rest.
  one core      both again with the process pinned to CPU 0 (taskset -c 0, when there is taskset), a
                reference line: MediaPipe's classify hands each text to its graph's threads and waits for the
                answer, and on two cores those hand-overs cost more than the work (TensorIO runs on the
                calling thread alone).
  equivalence   for every sentence both sides must give the same top label and every score within 1e-5;
                the run stops otherwise.
Each side is a process of its own, repeated --repeats times, the order turning each round (benchlib's
alternate); the goal is decided on the median of the rounds' MediaPipe/TensorIO ratios and printed with their
range. Prints the table and the goal with PASS/FAIL, writes bench-results/text.json, and exits 0 whatever the
outcome."""
import os
import sys
import shutil

import benchlib
from benchlib import ROOT, HERE, describe, figures, median, ratios

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import testdata  # noqa: E402  (the test data's manifest and cache: make test-data)

MODEL = str(testdata.path("task-models/tflite-support/text/test_model_nl_classifier_with_regex_tokenizer.tflite"))
SENTENCES = os.path.join(ROOT, "Tests", "Fixtures", "Text", "regex.json")

MIN_OVER_MEDIAPIPE = 1.5
# The largest difference of a score between the two sides (the same model, the same ids, the same kernels).
SCORE_TOLERANCE = 1e-5


def check_agreement(ours, theirs):
    """The largest score difference; exits when a top label or a score differs."""
    if ours["labels"] != theirs["labels"] or len(ours["scores"]) != len(theirs["scores"]):
        raise SystemExit(f"the labels or the sentence counts differ: TensorIO {ours['labels']} on {len(ours['scores'])},"
                         f" MediaPipe {theirs['labels']} on {len(theirs['scores'])}")
    largest = 0.0
    for index, (a, b) in enumerate(zip(ours["scores"], theirs["scores"])):
        if ours["top"][index] != theirs["top"][index]:
            raise SystemExit(f"sentence {index}: TensorIO's top label is {ours['top'][index]}, MediaPipe's {theirs['top'][index]}")
        if len(a) != len(b):
            raise SystemExit(f"sentence {index}: {len(a)} scores against {len(b)}")
        difference = max(abs(x - y) for x, y in zip(a, b))
        if difference > SCORE_TOLERANCE:
            raise SystemExit(f"sentence {index}: scores {a} against MediaPipe's {b} (differ by {difference:.2e})")
        largest = max(largest, difference)
    return largest


def main():
    arguments = benchlib.mediapipe_arguments(__doc__.splitlines()[0], 40, "timed rounds over the sentences per process, after an untimed one",
                                             runs_name="--rounds")
    benchmark = benchlib.program("text-classification-benchmark")

    rounds = str(arguments.rounds)
    tensorio = [benchmark, MODEL, SENTENCES, rounds, "--threads", "1"]
    mediapipe = [arguments.python, os.path.join(HERE, "python", "classify_text_mediapipe.py"), MODEL, SENTENCES, rounds]
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else None
    commands = {"ours": tensorio, "theirs": mediapipe}
    if pin:
        commands.update({"pinned_ours": pin + tensorio, "pinned_theirs": pin + mediapipe})
    results = benchlib.alternate_json(
        commands, arguments.repeats, label="text classifier",
        show=lambda r: (f"TensorIO {r['ours']['classify_us']:.1f} µs per sentence (tokenize {r['ours']['tokenize_us']:.1f}, "
                        f"run {r['ours']['run_us']:.1f}), MediaPipe {r['theirs']['classify_us']:.1f} µs"
                        + (f"; on CPU 0 alone {r['pinned_ours']['classify_us']:.1f} and {r['pinned_theirs']['classify_us']:.1f} µs" if pin else "")))
    ours, theirs = results["ours"], results["theirs"]
    largest = max(check_agreement(a, b) for a, b in zip(ours, theirs))
    if pin:
        pinned_ours, pinned_theirs = results["pinned_ours"], results["pinned_theirs"]
        largest = max(largest, *(check_agreement(a, b) for a, b in zip(pinned_ours, pinned_theirs)))

    def med(side, key):
        return median(r[key] for r in side)

    classify_us, mediapipe_us = med(ours, "classify_us"), med(theirs, "classify_us")
    tokenize_us, run_us = med(ours, "tokenize_us"), med(ours, "run_us")
    rest_us = classify_us - tokenize_us - run_us
    sentences = ours[-1]["sentences"]
    row = {
        "model": os.path.basename(MODEL), "sentences_file": os.path.relpath(SENTENCES, ROOT), "sentences": sentences,
        "rounds": arguments.rounds, "repeats": arguments.repeats, "threads": 1,
        "tensorio_classify_us": classify_us, "mediapipe_classify_us": mediapipe_us,
        "tokenize_us": tokenize_us, "run_us": run_us, "rest_us": rest_us,
        "truncated_sentences": sum(ours[-1]["truncated"]), "largest_score_difference": largest,
    }
    if pin:
        row["tensorio_one_core_classify_us"] = med(pinned_ours, "classify_us")
        row["mediapipe_one_core_classify_us"] = med(pinned_theirs, "classify_us")
    speedups = ratios(figures(theirs, "classify_us"), figures(ours, "classify_us"))
    goals = [benchlib.goal(
        f"text classification per sentence (the regex-tokenizer test classifier, {sentences} sentences, one after another on one thread) at least {MIN_OVER_MEDIAPIPE}x faster than MediaPipe's TextClassifier",
        speedups, MIN_OVER_MEDIAPIPE,
        detail=f"TensorIO {describe(figures(ours, 'classify_us'), lambda v: f'{v:.1f} µs')}, MediaPipe "
               f"{describe(figures(theirs, 'classify_us'), lambda v: f'{v:.1f} µs')} per sentence; the same top label on all "
               f"{sentences}, scores within {largest:.1e}")]
    references = [
        f"text classification: TensorIO's {classify_us:.1f} µs per sentence are tokenization {tokenize_us:.1f} µs, inputs and run {run_us:.1f} µs, the rest {rest_us:.1f} µs",
    ]
    if pin:
        one_ours, one_theirs = row["tensorio_one_core_classify_us"], row["mediapipe_one_core_classify_us"]
        references.append(f"text classification with each process on CPU 0 alone: TensorIO {one_ours:.1f} µs, MediaPipe {one_theirs:.1f} µs per sentence ({one_theirs / one_ours:.2f}x)")

    print(f"\n{os.path.basename(MODEL)}, the {sentences} sentences of {os.path.relpath(SENTENCES, ROOT)}; medians of {arguments.repeats} processes of each x {arguments.rounds} rounds, µs per sentence")
    print(f"  TensorIO TextModel.classify (1 thread)       {classify_us:8.1f} µs")
    print(f"    tokenize (TextTokenizer.tokenize)          {tokenize_us:8.1f} µs  ({tokenize_us / classify_us:.0%})")
    print(f"    inputs and run (input(tokens), run)        {run_us:8.1f} µs  ({run_us / classify_us:.0%})")
    print(f"    the rest (classify's other work)           {rest_us:8.1f} µs  ({rest_us / classify_us:.0%})")
    print(f"  MediaPipe TextClassifier.classify           {mediapipe_us:8.1f} µs")
    if pin:
        print(f"  on CPU 0 alone (taskset -c 0): TensorIO      {row['tensorio_one_core_classify_us']:8.1f} µs")
        print(f"                                 MediaPipe     {row['mediapipe_one_core_classify_us']:8.1f} µs")
    benchlib.report("text", goals, references, {"rows": [row]}, packages=("mediapipe", "numpy"))


if __name__ == "__main__":
    main()
