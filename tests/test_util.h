// Helpers shared by tests: programmatic scenarios that do not go through the TOML loader.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.h"
#include "scenario/scenario.h"
#include "scenario/scenario_loader.h"

namespace dcqcn::testing {

// The message of the InputError that `f()` throws; "" when it throws none, and a note when it
// throws another kind (a crash-like failure, not a clear input error).
template <class F>
std::string InputErrorOf(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong exception type: ") + e.what();
  }
  return "";
}

// Loading `text` (named `source`) with `overrides` must fail with an InputError whose message
// holds every one of `parts` (the key, "FILE:LINE", ...).
inline void ExpectLoadError(const std::string& text, const std::string& source,
                            const std::vector<std::string>& parts,
                            const std::vector<std::string>& overrides = {}) {
  const std::string message = InputErrorOf([&] { LoadScenarioText(text, source, overrides); });
  ASSERT_FALSE(message.empty()) << "accepted:\n" << text;
  for (const std::string& part : parts) {
    EXPECT_NE(message.find(part), std::string::npos)
        << "message lacks \"" << part << "\": " << message << "\nfor:\n"
        << text;
  }
}

// Poisson WebSearch traffic and frequent incasts of short flows on a k = 4 fat tree, 1 ms of
// arrivals: about 950 flows.
inline constexpr const char* kBusyFabric = R"(
duration = "200ms"
[topology]
type = "fat_tree"
k = 4
link_rate = "100Gbps"
link_delay = "1us"
[cc]
algorithm = "dcqcn"
[workload]
type = "poisson"
cdf = "websearch"
load = 0.6
window = "1ms"
[workload.incast]
fanin = 8
size = "32KB"
rate = 100000
)";

// A star: `hosts` hosts on switch s0 with identical links.
inline Scenario StarScenario(int hosts, Rate rate = 40 * kGbps, Time delay = 1 * kMicrosecond) {
  Scenario s;
  s.name = "test-star";
  s.source = "<test>";
  s.topology.type = "star";
  s.topology.hosts = hosts;
  s.topology.switches = 1;
  s.topology.link_rate = rate;
  s.topology.link_delay = delay;
  for (int h = 0; h < hosts; ++h) s.topology.links.push_back({h, hosts, rate, delay});
  s.cc.algorithm = "none";
  return s;
}

// N:1 incast onto host 0 from hosts 1..n, `size` bytes each, all starting at 0.
inline Scenario IncastScenario(int n, Bytes size, Rate rate = 40 * kGbps) {
  Scenario s = StarScenario(n + 1, rate);
  s.name = "test-incast";
  for (int i = 1; i <= n; ++i) s.flows.push_back({i, 0, size, 0, 3});
  s.explicit_flows = n;
  return s;
}

// One column of a plain CSV file (no quoted commas), by its header name, in row order.
inline std::vector<std::string> CsvColumn(const std::string& path, const std::string& column) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  auto split = [](const std::string& line) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.push_back("");
    return cells;
  };
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split(line);
  size_t index = header.size();
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == column) index = i;
  }
  if (index == header.size()) throw std::runtime_error(path + " has no column " + column);
  std::vector<std::string> values;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = split(line);
    values.push_back(index < cells.size() ? cells[index] : "");
  }
  return values;
}

// Rows of a CSV file, without its header.
inline size_t CsvRowCount(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  size_t rows = 0;
  std::getline(in, line);
  while (std::getline(in, line)) rows += !line.empty();
  return rows;
}

}  // namespace dcqcn::testing
