#!/usr/bin/env bash
# Issue 46's flow-level figures, one run each (benchmarks print figures; they assert nothing):
# the 1 GB hierarchical AllReduce of bench/allreduce_512gpu.toml packet by packet on 512 GPUs
# (DCQCN as shipped, and PFC alone) and at flow level (model = "flow") on 512 to 8,192 GPUs;
# python/flow_level_table.py's `scale` runs them and prints the table (--update-docs: into
# docs/performance.md).
#   bench/flow_level.sh [--update-docs] [--binary path/to/dcqcn]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
/usr/bin/python3 "$here/python/flow_level_table.py" scale "$out" "$@"
