// Scenario benchmark: runs reference scenarios several times and prints the median wall time,
// events/s and packet-hops/s, and the peak RSS. It prints figures; it asserts nothing.
//   build/dcqcn_scenario_bench [repeats]
#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <vector>

#include "run/run_scenario.h"
#include "scenario/scenario_loader.h"

namespace {

struct Case {
  const char* name;
  const char* toml;
};

// PFC-only 16:1 incast at 40G (the engine issue's reference) and a 32-host permutation.
const Case kCases[] = {
    {"incast-16to1-pfc", R"(
name = "incast-16to1-pfc"
duration = "100ms"
[topology]
type = "star"
hosts = 17
link_rate = "40Gbps"
[cc]
algorithm = "none"
[workload]
type = "incast"
senders = 16
receiver = 0
size = "4MB"
)"},
    {"permutation-32", R"(
name = "permutation-32"
duration = "100ms"
[topology]
type = "dumbbell"
hosts = 32
link_rate = "40Gbps"
bottleneck_rate = "400Gbps"
[cc]
algorithm = "none"
[workload]
type = "permutation"
size = "2MB"
)"},
};

}  // namespace

int main(int argc, char** argv) {
  int repeats = argc > 1 ? std::atoi(argv[1]) : 5;
  fmt::print("{:<20} {:>9} {:>12} {:>12} {:>14} {:>16}\n", "scenario", "wall_s", "events",
             "M events/s", "packet_hops", "M pkt-hops/s");
  for (const Case& c : kCases) {
    dcqcn::Scenario s = dcqcn::LoadScenarioText(c.toml, c.name);
    std::vector<double> walls;
    nlohmann::json last;
    for (int r = 0; r < repeats; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      last = dcqcn::RunScenario(s, {});
      walls.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(walls.begin(), walls.end());
    double median = walls[walls.size() / 2];
    double events = last["events"].get<double>();
    double hops = last["packet_hops"].get<double>();
    fmt::print("{:<20} {:>9.4f} {:>12.0f} {:>12.2f} {:>14.0f} {:>16.2f}\n", c.name, median, events,
               events / median / 1e6, hops, hops / median / 1e6);
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  fmt::print("peak RSS {:.1f} MB (median of {} runs each)\n", ru.ru_maxrss / 1024.0, repeats);
  return 0;
}
