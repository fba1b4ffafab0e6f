// Incast and permutation generators.
#include "workload/generators.h"

#include <fmt/format.h>

#include <numeric>
#include <utility>

#include "core/error.h"
#include "core/rng.h"
#include "workload/poisson.h"

namespace dcqcn {
namespace {

[[noreturn]] void Fail(const WorkloadInput& s, const std::string& what) {
  throw InputError(fmt::format("{}: workload: {}", s.source, what));
}

FlowSpec MakeFlow(const WorkloadConfig& w, int src, int dst, uint16_t tag) {
  FlowSpec f;
  f.src = src;
  f.dst = dst;
  f.size = w.size;
  f.start = w.start;
  f.priority = w.priority;
  f.tag = tag;
  return f;
}

// Uniform over all derangements: shuffle, and reshuffle while some host would send to itself.
// About 1/e of permutations are derangements, so this takes e tries on average for any H >= 2.
std::vector<int> RandomDerangement(int n, Rng& rng) {
  std::vector<int> perm(n);
  for (;;) {
    std::iota(perm.begin(), perm.end(), 0);
    for (int i = n - 1; i > 0; --i) {  // Fisher-Yates with our own Below(): portable
      std::swap(perm[i], perm[rng.Below(static_cast<uint64_t>(i) + 1)]);
    }
    bool fixed_point = false;
    for (int i = 0; i < n && !fixed_point; ++i) fixed_point = perm[i] == i;
    if (!fixed_point) return perm;
  }
}

}  // namespace

std::string DefaultWorkloadTag(const std::string& type) {
  if (type == "poisson") return "background";
  return type;
}

std::vector<int> IncastSenders(const WorkloadConfig& workload, int hosts) {
  if (!workload.senders.empty()) return workload.senders;
  std::vector<int> senders;
  for (int h = 0; h < hosts && static_cast<int>(senders.size()) < workload.sender_count; ++h) {
    if (h != workload.receiver) senders.push_back(h);
  }
  return senders;
}

void GenerateWorkload(const WorkloadInput& s, std::vector<FlowSpec>& flows, FlowTags& tags) {
  const WorkloadConfig& w = s.workload;
  const int hosts = s.topology.hosts;
  if (w.type.empty()) return;
  const uint16_t tag = tags.Index(w.tag.empty() ? DefaultWorkloadTag(w.type) : w.tag);
  if (w.size <= 0 && w.type != "poisson")
    Fail(s, fmt::format("size = {} bytes, expected > 0", w.size));
  if (w.type == "incast") {
    if (w.receiver < 0 || w.receiver >= hosts) {
      Fail(s, fmt::format("receiver {} is not a host (0..{})", w.receiver, hosts - 1));
    }
    if (w.senders.empty() && (w.sender_count < 1 || w.sender_count > hosts - 1)) {
      Fail(s, fmt::format("senders = {}, expected 1..{} (hosts other than the receiver)",
                          w.sender_count, hosts - 1));
    }
    for (int src : IncastSenders(w, hosts)) {
      if (src < 0 || src >= hosts || src == w.receiver) {
        Fail(s, fmt::format("sender {} is not a host other than the receiver", src));
      }
      flows.push_back(MakeFlow(w, src, w.receiver, tag));
    }
  } else if (w.type == "permutation") {
    if (hosts < 2) Fail(s, "permutation needs at least 2 hosts");
    Rng rng(s.seed, kPermutationRngStream);
    std::vector<int> perm = RandomDerangement(hosts, rng);
    for (int h = 0; h < hosts; ++h) flows.push_back(MakeFlow(w, h, perm[h], tag));
  } else if (w.type == "poisson") {
    GeneratePoisson(s, flows, tags);
  } else {
    Fail(s, fmt::format("unknown type \"{}\", expected incast, permutation or poisson", w.type));
  }
}

}  // namespace dcqcn
