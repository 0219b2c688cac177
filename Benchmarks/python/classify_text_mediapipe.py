"""MediaPipe's side of run-text-benchmarks.py: the Tasks API's TextClassifier on many sentences, warm.

  classify_text_mediapipe.py MODEL SENTENCES ROUNDS

mediapipe.tasks.python.text.TextClassifier with its default options (every category, no threshold, its
default threads), created once with create_from_options. SENTENCES is a JSON file whose "sentences" are
objects with a "text" (Tests/Fixtures/Text/regex.json). One untimed round, then ROUNDS rounds of
classify(text), one sentence after another: what text-classification-benchmark's "classify" times. Prints
{"classify_us": median over rounds of a round's time divided by its sentences, "labels": [...], "scores":
[[score by category index, ...], ...], "top": [label, ...]} (of the last round) as one JSON line. Runs in
the environment of scripts/fixtures/mediapipe-requirements.txt (mediapipe 0.10.21)."""
import json
import os
import sys

from mediapipe.tasks import python as tasks
from mediapipe.tasks.python import text

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Benchmarks/, for benchlib
import benchlib  # noqa: E402


def main():
    model, path, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(path, encoding="utf-8") as f:
        sentences = [entry["text"] for entry in json.load(f)["sentences"]]
    options = text.TextClassifierOptions(base_options=tasks.BaseOptions(model_asset_path=model))
    with text.TextClassifier.create_from_options(options) as classifier:
        def classify_all():
            return [classifier.classify(sentence) for sentence in sentences]

        times = [us / len(sentences) for us in benchlib.sample_us(classify_all, rounds, warmup=1)]
        results = classify_all()
    heads = [result.classifications[0].categories for result in results]
    by_index = [sorted(categories, key=lambda c: c.index) for categories in heads]
    benchlib.emit({"classify_us": benchlib.median(times), "rounds": rounds, "sentences": len(sentences),
                   "labels": [c.category_name for c in by_index[0]],
                   "scores": [[c.score for c in categories] for categories in by_index],
                   "top": [max(categories, key=lambda c: c.score).category_name for categories in heads]})


if __name__ == "__main__":
    main()
