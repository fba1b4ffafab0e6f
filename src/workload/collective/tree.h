#pragma once

#include <vector>

#include "workload/collective_algorithm.h"

namespace dcqcn {

const CollectiveAlgorithm& TreeCollective();

// NCCL's double binary tree over n ranks (for the expansion and its tests).
struct DoubleBinaryTree {
  struct Tree {
    int root = 0;
    std::vector<int> parent;                 // -1 at the root
    std::vector<std::vector<int>> children;  // at most two, lower first in tree 0
  };
  // Tree 0 (which = 0) or tree 1.
  static Tree Make(int n, int which);
  static Tree Binary(int n);
  // Each rank's distance from the root.
  static std::vector<int> Depths(const Tree& t);
};

}  // namespace dcqcn
