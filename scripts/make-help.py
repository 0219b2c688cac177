#!/usr/bin/env python3
"""`make help`: every target of the Makefile with the first line of the comment above it, read from the
Makefile itself so the list cannot drift from the targets."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
lines = open(os.path.join(ROOT, "Makefile"), encoding="utf-8").read().splitlines()
rows = []
for index, line in enumerate(lines):
    match = re.match(r"^([a-z][a-z0-9-]*):", line)
    if not match:
        continue
    # The comment block right above the target (a .PHONY line between them is skipped).
    above = index - 1
    while above >= 0 and lines[above].startswith(".PHONY"):
        above -= 1
    block = []
    while above >= 0 and lines[above].startswith("#"):
        block.insert(0, lines[above].lstrip("# ").rstrip())
        above -= 1
    rows.append((match.group(1), block[0] if block else ""))
width = max(len(name) for name, _ in rows)
print("make TARGET — the targets of this Makefile (the comments above them say more):")
for name, text in rows:
    print(f"  {name.ljust(width)}  {text}")
