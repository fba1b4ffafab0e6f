#!/usr/bin/env bash
# Issue 46's training-iteration figure (benchmarks print figures; they assert nothing): one
# iteration of bench/job_128gpu.toml's GPT-style 13B job (TP 8, 4 pipeline stages, 8
# micro-batches, data parallel the rest) at flow level (model = "flow") on each of GPUS GPUs
# (servers of 8, 32 per leaf, 16 spines, switch.buffer 64MB as bench/flow_scale.sh), one run
# each on one core: transfers, wall time, peak RSS and the iteration's time, as Markdown rows.
# 2,048 GPUs take about a minute and 2 GB here.
#   bench/job_flow_scale.sh [GPUS...] (default 512 1024 2048)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${DCQCN:-$here/build/dcqcn}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(512 1024 2048)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| GPUs | data parallel | transfers | wall | peak RSS | bytes a transfer | us a transfer | iteration |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for gpus in "${sizes[@]}"; do
  /usr/bin/time -f "%e %M" -o "$work/time" "$bin" run "$here/bench/job_128gpu.toml" \
    --set model=flow --set topology.servers=$((gpus / 8)) --set topology.servers_per_leaf=32 \
    --set topology.spines=16 --set switch.buffer=64MB --threads 1 --quiet --out "$work/out" \
    >"$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
  /usr/bin/python3 - "$work" "$gpus" <<'PY'
import json, os, sys
work, gpus = sys.argv[1], int(sys.argv[2])
wall, kb = open(os.path.join(work, "time")).read().split()[-2:]
s = json.load(open(os.path.join(work, "out", "summary.json")))
j = s["jobs"][0]
n = s["flows_total"]
print(f"| {gpus:,} | {j['dp']} | {n:,} | {float(wall):.1f} s | {int(kb) / 1024:.0f} MB | "
      f"{int(kb) * 1024 / n:.0f} | {float(wall) / n * 1e6:.1f} | "
      f"{j['mean_iteration_time_ns'] / 1e6:.3f} ms |")
PY
  rm -rf "$work/out"
done
