#!/usr/bin/env bash
# Fuzzes the input readers with libFuzzer, ASan and UBSan: the scenario loader (TOML and --set,
# with the resolved.toml round trip), the HPCC config, topology and flow readers, and the CDF
# reader (fuzz/fuzz_targets.h says what each checks).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     (default: 60 seconds each, all four targets)
#
# Builds build-fuzz/ with clang (Debian: clang-14, libclang-rt-14-dev), seeds each corpus
# (build-fuzz/corpus/TARGET/) from examples/, the scenarios inside tests/, tests/ns3/data,
# ../shared/hpcc-format when present and data/workloads, and runs the targets side by side, one
# per core. The corpora persist, so a second run goes on from the first. An input that finds a
# defect is saved as build-fuzz/crashes/TARGET/crash-* (oom-*, timeout-* for memory and time);
# copy it to tests/fuzz/regressions/TARGET/ once fixed, where the test suite replays it. Prints
# each target's executions, coverage and findings; exits 1 when any target found something.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(scenario hpcc_config hpcc_files cdf)

for p in clang-14 libclang-rt-14-dev; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    echo "fuzz: installing $p" >&2
    sudo_cmd=""; [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "$p" >/dev/null
  fi
done
scripts/setup.sh
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDCQCN_FUZZ=ON -DDCQCN_BUILD_TESTS=OFF >/dev/null
cmake --build build-fuzz --target "${targets[@]/#/fuzz_}"

# Seeds and the scenario dictionary (every key the loader knows, units, table headers).
/usr/bin/python3 - build-fuzz "${targets[@]}" <<'EOF'
import glob, os, re, sys
out, targets = sys.argv[1], sys.argv[2:]
def put(target, name, data):
    d = os.path.join(out, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + re.sub(r"[^A-Za-z0-9_.-]", "_", name)), "wb") as f:
        f.write(data)
def read(p):
    with open(p, "rb") as f:
        return f.read()
shared = "../shared/hpcc-format/mix"
if "scenario" in targets:
    for p in sorted(glob.glob("examples/**/*.toml", recursive=True)):
        put("scenario", p, read(p))
    # TOML inside the C++ tests' raw strings: R"(...)" and R"toml(...)toml".
    for p in sorted(glob.glob("tests/**/*.cc", recursive=True)):
        text = read(p).decode()
        for i, m in enumerate(re.finditer(r'R"(\w*)\((.*?)\)\1"', text, re.S)):
            if "[" in m.group(2) or "=" in m.group(2):
                put("scenario", f"{p}.{i}", m.group(2).encode())
    put("scenario", "set", read("examples/incast_8to1.toml") +
        b"\n#--set\ncc.rai=10Mbps\nswitch.ecn.pmax=0.05\nflow.0.size=2MB\ntopology.hosts=17\n")
    keys = set()
    for line in read("docs/scenario-keys.md").decode().splitlines():
        m = re.match(r"\| `([^`]+)` \|", line)
        if m:
            keys.add(m.group(1))
    words = sorted(keys) + ["ps", "ns", "us", "ms", "s", "B", "KB", "MB", "GB", "KiB", "bps",
                            "Kbps", "Mbps", "Gbps", "Tbps", "[[flow]]", "#--set\n", "true",
                            "false", "inf", "nan", "1e300", "-1", "9223372036854775807"]
    with open(os.path.join(out, "scenario.dict"), "w") as f:
        for w in words:
            f.write('"%s"\n' % w.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\x0A"))
if "hpcc_config" in targets:
    for p in sorted(glob.glob("tests/ns3/data/mix/config*.txt") + glob.glob(shared + "/config*.txt")):
        put("hpcc_config", p, read(p))
if "hpcc_files" in targets:
    pairs = [("tests/ns3/data/mix/topology.txt", "tests/ns3/data/mix/flow.txt"),
             (shared + "/topology.txt", shared + "/flow.txt"),
             (shared + "/fat.txt", shared + "/ws_320_30_5ms.txt")]
    for t, fl in pairs:
        if os.path.exists(t) and os.path.exists(fl):
            put("hpcc_files", t, read(t) + b"\0" + read(fl))
if "cdf" in targets:
    for p in sorted(glob.glob("data/workloads/*.txt")):
        put("cdf", p, read(p))
EOF

cores=$(nproc)
logs=build-fuzz/logs
mkdir -p "$logs"
pids=()
run() {
  local t=$1 dict=()
  [[ $t == scenario ]] && dict=(-dict=build-fuzz/scenario.dict)
  mkdir -p "build-fuzz/crashes/$t" "build-fuzz/corpus/$t"
  # Fork mode goes on after a defect, a timeout or running out of memory, saving each input, so a
  # long run reports everything it finds. -rss_limit_mb: a scenario may legitimately ask for a
  # big fabric or millions of flows; 4 GB flags runaway memory. -timeout: such a scenario takes
  # seconds; a minute means a hang.
  "build-fuzz/fuzz_$t" "build-fuzz/corpus/$t" "${dict[@]}" -fork=1 -ignore_crashes=1 \
    -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$seconds" -timeout=60 \
    -rss_limit_mb=4096 -max_len=65536 -artifact_prefix="build-fuzz/crashes/$t/" \
    >"$logs/$t.log" 2>&1
}
rm -rf build-fuzz/crashes
for t in "${targets[@]}"; do
  run "$t" &
  pids+=($!)
  if ((${#pids[@]} >= cores)); then
    wait "${pids[0]}" || true
    pids=("${pids[@]:1}")
  fi
done
wait || true

# The last status line of each: "#EXECS: cov: N ft: N corp: N exec/s N oom/timeout/crash: a/b/c".
status=0
printf '%-12s %12s %8s %8s %8s %8s %s\n' target executions exec/s cov ft corpus oom/timeout/crash
for t in "${targets[@]}"; do
  line=$(grep -E '^#[0-9]+: cov:' "$logs/$t.log" | tail -1 || true)
  execs=$(grep -oP '^#\K[0-9]+' <<<"$line" || true)
  rate=$(grep -oP 'exec/s \K[0-9]+' <<<"$line" || true)
  cov=$(grep -oP 'cov: \K[0-9]+' <<<"$line" || true)
  ft=$(grep -oP 'ft: \K[0-9]+' <<<"$line" || true)
  corp=$(grep -oP 'corp: \K[0-9]+' <<<"$line" || true)
  found="$(find "build-fuzz/crashes/$t" -name 'oom-*' | wc -l)/$(find "build-fuzz/crashes/$t" \
    -name 'timeout-*' | wc -l)/$(find "build-fuzz/crashes/$t" -name 'crash-*' | wc -l)"
  printf '%-12s %12s %8s %8s %8s %8s %s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
    "${ft:-?}" "${corp:-?}" "$found"
  [[ $found == 0/0/0 ]] || status=1
done
echo "logs: $logs/TARGET.log; inputs that found something: build-fuzz/crashes/TARGET/"
exit $status
