// Agreeing on a refused input before a run over MPI ranks starts.
#include "run/rank_refusal.h"

#include <vector>

namespace dcqcn {

void AgreeBeforeRun(RankExchange& ranks, const std::string& refused) {
  // Every rank hands its refusal ("" for none) to every rank.
  const std::vector<std::string> all =
      ranks.AllToAll(std::vector<std::string>(static_cast<size_t>(ranks.ranks()), refused));
  for (const std::string& message : all) {
    if (!message.empty()) throw RefusedOnEveryRank(message);
  }
}

}  // namespace dcqcn
