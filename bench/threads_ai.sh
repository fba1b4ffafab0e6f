#!/usr/bin/env bash
# AI traffic split over threads (issue 46, item 2), alternating, REPS times each, medians:
#  - the 512-GPU hierarchical AllReduce of 1 GB (bench/allreduce_512gpu.toml), NVLink inside the
#    servers: one thread against two (a server's GPUs and its NVLink crossbar on one thread);
#  - a ring AllReduce over half a leaf-spine's racks (bench/allreduce_half_fabric.toml): one
#    thread, two placed by ports, and two placed by an earlier run's work (--placement-from).
# Prints a Markdown row per case; the 512-GPU case takes about 1.5 minutes a run on one thread.
#   bench/threads_ai.sh DCQCN_BINARY [REPS] [half|gpu512|all]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "$1")
reps=${2:-3}
cases=${3:-all}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/bench/timing.sh"

echo "| case | 1 thread (s) | 2 threads (s) | ratio | 2 threads by work (s) | ratio |"
echo "|---|---|---|---|---|---|"

if [[ $cases == all || $cases == half ]]; then
half="$here/bench/allreduce_half_fabric.toml"
"$bin" run "$half" --threads 2 --quiet --force --out "$work/first" >/dev/null
one=() two=() by_work=()
for ((i = 0; i < reps; i++)); do
  one+=("$(wall "$bin" run "$half" --threads 1 --quiet --force --out "$work/h")")
  two+=("$(wall "$bin" run "$half" --threads 2 --quiet --force --out "$work/h")")
  by_work+=("$(wall "$bin" run "$half" --threads 2 --placement-from "$work/first" --quiet \
    --force --out "$work/h")")
done
m1=$(printf '%s\n' "${one[@]}" | median)
m2=$(printf '%s\n' "${two[@]}" | median)
mw=$(printf '%s\n' "${by_work[@]}" | median)
printf '| ring AllReduce on 8 of 16 racks (128 hosts) | %.2f | %.2f | %.2f | %.2f | %.2f |\n' \
  "$m1" "$m2" "$(echo "$m2 / $m1" | bc -l)" "$mw" "$(echo "$mw / $m1" | bc -l)"
fi
[[ $cases == all || $cases == gpu512 ]] || exit 0

gpu="$here/bench/allreduce_512gpu.toml"
one=() two=()
for ((i = 0; i < reps; i++)); do
  one+=("$(wall "$bin" run "$gpu" --threads 1 --quiet --force --out "$work/g")")
  two+=("$(wall "$bin" run "$gpu" --threads 2 --quiet --force --out "$work/g")")
done
m1=$(printf '%s\n' "${one[@]}" | median)
m2=$(printf '%s\n' "${two[@]}" | median)
printf '| 512-GPU hierarchical AllReduce, 1 GB (NVLink) | %.2f | %.2f | %.2f | | |\n' \
  "$m1" "$m2" "$(echo "$m2 / $m1" | bc -l)"
