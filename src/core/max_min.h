// Max-min fair shares of flows over links: the reference against which the normalised Jain index
// (output/metrics.h) reads the flows' throughputs, how an NVLink crossbar shares its ports
// (net/nvlink_fabric.h) and how the flow-level model shares the fabric (net/flow_level_fabric.h).
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace dcqcn {

// Each flow's max-min fair rate when every flow of `paths` sends at once over the links it
// crosses (indices into `capacity`, in any unit): progressive filling (Bertsekas and Gallager,
// "Data Networks", 6.5.2) raises every flow's rate together and fixes the flows of a link when
// it fills. A flow that crosses no link gets 0 (it has no share). A flow's own rate limit is a
// link of its own.
std::vector<double> MaxMinShares(const std::vector<std::vector<uint32_t>>& paths,
                                 const std::vector<double>& capacity);

// A link a flow crosses, and how much of the link one unit of the flow's rate takes (a data
// stream's frames with their headers on the links it crosses; its ACKs' on the links back).
struct LinkUse {
  uint32_t link;
  double weight;
};
// The same with weights: every flow's rate rises together, and a link fills when the weighted
// sum of its flows' rates reaches its capacity (weights 1: MaxMinShares, to the last bit).
std::vector<double> WeightedMaxMinShares(const std::vector<std::vector<LinkUse>>& paths,
                                         const std::vector<double>& capacity);

// WeightedMaxMinShares solved again and again over the same links: its work and memory follow
// the links the flows cross, not every link there is, and nothing is allocated once it has
// seen its largest problem.
class MaxMinSolver {
 public:
  explicit MaxMinSolver(std::vector<double> capacity);
  // The shares of the flows whose paths are `paths`, by index.
  const std::vector<double>& Solve(const std::vector<std::span<const LinkUse>>& paths);

 private:
  static constexpr uint32_t kUntouched = UINT32_MAX;
  // A link of the problem being solved.
  struct Link {
    double left;       // capacity not yet given to fixed flows
    double rising;     // the weights of its flows still rising
    uint32_t unfixed;  // how many of its flows still rise
    uint32_t count;    // its flows: members_[first .. first + count), in order
    uint32_t id;       // its index among all links
    uint32_t first = 0;
  };
  std::vector<double> capacity_;
  std::vector<uint32_t> local_;     // by link: its index in links_ while a problem is set up
  std::vector<Link> links_;         // the problem's links, in the order first met
  std::vector<LinkUse> uses_;       // the flows' paths over links_ (LinkUse::link indexes it)
  std::vector<uint32_t> path_end_;  // by flow: the end of its path in uses_
  std::vector<uint32_t> members_;
  std::vector<std::pair<double, uint64_t>> heap_;  // (rate, link's id << 32 | index in links_)
  std::vector<double> share_;
  std::vector<uint8_t> fixed_;
};

}  // namespace dcqcn
