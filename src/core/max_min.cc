// Progressive filling with a lazy heap of links by the rate they can still give each flow.
#include "core/max_min.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace dcqcn {
namespace {

// Restores the order of a heap (smallest first) whose top entry has grown: one pass down, where
// popping it and pushing it again would take two.
void SiftDown(std::vector<std::pair<double, uint32_t>>& heap) {
  const size_t n = heap.size();
  const std::pair<double, uint32_t> top = heap[0];
  size_t i = 0;
  while (true) {
    size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && heap[child + 1] < heap[child]) ++child;
    if (!(heap[child] < top)) break;
    heap[i] = heap[child];
    i = child;
  }
  heap[i] = top;
}

}  // namespace

std::vector<double> MaxMinShares(const std::vector<std::vector<uint32_t>>& paths,
                                 const std::vector<double>& capacity) {
  std::vector<std::vector<LinkUse>> weighted(paths.size());
  for (size_t f = 0; f < paths.size(); ++f) {
    weighted[f].reserve(paths[f].size());
    for (uint32_t l : paths[f]) weighted[f].push_back({l, 1.0});
  }
  return WeightedMaxMinShares(weighted, capacity);
}

std::vector<double> WeightedMaxMinShares(const std::vector<std::vector<LinkUse>>& paths,
                                         const std::vector<double>& capacity) {
  std::vector<std::span<const LinkUse>> of(paths.begin(), paths.end());
  MaxMinSolver solver(capacity);
  return solver.Solve(of);
}

MaxMinSolver::MaxMinSolver(std::vector<double> capacity)
    : capacity_(std::move(capacity)),
      left_(capacity_.size(), 0),
      rising_(capacity_.size(), 0),
      unfixed_(capacity_.size(), 0),
      count_(capacity_.size(), 0),
      first_(capacity_.size(), 0) {}

const std::vector<double>& MaxMinSolver::Solve(const std::vector<std::span<const LinkUse>>& paths) {
  touched_.clear();
  for (const std::span<const LinkUse> path : paths) {
    for (const LinkUse& u : path) {
      if (count_[u.link] == 0) {
        touched_.push_back(u.link);
        left_[u.link] = capacity_[u.link];
        rising_[u.link] = 0;
      }
      rising_[u.link] += u.weight;
      ++count_[u.link];
    }
  }
  uint32_t next = 0;
  for (const uint32_t l : touched_) {
    first_[l] = next;
    next += count_[l];
    unfixed_[l] = 0;  // counts the flows placed, then those still rising
  }
  members_.resize(next);
  for (uint32_t f = 0; f < paths.size(); ++f) {
    for (const LinkUse& u : paths[f]) members_[first_[u.link] + unfixed_[u.link]++] = f;
  }
  // (rate each unfixed flow of the link would get, link), smallest first. A link's rate only
  // rises as flows elsewhere are fixed (they leave it at least its rate each), so an entry is a
  // lower bound of its link's rate: one that no longer matches goes back in with the rate it
  // has now, and the first entry that matches is the fullest link. (A push at every change
  // gives the same shares but for rounding: a rate that should stay put may fall by its last
  // bit, and links tied at one rate may then be taken in another order.)
  const auto later = std::greater<>();
  auto level = [&](uint32_t l) { return left_[l] / rising_[l]; };
  heap_.clear();
  for (uint32_t l : touched_) heap_.emplace_back(level(l), l);
  std::make_heap(heap_.begin(), heap_.end(), later);
  share_.assign(paths.size(), 0);
  fixed_.assign(paths.size(), 0);
  // Each link has one entry, so the order the links are taken in follows from the entries'
  // values alone, however the heap was built. Once every flow is fixed the rest are done.
  size_t rising = 0;
  for (const std::span<const LinkUse> path : paths) rising += path.empty() ? 0 : 1;
  while (rising > 0 && !heap_.empty()) {
    const auto [rate, l] = heap_.front();
    if (unfixed_[l] == 0) {  // its flows are fixed
      std::pop_heap(heap_.begin(), heap_.end(), later);
      heap_.pop_back();
      continue;
    }
    if (rate != level(l)) {  // stale: its rate now, in place of the old entry
      heap_.front().first = level(l);
      SiftDown(heap_);
      continue;
    }
    std::pop_heap(heap_.begin(), heap_.end(), later);
    heap_.pop_back();
    // The fullest link: its unfixed flows stop rising at `rate`.
    for (uint32_t k = first_[l]; k < first_[l] + count_[l]; ++k) {
      const uint32_t f = members_[k];
      if (fixed_[f]) continue;
      fixed_[f] = 1;
      --rising;
      share_[f] = rate < 0 ? 0 : rate;
      for (const LinkUse& u : paths[f]) {
        left_[u.link] -= u.weight * share_[f];
        rising_[u.link] -= u.weight;
        --unfixed_[u.link];
      }
    }
  }
  for (uint32_t l : touched_) count_[l] = 0;
  return share_;
}

}  // namespace dcqcn
