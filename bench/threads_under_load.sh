#!/usr/bin/env bash
# A run split over threads while other work shares the cores (docs/parallel.md, "Under load"):
# wall time of --threads 1 and --threads 2 on a k = 6 fat tree under WebSearch traffic, on idle
# cores and with one and two busy loops beside it (as a test suite or another run would be),
# alternating, REPS times each; prints a Markdown row per load with the medians and their ratio.
# With a second binary, its --threads 2 too (an earlier build, side by side).
#   bench/threads_under_load.sh DCQCN_BINARY [REPS] [OLD_BINARY]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "$1")
reps=${2:-5}
old=${3:+$(realpath "$3")}
work=$(mktemp -d)
hogs=()
cleanup() {
  for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

source "$here/bench/timing.sh"

case_args=("$here/bench/fat_tree_websearch.toml" --set topology.k=6 --set workload.window=5ms
  --out "$work/out" --quiet --force)
echo "| other work | 1 thread (s) | 2 threads (s) | ratio |${old:+ 2 threads, earlier build (s) | ratio |}"
echo "|---|---|---|---|${old:+---|---|}"
for load in 0 1 2; do
  for ((h = ${#hogs[@]}; h < load; h++)); do
    (while :; do :; done) &
    hogs+=($!)
  done
  one=() two=() earlier=()
  for ((i = 0; i < reps; i++)); do
    one+=("$(wall "$bin" run "${case_args[@]}" --threads 1)")
    two+=("$(wall "$bin" run "${case_args[@]}" --threads 2)")
    [[ -n $old ]] && earlier+=("$(wall "$old" run "${case_args[@]}" --threads 2)")
  done
  m1=$(printf '%s\n' "${one[@]}" | median)
  m2=$(printf '%s\n' "${two[@]}" | median)
  row=$(printf '| %d busy loop(s) | %.2f | %.2f | %.2f |' "$load" "$m1" "$m2" "$(echo "$m2 / $m1" | bc -l)")
  if [[ -n $old ]]; then
    mo=$(printf '%s\n' "${earlier[@]}" | median)
    row+=$(printf ' %.2f | %.2f |' "$mo" "$(echo "$mo / $m1" | bc -l)")
  fi
  echo "$row"
done
