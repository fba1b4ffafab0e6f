#!/usr/bin/env bash
# Do two builds give the same results? An engine change that is not a modelling change must leave
# every output byte for byte the same. OLD and NEW run each case below; every output file must be
# identical, and summary.json too once its wall-clock and memory fields are left out. Cases: the
# examples, the paper's scenarios, WebSearch on a k = 4 fat tree under DCQCN, DCTCP, TIMELY, HPCC
# and none, with a slow CNP generator, without PFC (drops and timeouts), with time series, with
# packet captures (at a host and an edge switch, and at core switches), PFC deadlocks, a watchdog
# and a pause storm (examples/pfc), load balancing (adaptive, spraying, flowlets, queue pairs,
# dual-ToR), AI jobs over NVLink, the flow level, and HPCC ns-3's fat-tree benchmark (its first
# 0.5 ms, `dcqcn ns3`).
# Prints one line per case; exits 1 if any differs or fails. NEW_ARGS (environment) are added to
# NEW's runs: `NEW_ARGS="--threads 2" bench/same_results.sh B B` checks a split run against one loop.
# ONLY (environment), a regular expression, runs only the cases whose names match it; SKIP, one
# whose matches are left out. NEW_LAUNCHER (environment) goes before NEW's command:
# `NEW_LAUNCHER="mpirun -np 2" bench/same_results.sh B B` checks a run spread over MPI ranks.
#   bench/same_results.sh OLD_BINARY NEW_BINARY
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if (($# != 2)); then
  sed -n '2,16p' "$0" >&2
  exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
read -r -a new_args <<<"${NEW_ARGS:-}"
read -r -a new_launcher <<<"${NEW_LAUNCHER:-}"

# Fields that measure the machine, not the simulation (and flows_in_flight_max and the nvlink_
# counters, which older builds do not report).
volatile='"wall_time_s"\|"peak_rss_mb"\|events_per_s\|hops_per_s\|flows_in_flight_max\|"nvlink_transfers"\|"nvlink_bytes"'

compare_folders() {  # compare_folders NAME: $work/NAME.old against $work/NAME.new
  local name=$1 f same=1
  while IFS= read -r f; do
    if [[ $f == ./summary.json ]]; then
      diff <(grep -v "$volatile" "$work/$name.old/$f") <(grep -v "$volatile" "$work/$name.new/$f") \
        >/dev/null || { echo "$name: $f differs"; same=0; }
    else
      cmp -s "$work/$name.old/$f" "$work/$name.new/$f" || { echo "$name: $f differs"; same=0; }
    fi
  done < <(cd "$work/$name.old" && find . -type f | sort)
  ((same)) || status=1
  ((same)) && echo "$name: same"
}

case_run() {  # case_run NAME SCENARIO [--set K=V ...]
  local name=$1 b
  shift
  [[ $name =~ ${ONLY:-.} ]] || return 0
  [[ -n ${SKIP:-} && $name =~ $SKIP ]] && return 0
  for b in old new; do
    local bin=$old extra=() launcher=()
    [[ $b == new ]] && bin=$new && extra=("${new_args[@]}") && launcher=("${new_launcher[@]}")
    if ! "${launcher[@]}" "$bin" run "$@" "${extra[@]}" --out "$work/$name.$b" --quiet >/dev/null 2>"$work/$name.$b.err"; then
      echo "$name: $b build failed: $(tail -1 "$work/$name.$b.err")"
      status=1
      return
    fi
  done
  compare_folders "$name"
}

for f in "$here"/examples/*.toml "$here"/examples/paper/*.toml "$here"/examples/pfc/*.toml; do
  case_run "$(basename "$f" .toml)" "$f"
done
# PFC's failure modes: the watchdog breaking the ring's deadlocks and a NIC's pause storm.
wd=(--set switch.pfc.watchdog.detection=200us --set switch.pfc.watchdog.restoration=200us)
case_run ring_watchdog "$here/examples/pfc/ring_deadlock.toml" "${wd[@]}"
case_run storm_watchdog "$here/examples/pfc/pause_storm.toml" "${wd[@]}"
ws=("$here/bench/fat_tree_websearch.toml" --set topology.k=4 --set workload.window=300us)
case_run ws_dcqcn "${ws[@]}"
for a in dctcp timely hpcc; do
  case_run "ws_$a" "${ws[@]}" --set "cc.algorithm=$a" --set cc.profile=hpcc
done
case_run ws_none "${ws[@]}" --set cc.algorithm=none
case_run ws_slow_cnp "${ws[@]}" --set cc.cnp_service_time=4us
case_run ws_lossy "${ws[@]}" --set switch.pfc.enabled=false --set switch.buffer=300KB
case_run ws_timeseries "${ws[@]}" --set 'output.timeseries=["rate","queue","throughput","pfc"]'
# Load balancing (issue 45): per-packet choices at the switches, NICs that take packets out of
# order, several queue pairs per connection and dual-ToR hosts.
case_run ws_adaptive "${ws[@]}" --set switch.load_balancing=adaptive --set host.reorder=selective
case_run ws_spray "${ws[@]}" --set switch.load_balancing=spray --set host.reorder=placement
case_run lb_flowlet_dual_tor "$here/examples/ai/load_balancing_ring.toml" \
  --set switch.load_balancing=flowlet --set switch.flowlet_timeout=5us \
  --set host.qps_per_connection=2 --set topology.leaves=8 --set topology.ports_per_host=2
# AI traffic over NVLink (issue 46): hierarchical AllReduces of two jobs on a rail fabric, and an
# MoE job's block (TP over NVLink, EP all-to-alls and DP AllReduces across the fabric, compute
# between them); split, each server's NVLink runs with its GPUs.
case_run ai_two_jobs "$here/examples/ai/two_jobs.toml"
case_run ai_moe_block "$here/examples/ai/moe_job.toml" --set job.0.blocks=1 --set job.0.iterations=1
case_run ws_pcap "${ws[@]}" --set 'output.pcap.points=["h1","s0:1"]'
# A core switch's ports: captured where the links cross between threads of a split run.
case_run ws_pcap_core "${ws[@]}" --set 'output.pcap.points=["s19:0","s16:1"]'
# The flow level (model = "flow", docs/flow-level.md): WebSearch, collectives on rail fabrics
# (with ECMP collisions, and the 512-GPU AllReduce), jobs with NVLink and compute.
case_run flow_ws "${ws[@]}" --set model=flow
case_run flow_ring "$here/examples/ai/ring_allreduce_16x8.toml" --set model=flow
case_run flow_ecmp "$here/examples/ai/ecmp_collisions.toml" --set model=flow
case_run flow_allreduce_512 "$here/bench/allreduce_512gpu.toml" --set model=flow
case_run flow_two_jobs "$here/examples/ai/two_jobs.toml" --set model=flow
case_run flow_moe_block "$here/examples/ai/moe_job.toml" --set job.0.blocks=1 --set model=flow

[[ hpcc_small =~ ${ONLY:-.} ]] || exit $status
[[ -n ${SKIP:-} && hpcc_small =~ $SKIP ]] && exit $status
source "$here/bench/hpcc_case.sh"
mkdir -p "$work/hpcc"
if [[ -d ${HPCC_FORMAT_DIR:-$here/../shared/hpcc-format} ]]; then
  prepare_hpcc_case "$work/hpcc" 1
else  # a fresh clone without it: the same case, kept in the repository
  cp -r "$here/tests/ns3/fat_small/." "$work/hpcc/"
  config=mix/config_small.txt
fi
for b in old new; do
  bin=$old extra=() launcher=()
  [[ $b == new ]] && bin=$new && extra=("${new_args[@]}") && launcher=("${new_launcher[@]}")
  (cd "$work/hpcc" && "${launcher[@]}" "$bin" hpcc "$config" "${extra[@]}" --out "$work/hpcc_small.$b" --quiet >/dev/null 2>&1) ||
    { echo "hpcc_small: $b build failed"; status=1; }
done
[[ -d $work/hpcc_small.old && -d $work/hpcc_small.new ]] && compare_folders hpcc_small
exit $status
