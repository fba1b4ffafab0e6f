#!/usr/bin/env bash
# The speed benchmark of issue 6: the HPCC ns-3 fat-tree WebSearch case (320 hosts, 3207 flows,
# 5.74 GB) run by `dcqcn ns3`, N times on one core; prints every run and the median wall time,
# the largest peak RSS, events/s and packet-hops/s. With --small, only flows arriving in the
# first 0.5 ms (365 flows), for quick checks. Benchmarks print figures; they assert nothing.
#   bench/reference.sh [--small] [runs] [path/to/dcqcn]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
small=0
if [[ ${1:-} == --small ]]; then small=1; shift; fi
runs=${1:-3}
bin=${2:-$here/build/dcqcn}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/bench/hpcc_case.sh"
prepare_hpcc_case "$work" "$small"
cd "$work"
walls=()
for ((i = 1; i <= runs; i++)); do
  out=$(taskset -c "${DCQCN_BENCH_CORE:-1}" /usr/bin/time -f "%e %M" "$bin" hpcc "$config" --out "$work/out" 2>&1 >/dev/null |
        tail -1)
  read -r wall rss <<<"$out"
  walls+=("$wall")
  read -r events hops < <(/usr/bin/python3 -c "import json; j=json.load(open('$work/out/summary.json')); print(j['events'], j['packet_hops'])")
  echo "run $i: ${wall} s wall, peak RSS $((rss / 1024)) MB, $events events, $hops packet hops"
done
median=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
/usr/bin/python3 -c "
m=$median; e=$events; h=$hops
print(f'median {m:.2f} s over $runs runs: {e/m/1e6:.2f} M events/s, {h/m/1e6:.2f} M packet-hops/s')"
