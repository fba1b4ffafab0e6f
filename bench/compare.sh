#!/usr/bin/env bash
# Two builds side by side on the same input, the only speed comparison that means something on a
# shared machine: OLD and NEW run alternately (OLD, NEW, OLD, NEW, ...), each pinned to the same
# core, on HPCC ns-3's fat-tree benchmark (bench/reference.sh's case, `dcqcn ns3`); prints every
# run, both medians and their ratio (OLD / NEW: above 1 means NEW is faster), and whether the
# two gave the same FCT file. --small runs the first 0.5 ms of flows only (365 flows). Any other
# scenario: --run SCENARIO.toml [--set KEY=VALUE ...] runs `dcqcn run` instead.
#   bench/compare.sh OLD_BINARY NEW_BINARY [runs] [--small | --run SCENARIO [--set K=V]...]
# The core: DCQCN_BENCH_CORE (default 1).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if (($# < 2)); then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
shift 2
runs=5
if (($# > 0)) && [[ $1 =~ ^[0-9]+$ ]]; then runs=$1; shift; fi
small=0
scenario=()
if (($# > 0)) && [[ $1 == --small ]]; then small=1; shift; fi
if (($# > 0)) && [[ $1 == --run ]]; then scenario=("$(realpath "$2")"); shift 2; scenario+=("$@"); fi
core=${DCQCN_BENCH_CORE:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ((${#scenario[@]} == 0)); then
  source "$here/bench/hpcc_case.sh"
  prepare_hpcc_case "$work" "$small"
fi

one_run() {  # one_run BINARY NAME: prints the wall time; the output folder is $work/NAME
  local bin=$1 name=$2
  rm -rf "${work:?}/$name"
  if ((${#scenario[@]} == 0)); then
    (cd "$work" && taskset -c "$core" /usr/bin/time -f "%e" -o "$work/time" \
      "$bin" hpcc "$config" --out "$work/$name" --quiet >/dev/null 2>&1)
  else
    taskset -c "$core" /usr/bin/time -f "%e" -o "$work/time" \
      "$bin" run "${scenario[@]}" --out "$work/$name" --quiet >/dev/null 2>&1
  fi
  tail -1 "$work/time"
}

old_walls=()
new_walls=()
for ((i = 1; i <= runs; i++)); do
  o=$(one_run "$old" old)
  n=$(one_run "$new" new)
  old_walls+=("$o")
  new_walls+=("$n")
  echo "run $i: old ${o} s, new ${n} s"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
mo=$(median "${old_walls[@]}")
mn=$(median "${new_walls[@]}")
same="different"
if ((${#scenario[@]} == 0)); then
  fct=$(find "$work/old" -name '*fct*' -type f | head -1)
  [[ -n $fct ]] && cmp -s "$fct" "$work/new/$(basename "$fct")" && same="the same"
  what="FCT file"
else
  cmp -s "$work/old/flows.csv" "$work/new/flows.csv" && same="the same"
  what="flows.csv"
fi
/usr/bin/python3 -c "print(f'median old {$mo:.2f} s, new {$mn:.2f} s over $runs runs each, alternating on core $core: ratio old/new {$mo / $mn:.3f}; $what $same')"
