#!/usr/bin/env bash
# The command line's scaling and the tdoku comparison, in one run, for a
# machine the binaries were carried to (see docs/performance.md).
#
# Usage: benches/peers/scaling.sh LAZYDOKU PEERS
#   LAZYDOKU: a release build of the `lazydoku` binary;
#   PEERS: a release build of `lazydoku-peers` (benches/peers).
# Run from the repository's root. Makes 1,000,000 lines of 17-clue puzzles
# in /tmp, times `solve --jobs N` for N = 1, 2, 4, 8, 16 twice, checks that
# the outputs of 1 and 16 jobs are the same, then times the library's own
# rate on those lines and the peer comparison with permuted puzzles.
set -euo pipefail
lazydoku="$1"; peers="$2"
lscpu | grep -E "Model name|^CPU\(s\)" || true
for _ in $(seq 21); do grep -v '^#' data/puzzles2_17_clue; done > /tmp/m17-all.txt
head -n 1000000 /tmp/m17-all.txt > /tmp/m17.txt
TIMEFORMAT='%R'
for round in 1 2; do
  for jobs in 1 2 4 8 16; do
    seconds=$( { time "$lazydoku" solve --jobs "$jobs" -q /tmp/m17.txt > "/tmp/out$jobs.txt"; } 2>&1 )
    echo "round $round, --jobs $jobs: $seconds s"
  done
done
cmp /tmp/out1.txt /tmp/out16.txt && echo "1 and 16 jobs write the same output"
"$peers" --rounds 3 --solve-rate /tmp/m17.txt
"$peers" --rounds 3 --permute 1 puzzles2_17_clue puzzles3_magictour_top1465 puzzles5_forum_hardest_1905_11+ \
  puzzles6_forum_hardest_1106 puzzles7_serg_benchmark norvig_top95.txt million.txt
