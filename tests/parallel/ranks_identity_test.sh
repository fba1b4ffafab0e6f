#!/usr/bin/env bash
# One run spread over MPI ranks gives every output byte for byte as one process does (issue 30,
# item 4): bench/same_results.sh's cases (the examples, the paper's scenarios, every congestion
# control, drops and timeouts, time series, captures, deadlocks, a watchdog, a pause storm, HPCC
# ns-3's benchmark) under `mpirun -np 2`, and `-np 3` with two threads each (more than the cores),
# against one process. What ranks cannot do yet (link events) is refused, naming the key, with a
# non-zero exit and no rank left waiting.
#   tests/parallel/ranks_identity_test.sh DCQCN_BINARY [ONLY_REGEX]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
bin=$1
export ONLY=${2:-.}
# The flow level cannot be split: every process runs it whole (and one loop, whatever --threads
# asks, which its summary says): nothing to compare.
export SKIP='link_failure|^flow_'
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=(mpirun --oversubscribe)
echo "mpirun -np 2:"
NEW_LAUNCHER="${mpi[*]} -np 2" "$here/bench/same_results.sh" "$bin" "$bin"
echo "mpirun -np 3, --threads 2:"
NEW_LAUNCHER="${mpi[*]} -np 3" NEW_ARGS="--threads 2" "$here/bench/same_results.sh" "$bin" "$bin"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
refused() {  # refused KEY SCENARIO [--set ...]: the run is refused, naming KEY, nothing written
  local key=$1
  shift
  if timeout 120 "${mpi[@]}" -np 2 "$bin" run "$@" --out "$work/out" --quiet >/dev/null 2>"$work/err"; then
    echo "FAIL: $* ran under mpirun"
    exit 1
  fi
  grep -q "$key: .*not yet supported in a run spread over MPI ranks" "$work/err" ||
    { echo "FAIL: $* under mpirun did not name $key:"; cat "$work/err"; exit 1; }
  [[ ! -e $work/out ]] || { echo "FAIL: $* under mpirun left $work/out"; exit 1; }
  echo "refused under mpirun, naming $key: $*"
}
refused "\[\[event\]\] kind" "$here/examples/pfc/link_failure_deadlock.toml"
# A run that cannot be split runs whole in every process, and its summary says so.
"${mpi[@]}" -np 2 "$bin" run "$here/examples/ai/ring_allreduce_16x8.toml" --set model=flow \
  --out "$work/whole" --quiet >/dev/null
/usr/bin/python3 - "$work/whole/summary.json" <<'PY' || { echo "FAIL: no ranks note"; exit 1; }
import json, sys
r = json.load(open(sys.argv[1]))["ranks"]
assert r["asked"] == 2 and r["split"] is False and 'model = "flow"' in r["why"], r
PY
echo "the flow level under mpirun -np 2: ran whole in each process, and the summary says so"
