#!/usr/bin/env bash
# Issue 46's packet-level scale figure: the 1 GB hierarchical AllReduce of
# bench/allreduce_512gpu.toml packet by packet on GPUS GPUs (servers of 8; switch.buffer 64MB,
# which the spines' headroom needs from 256 leaves on) over THREADS threads, one run: wall time,
# peak RSS, flows, packet hops, events and the AllReduce's time against its ideal, as a Markdown
# row. 4,096 GPUs on 2 threads takes about 16 minutes and 1 GB here.
#   bench/packet_scale.sh [GPUS] [THREADS] [path/to/dcqcn]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
gpus=${1:-4096}
threads=${2:-2}
bin=${3:-$here/build/dcqcn}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/time -f "%e %M" -o "$work/time" "$bin" run "$here/bench/allreduce_512gpu.toml" \
  --set topology.servers=$((gpus / 8)) --set switch.buffer=64MB --threads "$threads" --quiet \
  --out "$work/out" >"$work/log" 2>&1
/usr/bin/python3 - "$work" "$gpus" "$threads" <<'PY'
import json, os, sys
work, gpus, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
wall, kb = open(os.path.join(work, "time")).read().split()[-2:]
s = json.load(open(os.path.join(work, "out", "summary.json")))
c = s["collectives"][0]
print("| GPUs | threads | flows | packet hops | events | wall | peak RSS | hops/s | AllReduce | ideal |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
print(f"| {gpus:,} | {threads} | {s['flows_total']:,} | {s['packet_hops'] / 1e9:.2f} G | "
      f"{s['events'] / 1e9:.2f} G | {float(wall):.0f} s | {int(kb) / 1024:.0f} MB | "
      f"{s['packet_hops'] / float(wall) / 1e6:.2f} M | {c['iterations'][0]['time_ns'] / 1e6:.3f} ms | "
      f"{c['ideal_time_ns'] / 1e6:.3f} ms |")
PY
