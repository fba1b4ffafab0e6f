#!/usr/bin/env bash
# The packet-vs-fluid check of docs/fluid.md ("Fluid model against the packet simulator"): for
# N = 2, 10, 64 long flows into one 40 Gb/s port, at control-loop delays of 4 us and 85 us, with
# each RED curve (5 KB / 200 KB / 1% and 5 KB / 2000 KB / 10%), runs
#   (a) `dcqcn fluid --flows N --delay TAU --packet 1066B` (100 ms; statistics over the last 50 ms)
#   (b) the packet simulator on examples/paper/stability.toml (a star incast of 1 GB flows) with
#       1 us links (loop delay 4 x 1 us + serialization = 4.48 us) or 21.25 us links (85.48 us),
#       150 ms with statistics after a 50 ms warm-up, seeds 1 and 2 (`dcqcn sweep --vary seed=1,2`)
# one job at a time, then writes the comparison table (python/fluid_vs_packet.py) to
# OUT_DIR/table.md and prints it.
#
#   scripts/fluid-vs-packet.sh [OUT_DIR] [--update-docs] [--no-run]
#
#   OUT_DIR        where the results go (default results/fluid-vs-packet); one folder per case,
#                  n<N>-<tau>-<kmax>/{fluid,packet}
#   --update-docs  also replace the <!-- table:fluid-vs-packet --> block of docs/fluid.md
#   --no-run       reuse the runs already in OUT_DIR (only the table)
#
# Uses $DCQCN or build/dcqcn, and /usr/bin/python3 (or $DCQCN_PYTHON) with pandas. About 15 s on
# the 2-core development machine.
set -euo pipefail
fail() { echo "fluid-vs-packet: $1" >&2; exit "${2:-1}"; }
caller=$(pwd)
cd "$(dirname "$0")/.."
root=$(pwd)

out=
update=0
run=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --update-docs) update=1 ;;
    --no-run) run=0 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) fail "unknown option $1 (see --help)" 2 ;;
    *) [[ -z $out ]] || fail "only one OUT_DIR" 2; out=$1 ;;
  esac
  shift
done
absolute() { [[ $1 == /* ]] && echo "$1" || echo "$caller/$1"; }
if [[ -n $out ]]; then out=$(absolute "$out"); else out=$root/results/fluid-vs-packet; fi
if [[ -n ${DCQCN:-} ]]; then dcqcn=$(absolute "$DCQCN"); else dcqcn=$root/build/dcqcn; fi
python=${DCQCN_PYTHON:-/usr/bin/python3}
[[ -x $dcqcn ]] || fail "no dcqcn binary at $dcqcn (build it, or set DCQCN)"
"$python" -c 'import pandas' 2>/dev/null || fail "$python cannot import pandas (run scripts/setup.sh)"

scenario=$root/examples/paper/stability.toml
flows=(2 10 64)
# tau* for the fluid model and the link delay that gives it in the packet simulator's star
# (data: sender -> switch -> receiver, CNP back: four link delays, plus 0.48 us of serialization).
taus=(4us 85us)
declare -A link_delay=([4us]=1us [85us]=21.25us)
# RED curves: Kmax and Pmax (Kmin is 5 KB in both).
curves=("200KB 0.01" "2000KB 0.1")
fluid_duration=100ms
packet_duration=150ms
packet_warmup=50ms
seeds=1,2

start=$(date +%s.%N)
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
mkdir -p "$out"

if [[ $run == 1 ]]; then
  for curve in "${curves[@]}"; do
    read -r kmax pmax <<<"$curve"
    for tau in "${taus[@]}"; do
      for n in "${flows[@]}"; do
        case_dir=$out/n$n-$tau-$kmax
        mkdir -p "$case_dir"
        ecn=(--set "switch.ecn.kmin=5KB" --set "switch.ecn.kmax=$kmax" --set "switch.ecn.pmax=$pmax")
        t0=$(date +%s.%N)
        "$dcqcn" fluid --flows "$n" --delay "$tau" --packet 1066B --duration "$fluid_duration" \
          "${ecn[@]}" --out "$case_dir/fluid" --quiet --force >"$case_dir/fluid.log" 2>&1 ||
          fail "fluid run failed, see $case_dir/fluid.log"
        "$dcqcn" sweep "$scenario" --vary "seed=$seeds" --set "workload.senders=$n" \
          --set "topology.link_delay=${link_delay[$tau]}" "${ecn[@]}" \
          --set "duration=$packet_duration" --set "output.warmup=$packet_warmup" \
          --set 'output.timeseries=[]' --jobs 1 --out "$case_dir/packet" --force \
          >"$case_dir/packet.log" 2>&1 || fail "packet runs failed, see $case_dir/packet.log"
        echo "n=$n tau=$tau kmax=$kmax pmax=$pmax: $(elapsed "$t0") s"
      done
    done
  done
fi

update_args=()
[[ $update == 1 ]] && update_args=(--update-docs "$root/docs/fluid.md")
PYTHONDONTWRITEBYTECODE=1 "$python" "$root/python/fluid_vs_packet.py" "$out" \
  --out "$out/table.md" "${update_args[@]}"
echo "fluid-vs-packet: table in $out/table.md; $(elapsed "$start") s in all"
