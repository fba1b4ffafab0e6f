// What the fuzzers check (scripts/fuzz.sh runs them under libFuzzer with ASan and UBSan; the
// regression test runs every saved input through the same functions). Each target feeds one
// input reader arbitrary bytes: an InputError is the expected answer to bad input, anything else
// (another exception, a broken round trip, a broken invariant) is a defect, returned as text.
#pragma once

#include <string>
#include <string_view>

namespace dcqcn::fuzz {

// A scenario TOML file, optionally followed by a line "#--set" and one `--set` override per
// line. A scenario that loads must survive the round trip: its resolved.toml loads again and
// resolves to the same text (checked up to 100,000 flows).
std::string ScenarioTarget(std::string_view data);

// An HPCC ns-3 config file. Its TOPOLOGY_FILE and FLOW_FILE paths are relative to `workdir`,
// which holds mix/topology.txt, mix/flow.txt, mix/fat.txt and mix/ws_320_30_5ms.txt (see
// PrepareHpccWorkdir).
std::string HpccConfigTarget(std::string_view data, const std::string& workdir);

// An HPCC topology file, then a NUL byte, then a flow file for it. Both must round-trip through
// our writers (HpccTopologyText, HpccFlowsText) to the same topology and flows.
std::string HpccFilesTarget(std::string_view data);

// A flow-size CDF. A CDF that parses has a mean within its sizes and samples within them.
std::string CdfTarget(std::string_view data);

// A fresh folder under $TMPDIR with the small HPCC sample of tests/ns3/data/mix/ under the
// names the HPCC configs use; returns its path.
std::string PrepareHpccWorkdir(const std::string& source_dir);

}  // namespace dcqcn::fuzz
