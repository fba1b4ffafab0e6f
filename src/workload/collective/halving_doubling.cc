// halving_doubling: recursive halving (reducescatter: step k, rank i exchanges size / 2^(k+1)
// with rank i xor n/2^(k+1)) and recursive doubling (allgather: step k, size 2^k / n with rank
// i xor 2^k); allreduce is both. n a power of two.
#include "workload/collective/halving_doubling.h"

#include <fmt/format.h>

#include "workload/collective_builder.h"

namespace dcqcn {
namespace {

int Log2(uint64_t n) {
  int log = 0;
  while ((uint64_t{1} << log) < n) ++log;
  return log;
}

void Expand(const CollectiveConfig& c, Bytes data, CollectiveBuilder& b) {
  const int n = static_cast<int>(b.hosts().size());
  const int log = Log2(n);
  if (c.op != CollectiveOp::kAllGather) {  // a reduce-scatter half
    for (int k = 0; k < log; ++k) {
      Step step;
      for (int i = 0; i < n; ++i) step.push_back({i, i ^ (n >> (k + 1)), CeilDiv(data, 2 << k)});
      b.Run(step);
    }
  }
  if (c.op != CollectiveOp::kReduceScatter) {  // an all-gather half
    for (int k = 0; k < log; ++k) {
      Step step;
      for (int i = 0; i < n; ++i) {
        step.push_back({i, i ^ (1 << k), CeilDiv(data * (Bytes{1} << k), n)});
      }
      b.Run(step);
    }
  }
}

}  // namespace

const CollectiveAlgorithm& HalvingDoublingCollective() {
  static const CollectiveAlgorithm algorithm{
      "halving_doubling",
      "recursive halving and doubling (allreduce, reducescatter, allgather): log2(n) steps each "
      "way, exchanging with rank i xor 2^k; n a power of two",
      [](CollectiveOp op) { return op != CollectiveOp::kAllToAll; },
      [](const CollectiveConfig&, const std::vector<int>& hosts, const CollectiveHosts&) {
        if (PowerOfTwo(hosts.size())) return CollectiveProblem{};
        return CollectiveProblem{
            "ranks", fmt::format("halving_doubling needs a power-of-two number of ranks, got {}",
                                 hosts.size())};
      },
      Expand,
      [](const CollectiveConfig& c, Bytes, const std::vector<int>& hosts, const CollectiveHosts&) {
        const uint64_t n = hosts.size();
        const uint64_t halves = c.op == CollectiveOp::kAllReduce ? 2 : 1;
        return halves * static_cast<uint64_t>(Log2(n)) * n;
      }};
  return algorithm;
}

}  // namespace dcqcn
