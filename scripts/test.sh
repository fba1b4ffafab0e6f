#!/usr/bin/env bash
# Builds everything (Release with assertions, warnings as errors) and runs the whole test suite
# through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDCQCN_WERROR=ON >/dev/null
cmake --build build
ctest --test-dir build --output-on-failure -j2 "$@"
