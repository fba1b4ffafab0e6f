#!/usr/bin/env bash
# The tuner's speed (docs/tune.md): 50 trials x 2 seeds of bench/tune_leaf_spine.toml (64 hosts,
# 1 ms of WebSearch at 30%), five ECN and DCQCN parameters, --jobs 2. Prints the wall time and
# the trials per minute; every trial is two ordinary runs, plus 2 x 5 held-out runs at the end.
# Usage: bench/tune_speed.sh [DCQCN_BINARY] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/dcqcn}
jobs=${2:-2}
out=$(mktemp -d)/tune
trap 'rm -rf "$(dirname "$out")"' EXIT
start=$(date +%s.%N)
"$bin" tune bench/tune_leaf_spine.toml --quiet --out "$out" --trials 50 --seeds 2 --jobs "$jobs" \
  --param switch.ecn.kmin=10KB:1MB:log --param switch.ecn.kmax=100KB:4MB:log \
  --param switch.ecn.pmax=0.01:1:log --param cc.rai=5Mbps:100Mbps:log \
  --param cc.timer=10us:300us:log \
  --minimize 'by_tag.background.fct_slowdown_by_size.<10KB.p99'
wall=$(echo "$(date +%s.%N) - $start" | bc)
runs=$(($(wc -l <"$out/trials.csv") - 1))
printf 'tune_speed: 50 trials (%d runs) + 10 held-out runs, --jobs %s: %.1f s, %.1f trials/min\n' \
  "$runs" "$jobs" "$wall" "$(echo "50 * 60 / $wall" | bc -l)"
