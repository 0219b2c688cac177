#!/usr/bin/env python3
"""Every goal of the last `make bench`, from the JSON files its benchmarks wrote in bench-results/:
inference (benchmarks.json), throughput across cores (throughput.json), cold start (coldstart.json),
training (training.json), detection (detection.json), segmentation and embeddings (segmentation.json),
audio classification (audio.json) and text classification (text.json). Prints one line per goal and a
count; exits 0 whatever the outcome."""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = [("inference", "benchmarks.json"), ("throughput", "throughput.json"),
         ("cold start", "coldstart.json"), ("training", "training.json"), ("detection", "detection.json"),
         ("segmentation", "segmentation.json"), ("audio classification", "audio.json"),
         ("text classification", "text.json")]

passed = total = 0
print("Goals of this make bench:")
for title, name in FILES:
    path = os.path.join(ROOT, "bench-results", name)
    try:
        with open(path) as f:
            goals = json.load(f).get("goals", [])
    except (OSError, ValueError) as error:
        print(f"  FAIL  {title}: no results ({error})")
        total += 1
        continue
    for goal in goals:
        text = goal.get("goal") or goal.get("name") or "?"
        result = goal.get("result", "FAIL")
        print(f"  {result:4}  {title}: {text}: {goal.get('shown', '')}")
        total += 1
        passed += result == "PASS"
print(f"{passed} of {total} goals PASS")
