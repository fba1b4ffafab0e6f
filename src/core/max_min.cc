// Progressive filling with a lazy heap of links by the rate they can still give each flow.
#include "core/max_min.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace dcqcn {
namespace {

// Restores the order of a heap (smallest first) whose top entry has grown: one pass down, where
// popping it and pushing it again would take two.
template <typename Entry>
void SiftDown(std::vector<Entry>& heap) {
  const size_t n = heap.size();
  const Entry top = heap[0];
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
    : capacity_(std::move(capacity)), local_(capacity_.size(), kUntouched) {}

const std::vector<double>& MaxMinSolver::Solve(const std::vector<std::span<const LinkUse>>& paths) {
  // The problem's links numbered in the order first met, their state side by side: a problem
  // takes a few links of many, and one line each serves every step below.
  links_.clear();
  uses_.clear();
  path_end_.clear();
  size_t rising = 0;  // flows not yet fixed (a flow of no link never is): once none, done
  for (const std::span<const LinkUse> path : paths) {
    rising += path.empty() ? 0 : 1;
    for (const LinkUse& u : path) {
      uint32_t& local = local_[u.link];
      if (local == kUntouched) {
        local = static_cast<uint32_t>(links_.size());
        links_.push_back({capacity_[u.link], 0, 0, 0, u.link});
      }
      links_[local].rising += u.weight;
      ++links_[local].count;
      uses_.push_back({local, u.weight});
    }
    path_end_.push_back(static_cast<uint32_t>(uses_.size()));
  }
  uint32_t next = 0;
  for (Link& l : links_) {
    local_[l.id] = kUntouched;
    l.first = next;
    next += l.count;
    l.unfixed = 0;  // counts the flows placed, then those still rising
  }
  members_.resize(next);
  for (uint32_t f = 0, k = 0; f < paths.size(); ++f) {
    for (; k < path_end_[f]; ++k) {
      Link& l = links_[uses_[k].link];
      members_[l.first + l.unfixed++] = f;
    }
  }
  // (rate each unfixed flow of the link would get, link), smallest first, ties by the link's
  // index among all. A link's rate only rises as flows elsewhere are fixed (they leave it at
  // least its rate each), so an entry is a lower bound of its link's rate: one that no longer
  // matches takes the rate it has now, and the first entry that matches is the fullest link.
  // (A new entry at every change gives the same shares but for rounding: a rate that should
  // stay put may fall by its last bit, and links tied at one rate may then be taken in another
  // order.) Each link has one entry, so the order the links are taken in follows from the
  // entries' values alone, however the heap was built.
  const auto later = std::greater<>();
  auto level = [&](uint32_t l) { return links_[l].left / links_[l].rising; };
  auto key = [&](uint32_t l) { return static_cast<uint64_t>(links_[l].id) << 32 | l; };
  heap_.clear();
  for (uint32_t l = 0; l < links_.size(); ++l) heap_.emplace_back(level(l), key(l));
  std::make_heap(heap_.begin(), heap_.end(), later);
  share_.assign(paths.size(), 0);
  fixed_.assign(paths.size(), 0);
  while (rising > 0 && !heap_.empty()) {
    const double rate = heap_.front().first;
    const auto l = static_cast<uint32_t>(heap_.front().second);
    if (links_[l].unfixed == 0) {  // its flows are fixed
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
    const Link& full = links_[l];
    for (uint32_t k = full.first; k < full.first + full.count; ++k) {
      const uint32_t f = members_[k];
      if (fixed_[f]) continue;
      fixed_[f] = 1;
      --rising;
      share_[f] = rate < 0 ? 0 : rate;
      for (uint32_t u = f == 0 ? 0 : path_end_[f - 1]; u < path_end_[f]; ++u) {
        Link& on = links_[uses_[u].link];
        on.left -= uses_[u].weight * share_[f];
        on.rising -= uses_[u].weight;
        --on.unfixed;
      }
    }
  }
  return share_;
}

}  // namespace dcqcn
