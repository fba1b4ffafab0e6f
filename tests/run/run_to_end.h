// A whole network run to its end, for tests: split over `parts` event loops, checked complete
// with its invariants holding; each flow's finish and the counters kept, and the network shown
// to `before` (ports bound, routes built) and to `after` (once the run is over).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "net/network.h"
#include "scenario/scenario.h"

namespace dcqcn::testing {

struct NetworkRun {
  std::vector<Time> finish;  // by flow id
  NetStats stats;
  Time end() const { return *std::max_element(finish.begin(), finish.end()); }
};

inline NetworkRun RunToEnd(const Scenario& s, int parts = 1,
                           const std::function<void(Network&)>& before = {},
                           const std::function<void(Network&)>& after = {}) {
  NetworkConfig config = ToNetworkConfig(s);
  config.parts = parts;
  Network net(std::move(config));
  if (before) before(net);
  std::unique_ptr<Engine> engine = MakeEngine(net);
  engine->RunUntil(kSecond);
  EXPECT_TRUE(engine->all_done()) << s.source;
  net.CheckInvariants(engine->pending() == 0);
  if (after) after(net);
  NetworkRun run;
  for (uint32_t id = 0; id < net.num_flows(); ++id) run.finish.push_back(net.flow_finish(id));
  run.stats = net.stats();
  return run;
}

}  // namespace dcqcn::testing
