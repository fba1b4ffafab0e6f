#!/usr/bin/env bash
# One small sweep run three ways must give the same folder (apart from wall-time fields):
# `--jobs 1` on one machine; two MPI ranks (`mpirun -np 2`, dynamic assignment); and
# `--shard 1/2`, `--shard 2/2` joined by `sweep merge`. One run of six fails (a 1 KB buffer):
# each way exits 1 and keeps that run's error as a row. Usage: sweep_ranks_test.sh DCQCN SCENARIO
set -euo pipefail
dcqcn=$1
scenario=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sweep=(sweep "$scenario" --vary "switch.buffer=12MB,1KB,6MB" --vary "workload.senders=2,3"
       --set duration=1ms --quiet)

expect_exit() {  # expect_exit CODE COMMAND...: runs it, fails unless it exits CODE
  local want=$1 got=0
  shift
  "$@" >"$work/log" 2>&1 || got=$?
  if [[ $got != "$want" ]]; then
    cat "$work/log"
    echo "FAIL: exit $got, expected $want: $*" >&2
    exit 1
  fi
}
expect_exit 1 "$dcqcn" "${sweep[@]}" --jobs 1 --out "$work/whole"
expect_exit 1 mpirun --allow-run-as-root --oversubscribe -np 2 \
  "$dcqcn" "${sweep[@]}" --out "$work/mpi"
expect_exit 1 "$dcqcn" "${sweep[@]}" --shard 1/2 --out "$work/s1"
expect_exit 1 "$dcqcn" "${sweep[@]}" --shard 2/2 --out "$work/s2"
expect_exit 1 "$dcqcn" sweep merge "$work/merged" "$work/s2" "$work/s1" --quiet

/usr/bin/python3 "$here/same_sweep.py" "$work/whole" "$work/mpi"
/usr/bin/python3 "$here/same_sweep.py" "$work/whole" "$work/merged"
grep -q "cannot hold what its .* ports set aside" "$work/mpi/sweep.csv" || { echo "FAIL: no error row" >&2; exit 1; }
echo "PASS: --jobs 1, mpirun -np 2 and 2 shards + merge give the same sweep"
