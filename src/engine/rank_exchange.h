// The processes one run is spread over (`mpirun -np P dcqcn run`): this one's rank, and the two
// collective exchanges RankEngine needs between windows. The engine holds no transport of its
// own: run/ implements this over MPI (MpiWorld).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dcqcn {

class RankExchange {
 public:
  virtual ~RankExchange() = default;
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  // Every rank hands `out[r]` to each rank r (its own included); returns what each rank handed
  // this one, by sender. Collective: every rank calls it, in the same order.
  virtual std::vector<std::string> AllToAll(const std::vector<std::string>& out) = 0;
  // Every rank gives `mine` (as long as every other rank's); returns them all, by rank.
  // Collective.
  virtual std::vector<std::vector<int64_t>> AllGather(const std::vector<int64_t>& mine) = 0;
};

}  // namespace dcqcn
