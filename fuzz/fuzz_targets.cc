#include "fuzz/fuzz_targets.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "ns3/hpcc_files.h"
#include "output/atomic_file.h"
#include "scenario/hpcc_config.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"
#include "workload/cdf.h"

namespace dcqcn::fuzz {
namespace {

namespace fs = std::filesystem;

// The scenario loader turns any exception but an InputError into one that starts
// "SOURCE: cannot read scenario: " (its Guard): that is a bug surfaced as an exception, not a
// diagnosed input.
bool WrapsUnexpected(std::string_view message, const std::string& source) {
  return message.rfind(source + ": cannot read scenario: ", 0) == 0;
}

// Runs `body`; an InputError is the expected outcome for bad input (unless it wraps an
// unexpected exception of the scenario loader reading `source`), any other exception is a
// defect. Returns "" or the defect.
template <typename Body>
std::string Expecting(std::string_view what, const std::string& source, Body body) {
  try {
    return body();
  } catch (const InputError& e) {
    if (!source.empty() && WrapsUnexpected(e.what(), source)) {
      return fmt::format("{}: an exception escaped as an input error: {}", what, e.what());
    }
    return "";
  } catch (const std::exception& e) {
    return fmt::format("{}: not an InputError but {}: {}", what, typeid(e).name(), e.what());
  }
}

// Loads `text` as a scenario; a defect if it is not accepted (it came from our own writer).
std::string ReloadResolved(const std::string& resolved, const std::string& source) {
  try {
    const std::string again = ResolvedToml(LoadScenarioText(resolved, source));
    if (again != resolved) {
      return fmt::format("resolved.toml does not resolve to itself.\n--- first\n{}\n--- second\n{}",
                         resolved, again);
    }
  } catch (const std::exception& e) {
    return fmt::format("resolved.toml does not load again: {}\n--- resolved.toml\n{}", e.what(),
                       resolved);
  }
  return "";
}

constexpr size_t kMaxRoundTripFlows = 100000;

// A folder of this process for the readers that take paths; removed at exit.
const std::string& ScratchDir() {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = fmt::format("{}/dcqcn-fuzz-XXXXXX", tmp != nullptr ? tmp : "/tmp");
    if (mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("fuzz: cannot create a scratch folder under " + pattern);
    }
    static const std::string removed = pattern;
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(removed, ec);
    });
    return pattern;
  }();
  return dir;
}

// Restores the working directory when it goes out of scope.
class ScopedCwd {
 public:
  explicit ScopedCwd(const std::string& dir) : old_(fs::current_path()) { fs::current_path(dir); }
  ~ScopedCwd() {
    std::error_code ec;
    fs::current_path(old_, ec);
  }

 private:
  fs::path old_;
};

}  // namespace

