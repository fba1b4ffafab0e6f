#!/usr/bin/env bash
# One sweep as a Slurm job array: task K of N runs shard K/N of the sweep into its own folder
# (any node, any order); a last job, started once every task has finished, merges the shards into
# one sweep folder, the same as `dcqcn sweep` run whole on one machine (docs/cluster.md).
#
#   sbatch --array=1-8 examples/cluster/slurm_array.sh             # 8 shards
#   sbatch --dependency=afterany:JOBID examples/cluster/slurm_array.sh merge
#
# Edit SCENARIO, VARY and OUT below; DCQCN is the binary (build/dcqcn by default). Each task
# uses --jobs ${SLURM_CPUS_PER_TASK:-1} to run its runs in parallel on its node.
#SBATCH --job-name=dcqcn-sweep
#SBATCH --cpus-per-task=4
#SBATCH --output=dcqcn-sweep-%A_%a.log
set -euo pipefail
DCQCN=${DCQCN:-build/dcqcn}
SCENARIO=examples/incast_8to1.toml
VARY=(--vary workload.senders=2,4,6,8 --vary cc.profile=paper,mlx5,hpcc)
OUT=results/cluster-sweep

if [[ ${1:-} == merge ]]; then
  # The array's size is the number of shard folders it left.
  shards=("$OUT".shard-*)
  exec "$DCQCN" sweep merge "$OUT" "${shards[@]}"
fi
: "${SLURM_ARRAY_TASK_ID:?run with sbatch --array=1-N}"
: "${SLURM_ARRAY_TASK_COUNT:?run with sbatch --array=1-N}"
k=$SLURM_ARRAY_TASK_ID
n=$SLURM_ARRAY_TASK_COUNT
exec "$DCQCN" sweep "$SCENARIO" "${VARY[@]}" --shard "$k/$n" --jobs "${SLURM_CPUS_PER_TASK:-1}" \
  --out "$OUT.shard-$k-of-$n" --quiet
