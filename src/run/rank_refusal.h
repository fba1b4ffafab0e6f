// An input refused before a run spread over MPI ranks starts: the ranks agree on it and end
// together, so that mpirun shows the one-line error, not MPI_Abort's screen around it.
#pragma once

#include <string>

#include "core/error.h"
#include "engine/rank_exchange.h"

namespace dcqcn {

// The refusal of one rank (the lowest that refused), known to every rank: each ends normally
// (MPI_Finalize, exit 1) and rank 0 alone reports it. Found later, in the run, an error aborts
// every rank instead (MpiWorld::AbortUnlessReleased), since the others would wait for it.
class RefusedOnEveryRank : public InputError {
 public:
  using InputError::InputError;
};

// Collective, at the same point on every rank before its first exchange of a run: each passes
// what it refused ("" for nothing: the scenario and network every rank reads alike, the output
// folder rank 0 alone makes). Throws RefusedOnEveryRank with the lowest refusing rank's message
// when any refused; returns when none did.
void AgreeBeforeRun(RankExchange& ranks, const std::string& refused);

}  // namespace dcqcn
