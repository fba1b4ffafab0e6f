#!/usr/bin/env bash
# Issue 44's speed figure (benchmarks print figures; they assert nothing): one iteration of the
# 128-GPU training job of bench/job_128gpu.toml, and beside it, on the same fabric, a
# hierarchical AllReduce of 2 GB over the same 128 GPUs (the collectives' rate today), and the
# job's own traffic between servers replayed as plain [[flow]]s at the starts the job gave them
# (from its first run's flows.csv; NVLink transfers, dependencies and compute left out): what
# the job's machinery costs against what its traffic does. Wall time, peak RSS, events and
# packet hops per second of each, N runs each alternating, medians.
#   bench/job_scale.sh [RUNS] [path/to/dcqcn]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-1}
bin=${2:-$here/build/dcqcn}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
job=("$here/bench/job_128gpu.toml")
# The same scenario without the job, with a collective instead (its [[job]] dropped by --set is
# not possible: a copy without it).
sed '/^\[\[job/,$d' "$here/bench/job_128gpu.toml" >"$work/collective.toml"
cat >>"$work/collective.toml" <<'TOML'
[[collective]]
op = "allreduce"
algorithm = "hierarchical"
size = "2GB"
TOML
# The job's flows between servers (hosts server * gpus_per_server + gpu), as [[flow]] tables.
replay() {
  /usr/bin/python3 - "$here/bench/job_128gpu.toml" "$work/job.1/flows.csv" "$work/replay.toml" <<'PY'
import csv, sys, tomllib
scenario, flows, out = sys.argv[1:]
text = open(scenario).read()
per_server = tomllib.loads(text)["topology"]["gpus_per_server"]
lines = [text[: text.index("[[job")]]
for r in csv.DictReader(open(flows)):
    src, dst = int(r["src"]), int(r["dst"])
    if src // per_server != dst // per_server:
        lines.append(f'[[flow]]\nsrc = {src}\ndst = {dst}\nsize = "{r["size_bytes"]}B"\n'
                     f'start = "{r["start_ns"]}ns"\n')
open(out, "w").write("\n".join(lines))
PY
}
for ((r = 1; r <= runs; r++)); do
  for c in job collective replay; do
    scenario=${job[0]}
    [[ $c == collective ]] && scenario=$work/collective.toml
    [[ $c == replay && ! -f $work/replay.toml ]] && replay
    [[ $c == replay ]] && scenario=$work/replay.toml
    /usr/bin/time -f "%e %M" -o "$work/$c.$r.time" "$bin" run "$scenario" --threads 1 --quiet \
      --out "$work/$c.$r" >/dev/null 2>&1
  done
done
/usr/bin/python3 - "$work" "$runs" <<'PY'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
for c in ("job", "collective", "replay"):
    wall, rss, eps, hps = [], [], [], []
    for r in range(1, runs + 1):
        w, kb = open(f"{work}/{c}.{r}.time").read().split()[-2:]
        s = json.load(open(f"{work}/{c}.{r}/summary.json"))
        wall.append(float(w)); rss.append(int(kb) / 1024)
        eps.append(s["events"] / float(w)); hps.append(s["packet_hops"] / float(w))
        sim = s["sim_time_ns"] / 1e6
    print(f"{c}: median wall {statistics.median(wall):.1f} s, peak RSS {max(rss):.0f} MB, "
          f"{s['events'] / 1e6:.1f} M events, {s['packet_hops'] / 1e6:.1f} M packet hops, "
          f"{statistics.median(eps) / 1e6:.2f} M events/s, {statistics.median(hps) / 1e6:.2f} M "
          f"hops/s, {sim:.2f} ms simulated")
PY
