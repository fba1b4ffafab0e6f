#!/usr/bin/env bash
# Runs `dcqcn ns3` on every HPCC ns-3 config whose own output we have (DCQCN, HPCC, TIMELY
# and DCTCP), and compares the FCT files with that simulator's (python/validation_table.py): one table, in docs/validation.md.
#
#   scripts/validate.sh [OUT_DIR] [--update-docs]
#
# The HPCC inputs and reference outputs are not in this repo: $HPCC_FORMAT_DIR, default
# ../shared/hpcc-format beside the repo (mix/ with the configs, reference/ with the outputs).
# Uses $DCQCN or build/dcqcn.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=results/validation
update=0
for a in "$@"; do
  case $a in
    --update-docs) update=1 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "validate: unknown option $a" >&2; exit 2 ;;
    *) out=$a ;;
  esac
done
src=${HPCC_FORMAT_DIR:-$root/../shared/hpcc-format}
dcqcn=$(realpath "${DCQCN:-build/dcqcn}")
[[ -d $src/mix && -d $src/reference ]] || { echo "validate: no mix/ and reference/ in $src (set HPCC_FORMAT_DIR)" >&2; exit 1; }
mkdir -p "$out"
out=$(realpath "$out")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/mix" "$work/mix"
start=$(date +%s)
# Every config whose FCT output the reference has: DCQCN, HPCC, TIMELY and DCTCP.
for config in "$work"/mix/config_*.txt; do
  fct=$(awk '$1 == "FCT_OUTPUT_FILE" { print $2 }' "$config")
  [[ -f $src/reference/$(basename "$fct") ]] || continue
  echo "dcqcn ns3 mix/$(basename "$config")"
  t0=$(date +%s.%N)
  (cd "$work" && "$dcqcn" hpcc "mix/$(basename "$config")" --quiet --force \
    --out "$out/$(basename "$config" .txt)")
  echo "  $(/usr/bin/python3 -c "print(f'{$(date +%s.%N) - $t0:.1f}')") s wall"
  cp "$out/$(basename "$config" .txt)/$(basename "$fct")" "$out/"
done
args=("$out" "$src/reference")
[[ $update == 1 ]] && args+=(--update docs/validation.md)
/usr/bin/python3 python/validation_table.py "${args[@]}"
echo "total wall time: $(( $(date +%s) - start )) s"
