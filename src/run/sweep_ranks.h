// A sweep's runs spread over the ranks of `mpirun -np N dcqcn sweep`, assigned dynamically:
// rank 0 hands out one run at a time to whichever rank asks (itself included), so long and short
// runs mix and no rank idles while runs remain. Each rank writes the folder of the runs it runs;
// rank 0 gets every run's result back as bytes and writes the tables once.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "run/mpi_world.h"

namespace dcqcn {

// Runs run `i` on this rank, writing into the sweep's folder `folder`; its result as bytes, or
// nullopt when the run was interrupted.
using RunOnRank = std::function<std::optional<std::string>(size_t i, const std::string& folder)>;

// Rank 0. Sends every rank `folder`, then hands out `todo` in order, one run at a time, to the
// rank that asks; runs its share on a second thread while this one serves the others. Calls
// `done(i, result, rank)` for every finished run, one call at a time. After an interrupted run no
// run starts; returns false then. Every rank has finished its last run when this returns.
bool CoordinateRuns(MpiWorld& world, const std::string& folder, const std::vector<size_t>& todo,
                    const RunOnRank& run,
                    const std::function<void(size_t, std::string, int)>& done);

// Rank 0 when the sweep cannot start (rank 0 reports why): the other ranks return 1.
void CancelRanks(MpiWorld& world);

// Ranks > 0: waits for rank 0's folder, then runs what it hands out until it has no more.
// Returns 0, or 1 when rank 0 cancelled the sweep.
int ServeRuns(MpiWorld& world, const RunOnRank& run);

}  // namespace dcqcn
