#!/usr/bin/env bash
# Issue 46's flow-level scale figure (benchmarks print figures; they assert nothing): the 1 GB
# hierarchical AllReduce of bench/allreduce_512gpu.toml at flow level (model = "flow") on GPUS
# GPUs (servers of 8, 32 per leaf; SPINES spines, default the file's 16; the issue's 16,384-GPU
# fabric has 64; switch.buffer 64MB, which the spines' headroom needs from 256 leaves on and the
# flow level does not otherwise read) on one core, one run: wall time, peak RSS, flows, the
# shares computed and the AllReduce's time against its ideal, as a Markdown row. 8,192 GPUs take
# about 2-4 minutes and 3.2 GB here; 16,384 GPUs about 11 minutes and 12 GB.
#   bench/flow_scale.sh [GPUS] [SPINES] [path/to/dcqcn]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
gpus=${1:-8192}
spines=${2:-16}
bin=${3:-$here/build/dcqcn}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/time -f "%e %M" -o "$work/time" "$bin" run "$here/bench/allreduce_512gpu.toml" \
  --set model=flow --set topology.servers=$((gpus / 8)) --set topology.spines="$spines" \
  --set switch.buffer=64MB --threads 1 --quiet --out "$work/out" >"$work/log" 2>&1 ||
  { cat "$work/log" >&2; exit 1; }
/usr/bin/python3 - "$work" "$gpus" "$spines" <<'PY'
import json, os, sys
work, gpus, spines = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
wall, kb = open(os.path.join(work, "time")).read().split()[-2:]
s = json.load(open(os.path.join(work, "out", "summary.json")))
it = s["collectives"][0]["iterations"][0]
print("| GPUs | spines | flows | wall | peak RSS | bytes a flow | shares computed / streams in them | AllReduce | slowdown |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
print(f"| {gpus:,} | {spines} | {s['flows_total']:,} | {float(wall):.0f} s | {int(kb) / 1024:.0f} MB | "
      f"{int(kb) * 1024 / s['flows_total']:.0f} | "
      f"{s['model']['reshares']:,} / {s['model']['streams_reshared'] / 1e6:.1f} M | "
      f"{it['time_ns'] / 1e6:.3f} ms | {it['slowdown']:.3f} |")
PY
