#!/usr/bin/env bash
# Builds everything (Release, warnings as errors) in build-test/ and runs the whole test suite
# through ctest; then builds the C++ tests again with AddressSanitizer and
# UndefinedBehaviorSanitizer (build-sanitize/) and runs them, so that a memory error or undefined
# behaviour fails CI. Both folders are the tests' own: the user's build/ (the README's first
# command) is never reconfigured, so that running the tests does not rebuild it.
# DCQCN_SKIP_SANITIZE=1 skips the second pass (a quick local run); arguments go to both ctests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=Release -DDCQCN_WERROR=ON >/dev/null
cmake --build build-test
ctest --test-dir build-test --output-on-failure -j2 "$@"

if [[ ${DCQCN_SKIP_SANITIZE:-0} != 1 ]]; then
  start=$SECONDS
  # -O1 with line tables: quick to build, readable reports, assertions on.
  cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" -DDCQCN_SANITIZE=ON -DDCQCN_WERROR=ON >/dev/null
  cmake --build build-sanitize --target dcqcn dcqcn_tests
  # The pass means nothing unless the binaries really are instrumented.
  # (The symbols are read whole first: under pipefail, grep -q closing the pipe early would fail.)
  for bin in build-sanitize/dcqcn build-sanitize/dcqcn_tests; do
    syms=$(nm -D "$bin")
    grep -q '__asan_init' <<<"$syms" && grep -q '__ubsan_handle' <<<"$syms" ||
      { echo "test.sh: $bin is not built with ASan and UBSan" >&2; exit 1; }
  done
  ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-sanitize --output-on-failure -j2 "$@"
  echo "sanitizer build and tests: $((SECONDS - start)) s"
fi
