#!/usr/bin/env python3
"""OR-tools CP-SAT as the peer for boards other than 9x9: counts each
puzzle's solutions up to 2 with one worker and prints the solve time.

Usage: python3 benches/peers/cpsat.py [--seed N] FILE... > times.tsv

Puzzles are one per line in lazydoku's line format: '.' for an empty cell,
then 1-9 and A-P for digits 1 to 25, no spaces; the side is the square root
of the length and the boxes are the shape lazydoku infers (square when the
side is a square, else the closest factors, fewer rows than columns). Lines
starting with '#' are skipped.

After the puzzle, the rules that `lazydoku generate --jigsaw` and `--killer`
write are read too: a token with one label per cell is a cage map when
`label=sum` tokens follow it (each cage's digits distinct and adding up to
its sum; '.' is a cell in no cage), and otherwise a region map whose
regions replace the boxes. Any other text after the puzzle is a comment.

The model is the usual Boolean one: x[cell][digit], exactly one digit per
cell and exactly one place per digit in each row, column and box. Counting
to 2 is a solve, then a second solve with a constraint that forbids the
first solution. The time printed is CP-SAT's own wall time of both solves
(model building in Python is not counted), with num_workers = 1.

--seed N sets CP-SAT's random_seed (its default is 1). On puzzles with two
solutions the time to the first is a draw that the seed decides, by factors
of 7 to 19 on data/edge25.txt (docs/performance.md), so a comparison with
one run is a comparison with one draw.

Output: one tab-separated row per puzzle: file, line, solutions (0, 1 or 2),
seconds.
"""

import math
import os
import sys

from ortools.sat.python import cp_model

SYMBOLS = ".123456789ABCDEFGHIJKLMNOP"


def box_shape(side):
    rows = 0
    for r in range(2, math.isqrt(side) + 1):
        if side % r == 0:
            rows = r
    if rows == 0:
        raise ValueError(f"no box shape for side {side}")
    return rows, side // rows


def groups(labels, skip=None):
    """The cells of each label of a map, in the order labels first come."""
    cells = {}
    for c, label in enumerate(labels):
        if label != skip:
            cells.setdefault(label, []).append(c)
    return list(cells.values())


def units(side, regions=None):
    for r in range(side):
        yield [r * side + c for c in range(side)]
    for c in range(side):
        yield [r * side + c for r in range(side)]
    if regions is not None:
        yield from groups(regions)
        return
    rows, cols = box_shape(side)
    for top in range(0, side, rows):
        for left in range(0, side, cols):
            yield [(top + i // cols) * side + left + i % cols for i in range(side)]


def rules_after(puzzle, tokens):
    """The region map and the cages ((sum, cells) pairs) written after a
    puzzle: see the module's text. Other tokens are a comment."""
    regions, cages = None, []
    k = 0
    while k < len(tokens):
        token = tokens[k]
        if len(token) != len(puzzle) or "=" in token:
            break
        sums = {}
        k += 1
        while k < len(tokens) and "=" in tokens[k]:
            label, _, total = tokens[k].partition("=")
            sums[label] = int(total)
            k += 1
        if sums:
            for cells in groups(token, skip="."):
                label = token[cells[0]]
                if label not in sums:
                    raise ValueError(f"cage {label} has no sum")
                cages.append((sums[label], cells))
        else:
            regions = token
    return regions, cages


def count_to_two(puzzle, seed=1, regions=None, cages=()):
    side = math.isqrt(len(puzzle))
    if side * side != len(puzzle):
        raise ValueError(f"{len(puzzle)} cells is not a square board")
    model = cp_model.CpModel()
    x = [[model.new_bool_var(f"x{c}_{d}") for d in range(side)] for c in range(side * side)]
    for c, ch in enumerate(puzzle):
        model.add_exactly_one(x[c])
        if ch != ".":
            model.add(x[c][SYMBOLS.index(ch) - 1] == 1)
    for unit in units(side, regions):
        for d in range(side):
            model.add_exactly_one(x[c][d] for c in unit)
    for total, cells in cages:
        for d in range(side):
            model.add_at_most_one(x[c][d] for c in cells)
        model.add(sum((d + 1) * x[c][d] for c in cells for d in range(side)) == total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    seconds = 0.0
    status = solver.solve(model)
    seconds += solver.wall_time
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return 0, seconds
    chosen = [x[c][d] for c in range(side * side) for d in range(side) if solver.value(x[c][d])]
    model.add_bool_or([v.Not() for v in chosen])
    status = solver.solve(model)
    seconds += solver.wall_time
    return (2 if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else 1), seconds


def main():
    args = sys.argv[1:]
    seed = 1
    if args[:1] == ["--seed"]:
        if len(args) < 2 or not args[1].isdigit():
            sys.exit("usage: cpsat.py [--seed N] FILE...")
        seed = int(args[1])
        args = args[2:]
    for name in args:
        with open(name) as f:
            for number, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                puzzle, *rest = line.split()
                regions, cages = rules_after(puzzle, rest)
                solutions, seconds = count_to_two(puzzle, seed, regions, cages)
                print(f"{name}\t{number}\t{solutions}\t{seconds:.6f}", flush=True)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from
        # complaining again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
