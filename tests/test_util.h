// Helpers shared by tests: programmatic scenarios that do not go through the TOML loader.
#pragma once

#include <string>

#include "scenario/scenario.h"

namespace dcqcn::testing {

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

}  // namespace dcqcn::testing
