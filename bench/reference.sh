#!/usr/bin/env bash
# The speed benchmark of issue 6: the HPCC ns-3 fat-tree WebSearch case (320 hosts, 3207 flows,
# 5.74 GB) run by `dcqcn hpcc`, N times on one core; prints every run and the median wall time,
# the largest peak RSS, events/s and packet-hops/s. With --small, only flows arriving in the
# first 0.5 ms (365 flows), for quick checks. Benchmarks print figures; they assert nothing.
#   bench/reference.sh [--small] [runs] [path/to/dcqcn]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
small=0
if [[ ${1:-} == --small ]]; then small=1; shift; fi
runs=${1:-3}
bin=${2:-$here/build/dcqcn}
src=${HPCC_FORMAT_DIR:-$here/../shared/hpcc-format}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/." "$work/" && chmod -R u+w "$work"
cd "$work"
config=mix/config_fat_ws30_5ms_dcqcn.txt
if ((small)); then
  /usr/bin/python3 - <<'PY'
lines = open('mix/ws_320_30_5ms.txt').read().split('\n')
flows = [l for l in lines[1:] if l.strip() and float(l.split()[5]) < 2.0005]
open('mix/ws_small.txt', 'w').write('%d\n' % len(flows) + '\n'.join(flows) + '\n')
cfg = open('mix/config_fat_ws30_5ms_dcqcn.txt').read()
open('mix/config_small.txt', 'w').write(cfg.replace('mix/ws_320_30_5ms.txt', 'mix/ws_small.txt'))
PY
  config=mix/config_small.txt
fi
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
