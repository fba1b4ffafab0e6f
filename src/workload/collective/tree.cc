// tree: NCCL's double binary tree AllReduce (NVIDIA/nccl src/graph/trees.cc, ncclGetDtree).
// Each tree carries half of the data: it is reduced from the leaves to the root and broadcast
// back down. Tree 0 is NCCL's binary tree over the ranks in the order given (root 0, whose one
// child is the largest power of two below n; the other parents found from the lowest set bit);
// tree 1 mirrors it (rank n-1-r) when n is even and shifts it by one (rank r+1) when n is odd,
// so that most ranks that are leaves of one tree are inner nodes of the other.
//
// Pipelining, as NCCL's Simple protocol runs it: the data is cut into chunks of kChunk (its
// 4 MiB buffer over NCCL_STEPS = 8 slots); a rank sends chunk k up once its children's chunk k
// have arrived, and down once its parent's has (the root: once its children's); and at most
// kSlots chunks of one connection are in flight: chunk k + kSlots waits for chunk k's ACK.
#include "workload/collective/tree.h"

#include <algorithm>

#include "workload/collective_builder.h"

namespace dcqcn {
namespace {

constexpr Bytes kChunk = 512 * 1024;
constexpr int kSlots = 8;

}  // namespace

DoubleBinaryTree::Tree DoubleBinaryTree::Binary(int n) {
  Tree t;
  t.parent.assign(n, -1);
  t.children.assign(n, {});
  for (int r = 1; r < n; ++r) {
    int bit = 1;
    while (bit < n && (bit & r) == 0) bit <<= 1;
    int up = (r ^ bit) | (bit << 1);
    if (up >= n) up = r ^ bit;
    t.parent[r] = up;
  }
  // Children in NCCL's order: the lower one first.
  for (int r = 1; r < n; ++r) t.children[t.parent[r]].push_back(r);
  return t;
}

DoubleBinaryTree::Tree DoubleBinaryTree::Make(int n, int which) {
  const Tree base = Binary(n);
  if (which == 0) return base;
  // Rank r of tree 1 plays rank map(r) of tree 0.
  auto to = [n](int r) { return n % 2 == 1 ? (r + 1) % n : n - 1 - r; };
  Tree t;
  t.parent.assign(n, -1);
  t.children.assign(n, {});
  t.root = to(0);
  for (int r = 0; r < n; ++r) {
    if (base.parent[r] >= 0) t.parent[to(r)] = to(base.parent[r]);
    for (int c : base.children[r]) t.children[to(r)].push_back(to(c));
  }
  return t;
}

std::vector<int> DoubleBinaryTree::Depths(const Tree& t) {
  const int n = static_cast<int>(t.parent.size());
  std::vector<int> depth(n, -1);
  depth[t.root] = 0;
  std::vector<int> order = {t.root};
  for (size_t i = 0; i < order.size(); ++i) {
    for (int c : t.children[order[i]]) {
      depth[c] = depth[order[i]] + 1;
      order.push_back(c);
    }
  }
  return depth;
}

namespace {

int Chunks(Bytes data) {
  const Bytes half = CeilDiv(data, 2);
  return static_cast<int>((half + kChunk - 1) / kChunk);
}

void Expand(const CollectiveConfig&, Bytes data, CollectiveBuilder& b) {
  const std::vector<int>& hosts = b.hosts();
  const int n = static_cast<int>(hosts.size());
  const int chunks = Chunks(data);
  const Bytes chunk = CeilDiv(CeilDiv(data, 2), chunks);
  std::vector<CollectiveBuilder::Wait> start(n);
  for (int r = 0; r < n; ++r) start[r] = b.LastReceived(r);
  // For the next step and iteration: what each rank received and sent last (the broadcast).
  std::vector<std::vector<uint32_t>> received(n), sent(n);
  for (int which = 0; which < 2; ++which) {
    b.UseConnectionSet(which);  // NCCL runs each tree on channels of its own
    const DoubleBinaryTree::Tree t = DoubleBinaryTree::Make(n, which);
    const std::vector<int> depth = DoubleBinaryTree::Depths(t);
    std::vector<int> deepest_first(n);
    for (int r = 0; r < n; ++r) deepest_first[r] = r;
    std::stable_sort(deepest_first.begin(), deepest_first.end(),
                     [&](int a, int b) { return depth[a] > depth[b]; });
    // Per chunk, the flow into each rank: up[r] from r to its parent, down[r] from its parent.
    std::vector<std::vector<uint32_t>> up(chunks, std::vector<uint32_t>(n));
    std::vector<std::vector<uint32_t>> down(chunks, std::vector<uint32_t>(n));
    for (int k = 0; k < chunks; ++k) {
      for (int r : deepest_first) {
        if (t.parent[r] < 0) continue;
        std::vector<uint32_t> ids;
        for (int c : t.children[r]) ids.push_back(up[k][c]);
        if (k >= kSlots) ids.push_back(up[k - kSlots][r]);
        up[k][r] =
            b.Add(hosts[r], hosts[t.parent[r]], chunk, ids.empty() ? start[r] : b.After(ids));
      }
    }
    for (int k = 0; k < chunks; ++k) {
      for (auto it = deepest_first.rbegin(); it != deepest_first.rend(); ++it) {
        const int r = *it;
        std::vector<uint32_t> ids;
        if (t.parent[r] < 0) {
          for (int c : t.children[r]) ids.push_back(up[k][c]);
        } else {
          ids.push_back(down[k][r]);
        }
        for (int c : t.children[r]) {
          std::vector<uint32_t> mine = ids;
          if (k >= kSlots) mine.push_back(down[k - kSlots][c]);
          down[k][c] = b.Add(hosts[r], hosts[c], chunk, b.After(mine));
          received[c].push_back(down[k][c]);
          sent[r].push_back(down[k][c]);
        }
      }
    }
  }
  b.Commit(received, sent);
}

}  // namespace

const CollectiveAlgorithm& TreeCollective() {
  static const CollectiveAlgorithm algorithm{
      "tree",
      "NCCL's double binary tree (allreduce): each of two complementary binary trees reduces "
      "half of the data to its root and broadcasts it back, pipelined in 512 KiB chunks",
      [](CollectiveOp op) { return op == CollectiveOp::kAllReduce; },
      [](const CollectiveConfig&, const std::vector<int>&, const CollectiveHosts&) {
        return CollectiveProblem{};
      },
      Expand,
      [](const CollectiveConfig&, Bytes data, const std::vector<int>& hosts,
         const CollectiveHosts&) {
        // Two trees of n - 1 edges, each edge a flow up and one down per chunk.
        return 4 * (hosts.size() - 1) * static_cast<uint64_t>(Chunks(data));
      }};
  return algorithm;
}

}  // namespace dcqcn
