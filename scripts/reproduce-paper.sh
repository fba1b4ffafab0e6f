#!/usr/bin/env bash
# Reproduces docs/paper.md: runs every `dcqcn` command the doc shows (exactly those, with their
# results/paper/ folders put under OUT_DIR), draws the figures the doc shows with `dcqcn report`
# into OUT_DIR/figures/, and writes every table of the doc to OUT_DIR/tables/<name>.md
# (python/paper_tables.py).
#
#   scripts/reproduce-paper.sh [OUT_DIR] [--update-docs] [--check] [--no-run] [--jobs N]
#
#   OUT_DIR        where the results go (default results/paper)
#   --update-docs  also replace the doc's tables (<!-- table:NAME --> blocks) and docs/figures/
#   --check        exit 1 when a table in the doc differs from the generated one, naming it
#                  (figures that differ are only listed)
#   --no-run       reuse the runs already in OUT_DIR (only tables, figures, update, check)
#   --jobs N       parallel runs per sweep (default 1; 2 only on an otherwise idle machine)
#
# Uses $DCQCN or build/dcqcn, and /usr/bin/python3 (or $DCQCN_PYTHON) with pandas.
set -euo pipefail
fail() { echo "reproduce-paper: $1" >&2; exit "${2:-1}"; }
caller=$(pwd)
cd "$(dirname "$0")/.."
root=$(pwd)

out=
update=0
check=0
run=1
jobs=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --update-docs) update=1 ;;
    --check) check=1 ;;
    --no-run) run=0 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift ;;
    --jobs=*) jobs=${1#--jobs=} ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) fail "unknown option $1 (see --help)" 2 ;;
    *) out=$1 ;;
  esac
  shift
done
# OUT_DIR and $DCQCN are relative to where the script was started; the default is in the repo.
absolute() { [[ $1 == /* ]] && echo "$1" || echo "$caller/$1"; }
if [[ -n $out ]]; then out=$(absolute "$out"); else out=results/paper; fi
[[ $jobs =~ ^[1-9][0-9]*$ ]] || fail "--jobs must be a positive number" 2

doc=docs/paper.md
if [[ -n ${DCQCN:-} ]]; then dcqcn=$(absolute "$DCQCN"); else dcqcn=build/dcqcn; fi
python=${DCQCN_PYTHON:-/usr/bin/python3}
tables=(env PYTHONDONTWRITEBYTECODE=1 "$python" "$root/python/paper_tables.py")
[[ -x $dcqcn ]] || fail "no dcqcn binary at $dcqcn (build it, or set DCQCN)"
"$python" -c 'import pandas' 2>/dev/null ||
  fail "$python cannot import pandas (run scripts/setup.sh)"

start=$(date +%s.%N)
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
mkdir -p "$out/logs"

if [[ $run == 1 ]]; then
  # One line per command: the file for its output, a tab, its arguments (shell-quoted).
  commands=$("${tables[@]}" commands "$doc" "$out" --jobs "$jobs")
  total=$(grep -c . <<<"$commands")
  i=0
  while IFS=$'\t' read -r capture args; do
    [[ -n $capture ]] || continue
    i=$((i + 1))
    eval "set -- $args"
    echo "[$i/$total] dcqcn $*"
    t0=$(date +%s.%N)
    mkdir -p "$(dirname "$capture")"
    case $1 in
      buffer) "$dcqcn" "$@" >"$capture" ;;  # its output is the doc's buffer table
      run|sweep) "$dcqcn" "$@" --quiet >"$capture" 2>&1 || { cat "$capture" >&2; exit 1; } ;;
      *) "$dcqcn" "$@" >"$capture" 2>&1 || { cat "$capture" >&2; exit 1; } ;;
    esac
    echo "      $(elapsed "$t0") s"
  done <<<"$commands"
fi

echo "tables"
"${tables[@]}" tables "$out"

echo "figures"
rm -rf "$out/figures"
mkdir -p "$out/figures"
: >"$out/logs/report.log"
figures=$("${tables[@]}" figures "$doc" "$out")
declare -A reported=()
while IFS=$'\t' read -r dir figure name; do
  [[ -n $dir ]] || continue
  if [[ -z ${reported[$dir]:-} ]]; then
    "$dcqcn" report "$dir" >>"$out/logs/report.log" 2>&1 ||
      { cat "$out/logs/report.log" >&2; fail "dcqcn report $dir failed"; }
    reported[$dir]=1
  fi
  src="$dir/report/$figure.png"
  if [[ ! -f $src ]]; then
    made=$(cd "$dir/report" && ls -- *.png 2>/dev/null | tr '\n' ' ')
    fail "\`dcqcn report $dir\` made no $figure.png (it made: $made);"\
" update FIGURES in python/paper_tables.py"
  fi
  cp "$src" "$out/figures/$name"
  echo "  figures/$name <- $src"
done <<<"$figures"

if [[ $update == 1 ]]; then
  "${tables[@]}" update "$doc" "$out"
  cp "$out"/figures/*.png docs/figures/
  echo "copied $(ls "$out"/figures/*.png | wc -l) figures to docs/figures/"
fi

status=0
if [[ $check == 1 ]]; then
  "${tables[@]}" check "$doc" "$out" || status=1
  # Figures are not compared byte for byte (the report's drawing changes on its own); say which.
  for f in "$out"/figures/*.png; do
    cmp -s "$f" "docs/figures/$(basename "$f")" ||
      echo "note: docs/figures/$(basename "$f") differs from $f (--update-docs copies it)"
  done
fi
echo "total wall time: $(elapsed "$start") s"
exit $status
