#!/usr/bin/env bash
# The ratios to tdoku over several processes, not one.
#
# Usage: benches/peers/ratios.sh [--processes N] [DATASET...]
#
# The 9x9 engine's speed on the hard sets depends on where the process's
# stack and heap lie, which address space randomization draws anew for each
# process: one run of the harness can put a set at 1.04 of tdoku and the
# next at 1.25 (docs/performance.md, "The same binary, fast or slow by
# where the process's stack lies"). This runs the harness's count to 2
# (`--rounds 3 --permute 1`) in N processes (default 7) and prints, for
# each set, the lowest, median and highest ratio of lazydoku's time to
# tdoku's. Needs tdoku's sources (TDOKU_SRC, see build.rs).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
processes=7
if [[ "${1:-}" == --processes ]]; then processes="$2"; shift 2; fi
(( processes > 0 )) || { echo "$0: --processes needs a count above 0" >&2; exit 2; }
sets=("$@")
if (( ${#sets[@]} == 0 )); then
  sets=(puzzles2_17_clue puzzles3_magictour_top1465 puzzles5_forum_hardest_1905_11+
        puzzles6_forum_hardest_1106 puzzles7_serg_benchmark norvig_top95.txt)
fi
cargo build --quiet --release --manifest-path "$here/Cargo.toml"
peers="$here/target/release/lazydoku-peers"
rows="$(mktemp)"
trap 'rm -f "$rows" "$rows.run"' EXIT
for _ in $(seq "$processes"); do
  "$peers" --rounds 3 --permute 1 "${sets[@]}" > "$rows.run"
  # With tdoku the header ends in "tdoku guesses"; without it there is no
  # ratio to take.
  grep -q 'tdoku guesses' "$rows.run" || { cat "$rows.run" >&2; echo "$0: the harness ran without tdoku" >&2; exit 1; }
  # A set's row: name, puzzles, then eight figures, tdoku's ratio the ninth
  # field after the name.
  awk 'NF == 11 && $2 ~ /^[0-9]+$/ { print $1, $10 }' "$rows.run" >> "$rows"
done
# The ratios depend on the processor (tdoku's vector code gains far more
# on some than this engine does: docs/performance.md), so say which. A
# virtual machine's model name can be as bare as "AMD EPYC", which the
# family and model numbers tell apart (family 23 is Zen 1 and 2, 25 Zen 3
# and 4, 26 Zen 5).
if [[ -r /proc/cpuinfo ]]; then
  field() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -1; }
  echo "processor: $(field 'model name') (family $(field 'cpu family'), model $(field model)), $(nproc) cores"
fi
printf '%-34s %9s %7s %7s %7s\n' dataset processes lowest median highest
for set in "${sets[@]}"; do
  awk -v set="$set" '$1 == set { print $2 }' "$rows" | sort -g | awk -v set="$set" '
    { r[NR] = $1 }
    END {
      if (NR == 0) { printf "%-34s no rows\n", set; exit }
      median = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
      printf "%-34s %9d %7.2f %7.2f %7.2f\n", set, NR, r[1], median, r[NR]
    }'
done
