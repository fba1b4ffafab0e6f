// A route set by hand ([[route]]): at switch `sw`, packets to the hosts `dsts` leave towards the
// next hops `next` (over every cable to them), instead of the computed shortest paths. How the
// classic PFC deadlocks are built: a ring whose routes go one way, a stale route after a link
// failure. A route into a loop is allowed (that is the point); Network::RouteLoops finds them.
#pragma once

#include <vector>

namespace dcqcn {

struct StaticRoute {
  int sw = 0;             // node id of the switch
  std::vector<int> dsts;  // host node ids
  std::vector<int> next;  // node ids of the next hops, each cabled to `sw`; ECMP among them
};

}  // namespace dcqcn
