#!/usr/bin/env bash
# One sweep as one Slurm MPI job: every task is an MPI rank; rank 0 hands the runs out one at a
# time to whichever rank is free (long and short runs mix) and writes sweep.csv once; each rank
# writes the folders of the runs it ran. The folder must be on a file system every node sees
# (docs/cluster.md).
#
#   sbatch --ntasks=64 examples/cluster/slurm_mpi.sh
#   sbatch --ntasks=64 examples/cluster/slurm_mpi.sh --resume    # after a timeout or scancel
#
# Edit SCENARIO, VARY and OUT below; DCQCN is the binary (build/dcqcn by default, built with MPI:
# CMake prints "MPI ...: `mpirun -np N dcqcn sweep` spreads a sweep over ranks").
#SBATCH --job-name=dcqcn-sweep-mpi
#SBATCH --ntasks=16
#SBATCH --cpus-per-task=1
#SBATCH --output=dcqcn-sweep-mpi-%j.log
set -euo pipefail
DCQCN=${DCQCN:-build/dcqcn}
SCENARIO=examples/incast_8to1.toml
VARY=(--vary workload.senders=2,4,6,8 --vary cc.profile=paper,mlx5,hpcc)
OUT=results/cluster-sweep

# srun starts one rank per task (Slurm's PMI); `mpirun` works the same inside the allocation.
exec srun "$DCQCN" sweep "$SCENARIO" "${VARY[@]}" --out "$OUT" --quiet "$@"
