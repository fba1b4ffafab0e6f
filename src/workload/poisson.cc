// Poisson background flows and incast events.
#include "workload/poisson.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.h"
#include "core/rng.h"
#include "workload/cdf.h"
#include "workload/generators.h"

namespace dcqcn {
namespace {

[[noreturn]] void Fail(const WorkloadInput& s, const std::string& what) {
  throw InputError(fmt::format("{}: workload: {}", s.source, what));
}

// Generated workloads are held in memory, so their size is bounded where it is decided.
constexpr double kMaxGeneratedFlows = 20e6;

void CheckExpectedFlows(const WorkloadInput& s, double expected, const char* key) {
  if (expected > kMaxGeneratedFlows) {
    Fail(s, fmt::format("{} and window would generate about {:.3g} flows; at most {:.0f} million "
                        "are supported (lower workload.{} or workload.window)",
                        key, expected, kMaxGeneratedFlows / 1e6, key));
  }
}

}  // namespace

double PoissonArrivalsPerSecond(double load, Rate rate, double mean_size) {
  return load * static_cast<double>(rate) / (8 * mean_size);
}

void GeneratePoisson(const WorkloadInput& s, std::vector<FlowSpec>& flows, FlowTags& tags) {
  const WorkloadConfig& w = s.workload;
  const int hosts = s.topology.hosts;
  if (hosts < 2) Fail(s, "poisson needs at least 2 hosts");
  if (!(w.load >= 0 && w.load <= 1)) Fail(s, fmt::format("load = {}, expected 0..1", w.load));
  if (w.window <= 0) Fail(s, "window must be > 0");
  if (w.load == 0 && w.incast_fanin == 0) {
    Fail(s, "load = 0 and no incast events: the workload would start no flows");
  }
  if (w.incast_fanin < 0 || w.incast_fanin > hosts - 1) {
    Fail(s, fmt::format("incast fanin = {}, expected 1..{} (hosts other than the receiver)",
                        w.incast_fanin, hosts - 1));
  }
  if (w.incast_fanin > 0 && (w.incast_size <= 0 || !(w.incast_rate > 0))) {
    Fail(s, "incast events need a size > 0 and a rate > 0 events per second");
  }
  if (w.start > kTimeNever - w.window) Fail(s, "start + window is beyond the largest time");
  const Time end = w.start + w.window;
  const uint16_t tag = tags.Index(w.tag.empty() ? DefaultWorkloadTag(w.type) : w.tag);
  const uint16_t incast_tag = tags.Index(kIncastTag);
  // Generated straight into `flows` (a workload may have millions), then put in start order.
  const size_t first = flows.size();
  // Expected flows, checked before generating: a tiny load or rate must not make the arrival
  // loop run past the window, and a huge one must not exhaust memory.
  double expected = 0;
  const double window_s = static_cast<double>(w.window) / static_cast<double>(kSecond);

  if (w.load > 0) {
    const FlowSizeCdf cdf = LoadFlowSizeCdf(w.cdf);
    const double mean_size = cdf.Mean();
    // Each host's own link rate: hosts of a fabric may differ.
    std::vector<Rate> host_rate(hosts, 0);
    for (const LinkSpec& l : s.topology.links) {
      if (l.a < hosts) host_rate[l.a] = l.rate;
      if (l.b < hosts) host_rate[l.b] = l.rate;
    }
    for (int h = 0; h < hosts; ++h) {
      expected += PoissonArrivalsPerSecond(w.load, host_rate[h], mean_size) * window_s;
    }
    CheckExpectedFlows(s, expected, "load");
    // Room for the expected count and six standard deviations more, so that the vector rarely
    // has to grow (and then hold up to twice what it needs).
    flows.reserve(first + static_cast<size_t>(expected + 6 * std::sqrt(expected) + 64));
    Rng rng(s.seed, kPoissonRngStream);
    for (int h = 0; h < hosts; ++h) {
      if (host_rate[h] <= 0) continue;  // an unconnected host (the topology check reports it)
      const double per_s = PoissonArrivalsPerSecond(w.load, host_rate[h], mean_size);
      const double mean_gap = static_cast<double>(kSecond) / per_s;  // picoseconds
      // Accumulate in double so that rounding each arrival does not bias the rate.
      double t = static_cast<double>(w.start);
      for (;;) {
        t += rng.Exponential(mean_gap);
        if (!(t < static_cast<double>(end))) break;  // also when the gap is beyond any time
        const Time start = std::llround(t);
        if (start >= end) break;
        FlowSpec f;
        f.src = h;
        f.size = cdf.Sample(rng);
        const int d = static_cast<int>(rng.Below(static_cast<uint64_t>(hosts - 1)));
        f.dst = d >= h ? d + 1 : d;  // uniform over the other hosts
        f.start = start;
        f.priority = w.priority;
        f.tag = tag;
        flows.push_back(f);
      }
    }
  }

  if (w.incast_fanin > 0) {
    Rng rng(s.seed, kIncastEventRngStream);
    // A partial Fisher-Yates shuffle of `pool` picks the receiver (slot 0) and the senders
    // (slots 1..fanin) in O(fanin); leaving the pool permuted between events keeps every pick
    // uniform, because a partial shuffle of any arrangement is.
    std::vector<int> pool(hosts);
    std::iota(pool.begin(), pool.end(), 0);
    CheckExpectedFlows(s, w.incast_rate * window_s * w.incast_fanin, "incast.rate");
    const double mean_gap = static_cast<double>(kSecond) / w.incast_rate;
    double t = static_cast<double>(w.start);
    for (;;) {
      t += rng.Exponential(mean_gap);
      if (!(t < static_cast<double>(end))) break;
      const Time start = std::llround(t);
      if (start >= end) break;
      for (int i = 0; i <= w.incast_fanin; ++i) {
        const uint64_t j = static_cast<uint64_t>(i) + rng.Below(static_cast<uint64_t>(hosts - i));
        std::swap(pool[i], pool[j]);
      }
      for (int i = 1; i <= w.incast_fanin; ++i) {
        FlowSpec f;
        f.src = pool[i];
        f.dst = pool[0];
        f.size = w.incast_size;
        f.start = start;
        f.priority = w.priority;
        f.tag = incast_tag;
        flows.push_back(f);
      }
    }
  }

  // By start time; equal starts stay in generation order.
  std::stable_sort(flows.begin() + static_cast<ptrdiff_t>(first), flows.end(),
                   [](const FlowSpec& a, const FlowSpec& b) { return a.start < b.start; });
}

}  // namespace dcqcn
