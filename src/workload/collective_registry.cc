// The registry: one line per collective algorithm.
#include "workload/collective/direct.h"
#include "workload/collective/halving_doubling.h"
#include "workload/collective/hierarchical.h"
#include "workload/collective/ring.h"
#include "workload/collective/tree.h"
#include "workload/collective_algorithm.h"

namespace dcqcn {

const std::vector<const CollectiveAlgorithm*>& CollectiveAlgorithms() {
  static const std::vector<const CollectiveAlgorithm*> algorithms = {
      // One line per algorithm; an op's default is the first that implements it.
      // clang-format off
      &RingCollective(),
      &HalvingDoublingCollective(),
      &DirectCollective(),
      &HierarchicalCollective(),
      &TreeCollective(),
      // clang-format on
  };
  return algorithms;
}

const CollectiveAlgorithm* FindCollectiveAlgorithm(std::string_view name) {
  for (const CollectiveAlgorithm* a : CollectiveAlgorithms()) {
    if (a->name == name) return a;
  }
  return nullptr;
}

const CollectiveAlgorithm& DefaultCollectiveAlgorithm(CollectiveOp op) {
  for (const CollectiveAlgorithm* a : CollectiveAlgorithms()) {
    if (a->implements(op)) return *a;
  }
  return *CollectiveAlgorithms().front();  // every op has one (collective_registry_test)
}

std::vector<std::string_view> CollectiveAlgorithmNames() {
  std::vector<std::string_view> names;
  for (const CollectiveAlgorithm* a : CollectiveAlgorithms()) names.push_back(a->name);
  return names;
}

}  // namespace dcqcn
