#!/usr/bin/env python3
"""Every goal of the last `make bench`, from the JSON files its benchmarks wrote in bench-results/:
inference (benchmarks.json), throughput across cores (throughput.json), cold start (coldstart.json),
training (training.json), detection (detection.json), segmentation and embeddings (segmentation.json),
landmarks (landmarks.json), video (video.json), audio classification (audio.json), text classification (text.json) and training
your own classifier (classifier-training.json). Prints one line per goal, as the benchmark printed it
(benchlib.goal_line): PASS/FAIL, decided on the median of the goal's rounds, and that median with the rounds'
range beside it; then a count. Exits 0 whatever the outcome."""
import json
import os

import benchlib

FILES = [("inference", "benchmarks.json"), ("throughput", "throughput.json"),
         ("cold start", "coldstart.json"), ("training", "training.json"), ("detection", "detection.json"),
         ("segmentation", "segmentation.json"), ("landmarks", "landmarks.json"),
         ("video", "video.json"), ("audio classification", "audio.json"), ("text classification", "text.json"),
         ("classifier training", "classifier-training.json")]

passed = total = 0
print("Goals of this make bench (each the median of its rounds, their range in brackets):")
for title, name in FILES:
    path = os.path.join(benchlib.RESULTS, name)
    try:
        with open(path) as f:
            goals = json.load(f).get("goals", [])
    except (OSError, ValueError) as error:
        print(f"  FAIL  {title}: no results ({error})")
        total += 1
        continue
    for goal in goals:
        print(benchlib.goal_line(goal, title))
        total += 1
        passed += goal.get("result") == "PASS"
print(f"{passed} of {total} goals PASS")
