#!/usr/bin/env bash
# Issue 14's large-scale figures, one run each (benchmarks print figures; they assert nothing):
#  - a k = 64 fat tree (65,536 hosts) built with its routes (`dcqcn check`), then run with
#    WebSearch at 30% load for a 20 us arrival window (bench/fat_tree_websearch.toml);
#  - peak RSS against the number of flows, from runs of one-packet flows (bench/many_flows.toml)
#    with ever longer arrival windows (the last about ten million flows), the memory each
#    further flow costs and the most flows in flight.
# --update-docs writes both tables into docs/performance.md.
#   bench/large_runs.sh [--update-docs] [path/to/dcqcn]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
update=0
if [[ ${1:-} == --update-docs ]]; then update=1; shift; fi
bin=${1:-$here/build/dcqcn}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

measure() {  # measure NAME COMMAND...: wall seconds and peak RSS (KB) into $work/NAME.time
  local name=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/$name.time" "$@" >"$work/$name.log" 2>&1
}
echo "k = 64: building" >&2
measure k64_build "$bin" check "$here/bench/fat_tree_websearch.toml" --set topology.k=64 \
  --set workload.window=1us
echo "k = 64: running a 20 us arrival window" >&2
measure k64_run "$bin" run "$here/bench/fat_tree_websearch.toml" --set topology.k=64 \
  --set workload.window=20us --quiet --out "$work/k64"
windows=(1ms 4ms 16ms 64ms 167ms)
for w in "${windows[@]}"; do
  echo "many flows: $w arrival window" >&2
  measure "many_$w" "$bin" run "$here/bench/many_flows.toml" --set "workload.window=$w" \
    --quiet --out "$work/many_$w"
done

/usr/bin/python3 - "$work" "$update" "$here" "${windows[@]}" <<'PY'
import json, os, sys
work, update, here, windows = sys.argv[1], sys.argv[2] == "1", sys.argv[3], sys.argv[4:]
sys.path.insert(0, os.path.join(here, "python"))
from doc_tables import replace_block

def timed(name):
    wall, kb = open(os.path.join(work, name + ".time")).read().split()[-2:]
    return float(wall), int(kb) / 1024

build_wall, build_mb = timed("k64_build")
run_wall, run_mb = timed("k64_run")
s = json.load(open(os.path.join(work, "k64", "summary.json")))
k64 = ("| step | flows | packet hops | wall | peak RSS | packet hops/s |\n|---|---|---|---|---|---|\n"
       f"| build with routes (`dcqcn check`) | - | - | {build_wall:.1f} s | {build_mb:.0f} MB | - |\n"
       f"| run, 20 us of arrivals | {s['flows_finished']:,} of {s['flows_total']:,} | "
       f"{s['packet_hops'] / 1e6:.1f} M | {run_wall:.1f} s | {run_mb:.0f} MB | "
       f"{s['packet_hops_per_s'] / 1e6:.2f} M |\n")
rows, points = [], []
for w in windows:
    wall, mb = timed("many_" + w)
    summary = json.load(open(os.path.join(work, "many_" + w, "summary.json")))
    flows, in_flight = summary["flows_total"], summary["flows_in_flight_max"]
    points.append((flows, mb))
    per_flow = ""
    if len(points) > 1:
        (f0, m0), (f1, m1) = points[-2], points[-1]
        per_flow = f"{(m1 - m0) * 1024 * 1024 / (f1 - f0):.0f} B"
    rows.append(f"| {w} | {flows:,} | {in_flight:,} | {wall:.1f} s | {mb:.0f} MB | {per_flow} |\n")
many = ("| arrival window | flows | most in flight | wall | peak RSS | RSS per further flow |\n"
        "|---|---|---|---|---|---|\n" + "".join(rows))
print(k64)
print(many)
if update:
    doc = os.path.join(here, "docs", "performance.md")
    replace_block(doc, "k64", k64)
    replace_block(doc, "many-flows", many)
    print(f"updated {doc}")
PY
