#!/usr/bin/env bash
# Issue 29's scale figures, one run each (benchmarks print figures; they assert nothing): the
# 512-GPU hierarchical AllReduce of 1 GB (bench/allreduce_512gpu.toml) with an ACK per packet
# (our default) and per 16 packets; wall time, peak RSS, flows, packet hops and the iteration's
# time against its ideal. --update-docs writes the table into docs/performance.md.
#   bench/collective_scale.sh [--update-docs] [path/to/dcqcn]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
update=0
if [[ ${1:-} == --update-docs ]]; then update=1; shift; fi
bin=${1:-$here/build/dcqcn}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for ack in 1 16; do
  echo "512 GPUs, an ACK per $ack packets" >&2
  /usr/bin/time -f "%e %M" -o "$work/ack$ack.time" "$bin" run "$here/bench/allreduce_512gpu.toml" \
    --set host.ack_interval=$ack --threads 1 --quiet --out "$work/ack$ack" >"$work/ack$ack.log" 2>&1
done

/usr/bin/python3 - "$work" "$update" "$here" <<'PY'
import json, os, sys
work, update, here = sys.argv[1], sys.argv[2] == "1", sys.argv[3]
sys.path.insert(0, os.path.join(here, "python"))
from doc_tables import replace_block

rows = []
for ack in (1, 16):
    wall, kb = open(os.path.join(work, f"ack{ack}.time")).read().split()[-2:]
    s = json.load(open(os.path.join(work, f"ack{ack}", "summary.json")))
    c = s["collectives"][0]
    it = c["iterations"][0]
    rows.append(f"| {ack} | {s['flows_total']:,} | {s['packet_hops'] / 1e6:.0f} M | "
                f"{float(wall):.1f} s | {int(kb) / 1024:.0f} MB | {it['time_ns'] / 1e6:.2f} ms | "
                f"{c['ideal_time_ns'] / 1e6:.2f} ms | {it['busbw_gbps']:.0f} Gb/s |\n")
table = ("| ACK per packets | flows | packet hops | wall | peak RSS | AllReduce time | ideal | "
         "busbw |\n|---|---|---|---|---|---|---|---|\n" + "".join(rows))
print(table)
if update:
    doc = os.path.join(here, "docs", "performance.md")
    replace_block(doc, "collectives-512", table)
    print(f"updated {doc}")
PY
