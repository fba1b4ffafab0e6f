#!/usr/bin/env bash
# A run split over threads gives every output byte for byte as one event loop does (issue 30):
# bench/same_results.sh's cases (the examples, the paper's scenarios, every congestion control,
# drops and timeouts, time series, a capture, HPCC ns-3's benchmark) with --threads 2 and 3 against
# --threads 1 (3 on a 2-core machine: more threads than cores must still give the same results).
#   tests/parallel/threads_identity_test.sh DCQCN_BINARY [ONLY_REGEX]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
bin=$1
export ONLY=${2:-.}
# The flow level runs on one thread whatever --threads asks, and its summary says so: nothing to
# compare.
export SKIP='^flow_'
for n in 2 3; do
  echo "--threads $n:"
  NEW_ARGS="--threads $n" "$here/bench/same_results.sh" "$bin" "$bin"
done
