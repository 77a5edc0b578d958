#!/usr/bin/env bash
# The command line's throughput on 1,000,000 lines of 17-clue puzzles (the
# bundled set repeated): `lazydoku solve -q --jobs N FILE > /dev/null`, best
# of ROUNDS runs, alternating with a baseline binary when one is given.
#
#   benches/cli_throughput.sh [BASELINE_BINARY]
#
# ROUNDS (default 5) and JOBS (default "1 2") can be set in the environment.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
new=target/release/lazydoku
baseline=${1:-}
rounds=${ROUNDS:-5}
input=$(mktemp)
trap 'rm -f "$input"' EXIT
for _ in $(seq 21); do grep -v '^#' data/puzzles2_17_clue; done | awk 'NR <= 1000000' > "$input"

seconds() { # binary jobs -> wall seconds of one run
  local start end
  start=$(date +%s.%N)
  "$1" solve -q --jobs "$2" "$input" > /dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

for jobs in ${JOBS:-1 2}; do
  best_new=999 best_base=999
  for _ in $(seq "$rounds"); do
    t=$(seconds "$new" "$jobs"); best_new=$(echo "if ($t < $best_new) $t else $best_new" | bc)
    if [ -n "$baseline" ]; then
      t=$(seconds "$baseline" "$jobs"); best_base=$(echo "if ($t < $best_base) $t else $best_base" | bc)
    fi
  done
  printf 'jobs %s: %.2f s (%.0f puzzles/s)' "$jobs" "$best_new" "$(echo "1000000 / $best_new" | bc -l)"
  if [ -n "$baseline" ]; then
    printf '; baseline %.2f s; ratio %.3f' "$best_base" "$(echo "$best_new / $best_base" | bc -l)"
  fi
  echo
done