std::string ScenarioTarget(std::string_view data) {
  std::string_view toml = data;
  std::vector<std::string> overrides;
  constexpr std::string_view kSetMarker = "\n#--set\n";
  if (const size_t at = data.find(kSetMarker); at != std::string_view::npos) {
    toml = data.substr(0, at);
    std::string_view rest = data.substr(at + kSetMarker.size());
    while (!rest.empty()) {
      const size_t nl = rest.find('\n');
      overrides.emplace_back(rest.substr(0, nl));
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
  }
  const std::string source = ScratchDir() + "/fuzz.toml";
  return Expecting("scenario", source, [&] {
    const Scenario s = LoadScenarioText(toml, source, overrides);
    // A generated workload of millions of flows is valid but takes a minute to write and parse
    // again; the round trip is the same code for any count.
    if (s.flows.size() > kMaxRoundTripFlows) return std::string();
    return ReloadResolved(ResolvedToml(s), source);
  });
}

std::string HpccConfigTarget(std::string_view data, const std::string& workdir) {
  ScopedCwd cwd(workdir);
  const std::string config = workdir + "/config.txt";
  WriteFileAtomic(config, std::string(data));
  return Expecting("HPCC config", "", [&] {
    const HpccSetup setup = LoadHpccConfig(config);
    // `dcqcn ns3 --set` loads the config as a scenario; it must load, and be stable.
    const std::string source = config + " (as a scenario)";
    const std::string resolved = ResolvedToml(setup.scenario);
    try {
      return ReloadResolved(ResolvedToml(LoadScenarioText(resolved, source)), source);
    } catch (const InputError& e) {
      return fmt::format("the config as a scenario does not load: {}\n--- resolved.toml\n{}",
                         e.what(), resolved);
    }
  });
}

std::string HpccFilesTarget(std::string_view data) {
  const size_t nul = data.find('\0');
  const std::string topo_path = ScratchDir() + "/topology.txt";
  const std::string flow_path = ScratchDir() + "/flow.txt";
  WriteFileAtomic(topo_path, std::string(data.substr(0, nul)));
  WriteFileAtomic(flow_path,
                  nul == std::string_view::npos ? "" : std::string(data.substr(nul + 1)));
  return Expecting("HPCC files", "", [&]() -> std::string {
    TopologyConfig topo;
    ReadHpccTopology(topo_path, topo, nullptr);
    const std::string topo_text = HpccTopologyText(topo);
    std::vector<FlowSpec> specs;
    for (const HpccFlow& f : ReadHpccFlows(flow_path, topo, nullptr)) specs.push_back(f.spec);
    const std::string flows_text = HpccFlowsText(specs, topo);

    // Our writers' output reads back to the same topology and flows.
    const std::string topo_again_path = ScratchDir() + "/topology-again.txt";
    const std::string flow_again_path = ScratchDir() + "/flow-again.txt";
    WriteFileAtomic(topo_again_path, topo_text);
    WriteFileAtomic(flow_again_path, flows_text);
    TopologyConfig again;
    try {
      ReadHpccTopology(topo_again_path, again, nullptr);
    } catch (const InputError& e) {
      return fmt::format("HpccTopologyText does not read back: {}\n{}", e.what(), topo_text);
    }
    if (HpccTopologyText(again) != topo_text || again.hosts != topo.hosts ||
        again.switches != topo.switches) {
      return fmt::format("the topology changes in a round trip:\n{}\n---\n{}", topo_text,
                         HpccTopologyText(again));
    }
    std::vector<FlowSpec> specs_again;
    try {
      for (const HpccFlow& f : ReadHpccFlows(flow_again_path, again, nullptr)) {
        specs_again.push_back(f.spec);
      }
    } catch (const InputError& e) {
      return fmt::format("HpccFlowsText does not read back: {}\n{}", e.what(), flows_text);
    }
    if (specs_again.size() != specs.size()) {
      return fmt::format("{} flows read back as {}:\n{}", specs.size(), specs_again.size(),
                         flows_text);
    }
    for (size_t i = 0; i < specs.size(); ++i) {
      const FlowSpec& a = specs[i];
      const FlowSpec& b = specs_again[i];
      if (a.src != b.src || a.dst != b.dst || a.size != b.size || a.start != b.start ||
          a.priority != b.priority) {
        return fmt::format("flow {} changes in a round trip:\n{}", i + 1, flows_text);
      }
    }
    return "";
  });
}

std::string CdfTarget(std::string_view data) {
  return Expecting("CDF", "", [&]() -> std::string {
    const FlowSizeCdf cdf = FlowSizeCdf::Parse(data, "fuzz.cdf");
    const auto& p = cdf.points();
    const double lo = p.front().size, hi = p.back().size;
    const double mean = cdf.Mean();
    if (!std::isfinite(mean) || mean < lo * (1 - 1e-12) || mean > hi * (1 + 1e-12)) {
      return fmt::format("the mean {} is outside the sizes {}..{}", mean, lo, hi);
    }
    Rng rng(1);
    for (int i = 0; i < 16; ++i) {
      const Bytes b = cdf.Sample(rng);
      if (b < 1 || static_cast<double>(b) > std::max(hi, 1.0)) {
        return fmt::format("sample {} is outside the sizes {}..{}", b, lo, hi);
      }
    }
    return "";
  });
}

std::string PrepareHpccWorkdir(const std::string& source_dir) {
  const std::string dir = ScratchDir() + "/hpcc";
  fs::create_directories(dir + "/mix");
  const fs::path mix = fs::path(source_dir) / "tests/ns3/data/mix";
  for (const auto& [from, to] :
       {std::pair{"topology.txt", "topology.txt"}, std::pair{"flow.txt", "flow.txt"},
        std::pair{"topology.txt", "fat.txt"}, std::pair{"flow.txt", "ws_320_30_5ms.txt"}}) {
    fs::copy_file(mix / from, fs::path(dir) / "mix" / to, fs::copy_options::overwrite_existing);
  }
  return dir;
}

}  // namespace dcqcn::fuzz
