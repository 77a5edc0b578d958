#!/usr/bin/env python3
"""Makes the harder variants of bundled puzzles for the size benchmark:
each puzzle of FILE again with K of its clues removed, for each K given,
chosen by Python's seeded random generator (the same output every run).

Usage: python3 benches/peers/remove_clues.py SEED FILE K... > OUT

With no arguments, from the repository's root, it writes
data/removed16.txt, data/removed25.txt and data/removed24.txt as they
are bundled.
"""

import random
import sys


def variants(rng, path, ks):
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        puzzle = line.split()[0]
        for k in ks:
            clues = [i for i, c in enumerate(puzzle) if c != "."]
            drop = set(rng.sample(clues, k))
            yield "".join("." if i in drop else c for i, c in enumerate(puzzle)) + f" # {k} clues removed"


def make_all():
    rng = random.Random(16)
    sets = [
        ("hard16", "removed16", [1, 3, 6]),
        ("hard25", "removed25", [10, 25, 40, 60, 80]),
        ("minimal24", "removed24", [1, 3, 6, 10]),
    ]
    for name, removed, ks in sets:
        with open(f"data/{removed}.txt", "w") as out:
            out.write(f"# data/{name}.txt with clues removed: benches/peers/remove_clues.py\n")
            for line in variants(rng, f"data/{name}.txt", ks):
                out.write(line + "\n")


if __name__ == "__main__":
    if len(sys.argv) == 1:
        make_all()
    else:
        rng = random.Random(int(sys.argv[1]))
        for line in variants(rng, sys.argv[2], [int(k) for k in sys.argv[3:]]):
            print(line)
