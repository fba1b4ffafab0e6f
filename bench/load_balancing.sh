#!/usr/bin/env bash
# Issue 45's speed figures (benchmarks print figures; they assert nothing): one scenario run under
# each switch.load_balancing mode (NICs that place packets out of order, so that no mode pays for
# go-back-N's resends), pinned to one core; wall time, events/s, packet hops/s and the ratio of
# each mode's hops/s to ECMP's. Per-packet modes stop the flows' route caches, so each hop reads
# its switch's route table. Default: the 512-GPU hierarchical AllReduce of bench/
# allreduce_512gpu.toml (about 2.5 min a run here); any --set narrows it (e.g.
# collective.0.size=128MB).
#   bench/load_balancing.sh [path/to/dcqcn] [SCENARIO.toml] [--set KEY=VALUE]...
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/build/dcqcn}
scenario=${2:-$here/bench/allreduce_512gpu.toml}
shift $(($# > 2 ? 2 : $#))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for mode in ecmp flowlet adaptive spray; do
  taskset -c "${DCQCN_BENCH_CORE:-1}" /usr/bin/time -f "%e" -o "$work/$mode.time" \
    "$bin" run "$scenario" "$@" --set switch.load_balancing=$mode --set host.reorder=placement \
    --threads 1 --out "$work/$mode" --quiet >/dev/null 2>&1
done
/usr/bin/python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
base = None
for mode in ("ecmp", "flowlet", "adaptive", "spray"):
    wall = float(open(os.path.join(work, f"{mode}.time")).read().split()[-1])
    s = json.load(open(os.path.join(work, mode, "summary.json")))
    hops = s["packet_hops"] / wall
    base = base or hops
    print(f"{mode:9s} {wall:7.2f} s  {s['events'] / wall / 1e6:6.2f} M events/s  "
          f"{hops / 1e6:6.2f} M hops/s  ({hops / base:.2f} of ECMP's)")
PY
