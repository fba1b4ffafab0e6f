#!/usr/bin/env bash
# Runs examples/compare/fat_tree_websearch.toml with the five congestion-control settings of the
# HPCC paper's comparison, each as HPCC ns-3's run.py sets it up, then draws their FCT slowdown
# p50/p95/p99 per flow size on one axis (python/compare_report.py):
#   dcqcn   DCQCN, profile hpcc (the file as it is)
#   hpcc    HPCC, with the BDP window scaled by the rate (HAS_WIN 1, VAR_WIN 1)
#   timely  TIMELY (no window)
#   dctcp   DCTCP, ECN as a step at 30 KB per 10 Gb/s (Kmin = Kmax, Pmax 1) and the window
#   none    PFC alone
#
#   examples/compare/run.sh [OUT_DIR] [--update-docs] [--set KEY=VALUE]...
# OUT_DIR defaults to results/compare. Uses $DCQCN or build/dcqcn; prints each run's wall time
# and the table of percentiles; --update-docs puts the table into docs/compare.md and the figure
# into docs/figures/compare_fct_slowdown_by_size.png.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=results/compare
update=0
extra=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --update-docs) update=1 ;;
    --set) extra+=("$1" "$2"); shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) out=$1 ;;
  esac
  shift
done
dcqcn=${DCQCN:-$root/build/dcqcn}
scenario=$here/fat_tree_websearch.toml
window=(--set host.window=true --set host.window_scales_with_rate=true)
declare -A sets=(
  [dcqcn]=""
  [hpcc]="--set cc.algorithm=hpcc ${window[*]}"
  [timely]="--set cc.algorithm=timely"
  [dctcp]="--set cc.algorithm=dctcp ${window[*]} --set switch.ecn.kmin=300KB --set switch.ecn.kmax=300KB --set switch.ecn.pmax=1 --set switch.ecn.by_rate=[{rate=\"400Gbps\",kmin=\"1200KB\",kmax=\"1200KB\",pmax=1.0}]"
  [none]="--set cc.algorithm=none"
)
runs=()
for name in dcqcn ns3 timely dctcp none; do
  start=$(date +%s.%N)
  # shellcheck disable=SC2086  # the sets are words on purpose
  "$dcqcn" run "$scenario" --quiet --force --out "$out/$name" ${sets[$name]} "${extra[@]}"
  echo "$name: $(/usr/bin/python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')") s wall"
  runs+=("$out/$name")
done
args=("$out" "${runs[@]}")
((update)) && args+=(--update "$root/docs/compare.md")
/usr/bin/python3 "$root/python/compare_report.py" "${args[@]}"
if ((update)); then
  cp "$out/fct_slowdown_by_size.png" "$root/docs/figures/compare_fct_slowdown_by_size.png"
fi
