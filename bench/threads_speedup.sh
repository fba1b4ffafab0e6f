#!/usr/bin/env bash
# The speed-up table of docs/parallel.md: wall time of one and two threads on the same case, and of
# two MPI ranks of one thread each (`mpirun -np 2`), alternating, REPS times each; prints a
# Markdown row per case with the medians and their ratios to one thread.
# Cases: HPCC ns-3's fat-tree benchmark (`dcqcn ns3`, whole), the k = 34 fat tree under
# WebSearch at 30% (100 us of arrivals, run to the last finish), and that fabric's first 200 us.
#   bench/threads_speedup.sh DCQCN_BINARY [REPS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "$1")
reps=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/bench/hpcc_case.sh"
mkdir -p "$work/hpcc"
prepare_hpcc_case "$work/hpcc" 0

source "$here/bench/timing.sh"

row() {  # row NAME EVENTS-NOTE COMMAND... (run with --threads N appended)
  local name=$1 note=$2 one=() two=() ranks=() i
  shift 2
  for ((i = 0; i < reps; i++)); do
    one+=("$(wall "$@" --threads 1)")
    two+=("$(wall "$@" --threads 2)")
    ranks+=("$(wall mpirun --oversubscribe -np 2 "$@" --threads 1)")
  done
  local m1 m2 mr
  m1=$(printf '%s\n' "${one[@]}" | median)
  m2=$(printf '%s\n' "${two[@]}" | median)
  mr=$(printf '%s\n' "${ranks[@]}" | median)
  printf '| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n' "$name" "$note" "$m1" "$m2" \
    "$(echo "$m2 / $m1" | bc -l)" "$mr" "$(echo "$mr / $m1" | bc -l)"
}

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "| case | events | 1 thread (s) | 2 threads (s) | ratio | 2 ranks (s) | ratio |"
echo "|---|---|---|---|---|---|---|"
(cd "$work/hpcc" && row "HPCC ns-3 fat tree (320 hosts), whole case" "84.1 M" \
  "$bin" hpcc "$config" --out "$work/h" --quiet --force)
ws=("$here/bench/fat_tree_websearch.toml" --set topology.k=34)
row "k = 34 fat tree (9,826 hosts), 100 us of arrivals, to the last finish" "45.4 M" \
  "$bin" run "${ws[@]}" --set workload.window=100us --out "$work/k" --quiet --force
row "k = 34 fat tree, the first 200 us (arrivals throughout)" "20.5 M" \
  "$bin" run "${ws[@]}" --set duration=200us --set workload.window=200us --out "$work/m" --quiet --force
