#!/usr/bin/env bash
# `cmake --install BUILD --prefix DIR`, as the README does it (~/.local there), into a temporary
# DIR that is then moved: the installed binary finds its Python package from its own place
# (DIR/lib/python3/dist-packages), not from the prefix the build was configured for, so that
# `dcqcn tune` imports it (issue 43, item 18); `dcqcn report` finds DIR/share/dcqcn/python.
# Usage: install_test.sh BUILD_DIR
set -euo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
mv "$tmp/prefix" "$tmp/moved"
dcqcn=$tmp/moved/bin/dcqcn
# Nothing from the environment or the build tree may point at a package.
clean=(env -u PYTHONPATH -u DCQCN_PYTHON_DIR -u DCQCN_PYTHON)
if ! "${clean[@]}" "$dcqcn" tune --help > "$tmp/tune.txt" 2>&1; then
  echo "FAIL: the installed dcqcn tune --help:"; cat "$tmp/tune.txt"; exit 1
fi
grep -q -- "--constraint" "$tmp/tune.txt" || { echo "FAIL: no tune help:"; cat "$tmp/tune.txt"; exit 1; }
"${clean[@]}" "$dcqcn" run --quiet --set duration=100us --out "$tmp/run"
if ! (cd "$tmp" && "${clean[@]}" "$dcqcn" report "$tmp/run" > "$tmp/report.txt" 2>&1); then
  echo "FAIL: the installed dcqcn report:"; cat "$tmp/report.txt"; exit 1
fi
echo "installed, moved: tune imports the package and report finds its scripts"
