#!/usr/bin/env bash
# Starts eight `dcqcn sweep ... --out OUT --force` at once, TRIALS times (issue 28, item 1), and
# checks each time that every process either finished or stopped with the "another dcqcn
# process" error, and that OUT is one whole sweep with nothing left beside it.
# Usage: tests/output/concurrent_sweeps_test.sh [TRIALS] [DCQCN] (defaults: 50, build/dcqcn).
# CI runs 20 trials; before the fix about one trial in three went wrong.
set -euo pipefail
trials=${1:-50}
dcqcn=$(realpath "${2:-build/dcqcn}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/s.toml" <<'TOML'
[topology]
type = "star"
hosts = 5
[workload]
type = "incast"
senders = 2
size = "20KB"
TOML
bad=0
for ((t = 1; t <= trials; t++)); do
  pids=()
  for p in 0 1 2 3 4 5 6 7; do
    "$dcqcn" sweep "$work/s.toml" --quiet --vary workload.senders=1,2,3 --out "$work/ry" \
      --force >"$work/log.$p" 2>&1 &
    pids+=($!)
  done
  finished=0
  for p in 0 1 2 3 4 5 6 7; do
    if wait "${pids[$p]}"; then
      finished=$((finished + 1))
    elif ! grep -q "another dcqcn process" "$work/log.$p"; then
      echo "trial $t: process $p failed otherwise:"; cat "$work/log.$p"; bad=$((bad + 1))
    fi
  done
  for r in 000 001 002; do
    [[ -f $work/ry/runs/$r/summary.json ]] || { echo "trial $t: runs/$r missing"; bad=$((bad + 1)); }
  done
  [[ -f $work/ry/sweep.csv && -f $work/ry/sweep.json ]] ||
    { echo "trial $t: sweep.csv or sweep.json missing"; bad=$((bad + 1)); }
  left=$(cd "$work" && ls -A | grep -vxE 's.toml|ry|log\.[0-7]' || true)
  [[ -z $left ]] || { echo "trial $t: left beside the folder: $left"; bad=$((bad + 1)); }
  [[ $finished -ge 1 ]] || { echo "trial $t: no process finished"; bad=$((bad + 1)); }
done
echo "$trials trials of 8 concurrent sweeps: $bad problems"
[[ $bad -eq 0 ]]
