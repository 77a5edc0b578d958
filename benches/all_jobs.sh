#!/usr/bin/env bash
# `lazydoku all` on one puzzle, one job against several, side by side:
# `lazydoku all -q --jobs N PUZZLE > /dev/null` alternating with --jobs 1,
# ROUNDS rounds, each round's two times and their ratio, then the median
# ratio. Three puzzles: every solution of data/million.txt's (1,039,784,
# each some 200 ns to find), every solution of data/hard16.txt's first with
# three givens out (76,042, some microseconds each), and the first 300,000
# of the same with ten givens out (a tree far larger than what is written).
#
#   benches/all_jobs.sh
#
# ROUNDS (default 7) and JOBS (default: every core) can be set in the
# environment.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/lazydoku
rounds=${ROUNDS:-7}
jobs=${JOBS:-$(nproc)}
million=$(grep -v '^#' data/million.txt | head -1)
sixteen=$(grep -v '^#' data/hard16.txt | head -1 | awk '{print $1}')
# Givens taken out of the 16x16 puzzle (cell indices, row by row).
without() {
  local puzzle=$1 cell
  shift
  for cell in "$@"; do puzzle="${puzzle:0:cell}.${puzzle:cell+1}"; done
  echo "$puzzle"
}
three=$(without "$sixteen" 15 23 24)
ten=$(without "$sixteen" 15 23 24 43 85 109 130 138 163 215)

seconds() { # jobs, then the arguments of `all` -> wall seconds of one run
  local jobs=$1 start end
  shift
  start=$(date +%s.%N)
  "$bin" all -q --jobs "$jobs" "$@" > /dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

measure() { # name, then the arguments of `all`
  local name=$1 ratios=() one many ratio
  shift
  for round in $(seq "$rounds"); do
    one=$(seconds 1 "$@")
    many=$(seconds "$jobs" "$@")
    ratio=$(echo "$one / $many" | bc -l)
    ratios+=("$ratio")
    printf '%s, round %d: one job %.3f s, %d jobs %.3f s, %.2f times as fast\n' "$name" "$round" "$one" "$jobs" "$many" "$ratio"
  done
  printf '%s: median %.2f times as fast\n' "$name" "$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
}

measure "million.txt, all" "$million"
measure "16x16 less three givens, all" "$three"
measure "16x16 less ten givens, first 300,000" --limit 300000 "$ten"
