#!/usr/bin/env bash
# lazydoku against OR-tools CP-SAT (one worker) on boards of any size:
# count to 2, puzzle by puzzle, with each solver's own solve time.
#
# Usage: benches/peers/sizes.sh [--rounds N] [--cpsat-seed N] FILE...
# Needs: python3 with `ortools` (pip install ortools).
#
# Prints each puzzle's solutions, both times and the ratio (lazydoku's time
# over CP-SAT's), then per file and overall: how many puzzles lazydoku
# counts no slower than CP-SAT, the worst ratio, and both totals.
#
# --cpsat-seed N runs CP-SAT with random_seed N (its default is 1): on
# puzzles with two solutions its time is a draw that the seed decides.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rounds=1
seed=1
while [[ "${1:-}" == --rounds || "${1:-}" == --cpsat-seed ]]; do
    (( $# >= 2 )) || { echo "usage: $0 [--rounds N] [--cpsat-seed N] FILE..." >&2; exit 2; }
    if [[ "$1" == --rounds ]]; then rounds="$2"; else seed="$2"; fi
    shift 2
done
(( $# > 0 )) || { echo "usage: $0 [--rounds N] [--cpsat-seed N] FILE..." >&2; exit 2; }
python3 -c 'import ortools' 2>/dev/null || { echo "$0: needs the ortools package: pip install ortools" >&2; exit 2; }
cargo build --quiet --release --manifest-path "$here/Cargo.toml"
ours="$(mktemp)"; theirs="$(mktemp)"
trap 'rm -f "$ours" "$theirs"' EXIT
"$here/target/release/lazydoku-peers" --rounds "$rounds" --sizes "$@" > "$ours"
python3 "$here/cpsat.py" --seed "$seed" "$@" > "$theirs"
paste "$ours" "$theirs" | awk -F'\t' '
function summary(name, n, ok, worst, a, b) {
    printf "%-28s %4d puzzles, %4d no slower than CP-SAT, worst ratio %7.2f, total %9.3f s against %8.3f s\n", name, n, ok, worst, a, b
}
BEGIN { printf "%-28s %5s %9s %11s %11s %8s\n", "file", "line", "solutions", "lazydoku s", "CP-SAT s", "ratio" }
{
    if ($1 != $5 || $2 != $6) { print "rows out of step: " $0 > "/dev/stderr"; exit 1 }
    if ($3 != $7) { print $1 ":" $2 ": lazydoku counts " $3 ", CP-SAT " $7 > "/dev/stderr"; bad = 1 }
    ratio = $8 > 0 ? $4 / $8 : 0
    printf "%-28s %5d %9d %11.4f %11.4f %8.2f\n", $1, $2, $3, $4, $8, ratio
    n[$1]++; a[$1] += $4; b[$1] += $8; if (ratio <= 1) ok[$1]++; if (ratio > worst[$1]) worst[$1] = ratio
    N++; A += $4; B += $8; if (ratio <= 1) OK++; if (ratio > W) W = ratio
}
END {
    print ""
    for (f in n) summary(f, n[f], ok[f], worst[f], a[f], b[f])
    summary("all", N, OK, W, A, B)
    exit bad
}'
