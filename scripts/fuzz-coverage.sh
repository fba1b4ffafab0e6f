#!/usr/bin/env bash
# Line coverage of the input readers by the fuzz corpora (build-fuzz/corpus/TARGET/, made by
# scripts/fuzz.sh): builds the harnesses for llvm-cov in build-fuzz-cov/, replays every corpus
# input once and prints, per source file the targets exercise, the lines and branches covered.
#
#   scripts/fuzz-coverage.sh [TARGET...]     (default: all four targets)
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
((${#targets[@]})) || targets=(scenario hpcc_config hpcc_files cdf)
CC=clang CXX=clang++ cmake -S . -B build-fuzz-cov -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDCQCN_FUZZ=ON -DDCQCN_FUZZ_COVERAGE=ON -DDCQCN_BUILD_TESTS=OFF >/dev/null
cmake --build build-fuzz-cov --target "${targets[@]/#/fuzz_}"
profiles=()
for t in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$t
  [[ -d $corpus ]] || { echo "fuzz-coverage: no corpus $corpus (run scripts/fuzz.sh first)" >&2; exit 1; }
  LLVM_PROFILE_FILE="build-fuzz-cov/$t.profraw" "build-fuzz-cov/fuzz_$t" "$corpus" -runs=0 \
    >"build-fuzz-cov/$t.log" 2>&1
  llvm-profdata-14 merge -sparse "build-fuzz-cov/$t.profraw" -o "build-fuzz-cov/$t.profdata"
  echo "== $t ($(find "$corpus" -type f | wc -l) inputs)"
  # The readers each target is about, not everything linked in.
  case $t in
    scenario) files=(src/scenario/scenario_loader.cc src/scenario/resolved_toml.cc src/core/units.cc
                     src/workload/poisson.cc src/workload/generators.cc src/topology/builders.cc) ;;
    hpcc_config) files=(src/scenario/hpcc_config.cc src/hpcc/ns3_units.cc src/hpcc/hpcc_files.cc) ;;
    hpcc_files) files=(src/hpcc/hpcc_files.cc src/hpcc/ns3_units.cc) ;;
    cdf) files=(src/workload/cdf.cc) ;;
  esac
  llvm-cov-14 report "build-fuzz-cov/fuzz_$t" -instr-profile="build-fuzz-cov/$t.profdata" \
    "${files[@]}" | awk '
      /\.cc |^TOTAL/ { n = split($1, part, "/");
        printf "  %-22s lines %6s of %6s (%7s)  branches %6s of %6s (%7s)\n",
               part[n], $8 - $9, $8, $10, $11 - $12, $11, $13 }' 
done
