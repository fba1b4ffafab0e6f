#!/usr/bin/env bash
# Fails when a C++ file differs from what clang-format makes of it (.clang-format), and names it.
# Usage: check-format.sh [CLANG_FORMAT] (default: clang-format). ctest runs it as format_check.
set -euo pipefail
clang_format=${1:-clang-format}
cd "$(dirname "$0")/.."
# The tracked files in a git checkout (never build output); from a source tarball, the C++ folders.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cc' '*.h')
else
  mapfile -t files < <(find src tests bench bindings fuzz -name '*.cc' -o -name '*.h' | sort)
fi
((${#files[@]})) || { echo "check-format: no C++ files found" >&2; exit 1; }
"$clang_format" --dry-run --Werror "${files[@]}"
