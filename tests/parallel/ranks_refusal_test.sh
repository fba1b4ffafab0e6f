#!/usr/bin/env bash
# An input refused under `mpirun -np 2 dcqcn run|ns3` (the scenario, the network it builds, the
# output folder rank 0 alone makes) ends every rank cleanly: exit 1, the one-line error once,
# and none of MPI_Abort's screen around it, nothing written (issue 43, item 22).
#   tests/parallel/ranks_refusal_test.sh DCQCN_BINARY
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
bin=$1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'name = "bad"\nduration = "zz"\n' > "$work/bad.toml"
printf 'not a config\n' > "$work/bad_config.txt"
touch "$work/a_file"
status=0
# clean_refusal WHAT EXPECTED_ERROR ARGS...: refused with EXPECTED_ERROR, once, without MPI_ABORT.
clean_refusal() {
  local what=$1 expected=$2
  shift 2
  local code=0
  timeout 120 mpirun --oversubscribe -np 2 "$bin" "$@" >/dev/null 2>"$work/err" || code=$?
  local errors
  errors=$(grep -c '^error: ' "$work/err" || true)
  if ((code != 1)); then
    echo "FAIL: $what: exit $code, not 1"; status=1
  elif ((errors != 1)) || ! grep -q "^error: .*$expected" "$work/err"; then
    echo "FAIL: $what: expected one 'error: ...$expected' line, got $errors:"; status=1
  elif grep -q "MPI_ABORT" "$work/err"; then
    echo "FAIL: $what: MPI_Abort's text around the error:"; status=1
  elif [[ -e $work/out ]]; then
    echo "FAIL: $what: left $work/out"; status=1
  else
    echo "refused cleanly under mpirun -np 2: $what"
    return
  fi
  cat "$work/err"
}
clean_refusal "a bad scenario (every rank)" 'duration: expected a positive time' \
  run "$work/bad.toml" --out "$work/out"
clean_refusal "an output folder rank 0 cannot make" 'is a file, not a folder' \
  run "$here/examples/dumbbell.toml" --out "$work/a_file/out"
clean_refusal "a network key ranks cannot run (refused as it is built)" \
  'not yet supported in a run spread over MPI ranks' \
  run "$here/examples/pfc/link_failure_deadlock.toml" --out "$work/out"
clean_refusal "a bad HPCC config" 'bad_config.txt' ns3 "$work/bad_config.txt" --out "$work/out"
exit $status
