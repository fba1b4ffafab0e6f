// Progressive filling with a lazy heap of links by the rate they can still give each flow.
#include "core/max_min.h"

#include <functional>
#include <queue>
#include <utility>

namespace dcqcn {

std::vector<double> MaxMinShares(const std::vector<std::vector<uint32_t>>& paths,
                                 const std::vector<double>& capacity) {
  const size_t num_links = capacity.size();
  std::vector<double> left = capacity;          // capacity not yet given to fixed flows
  std::vector<uint32_t> unfixed(num_links, 0);  // flows crossing the link still rising
  std::vector<std::vector<uint32_t>> flows_of(num_links);
  for (uint32_t f = 0; f < paths.size(); ++f) {
    for (uint32_t l : paths[f]) {
      ++unfixed[l];
      flows_of[l].push_back(f);
    }
  }
  // (rate each unfixed flow of the link would get, link): entries go stale when the link's
  // flows change, and are skipped then (the rate no longer matches).
  using Entry = std::pair<double, uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  auto level = [&](uint32_t l) { return left[l] / unfixed[l]; };
  for (uint32_t l = 0; l < num_links; ++l) {
    if (unfixed[l] > 0) heap.emplace(level(l), l);
  }
  std::vector<double> share(paths.size(), 0);
  std::vector<bool> fixed(paths.size(), false);
  while (!heap.empty()) {
    const auto [rate, l] = heap.top();
    heap.pop();
    if (unfixed[l] == 0 || rate != level(l)) continue;  // stale
    // The fullest link: its unfixed flows stop rising at `rate`.
    for (uint32_t f : flows_of[l]) {
      if (fixed[f]) continue;
      fixed[f] = true;
      share[f] = rate < 0 ? 0 : rate;
      for (uint32_t k : paths[f]) {
        left[k] -= share[f];
        --unfixed[k];
        if (k != l && unfixed[k] > 0) heap.emplace(level(k), k);
      }
    }
  }
  return share;
}

}  // namespace dcqcn
