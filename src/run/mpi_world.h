// The processes of `mpirun -np N dcqcn sweep|run|hpcc ...`: MPI is joined only when an MPI launcher
// started this process, and only in a binary built with MPI (CMake finds OpenMPI); without it,
// a launched process says so instead of doing the whole sweep or run N times over.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/rank_exchange.h"

namespace dcqcn {

// Whether this binary was built with MPI.
bool BuiltWithMpi();

// Whether the environment says an MPI launcher (mpirun, mpiexec, srun) started this process.
bool LaunchedByMpi();

class MpiWorld;
// The MPI world when a launcher started this process and this binary has MPI; null when no
// launcher did. A binary without MPI started as one of several processes throws InputError
// (each would run the whole sweep); started alone (srun with a PMI plugin sets the variables
// for any step) it runs as usual.
std::unique_ptr<MpiWorld> JoinMpiIfLaunched();

// Also what one run spread over the ranks (`mpirun -np P dcqcn run`) exchanges between windows:
// MPI's collectives.
class MpiWorld final : public RankExchange {
 public:
  // MPI_Init_thread (only the calling thread talks to MPI). Throws InputError when this binary
  // has no MPI.
  MpiWorld();
  // Rank 0 with ranks still waiting for work (it failed midway): MPI_Abort, so that no rank
  // waits forever. Otherwise MPI_Finalize.
  ~MpiWorld() override;
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const override { return rank_; }
  int size() const { return size_; }
  int ranks() const override { return size_; }
  std::vector<std::string> AllToAll(const std::vector<std::string>& out) override;
  std::vector<std::vector<int64_t>> AllGather(const std::vector<int64_t>& mine) override;

  void Send(int to, int tag, const std::string& bytes);
  // The next message with `tag` from `from` (-1: any rank): its sender and bytes. Polls with
  // short sleeps rather than MPI's busy wait, so that a rank that also simulates on another
  // thread leaves its core to that thread.
  std::pair<int, std::string> Receive(int from, int tag);

  // Rank 0: every other rank has been told there is no more work (finalize, don't abort).
  void ReleasedRanks() { released_ = true; }
  // Every rank of one run spread over the ranks: a rank that fails midway (not released) aborts
  // them all, since the others would wait for it forever.
  void AbortUnlessReleased() { abort_unless_released_ = true; }
  bool released() const { return released_; }

 private:
  int rank_ = 0;
  int size_ = 1;
  bool released_ = false;
  bool abort_unless_released_ = false;
};

}  // namespace dcqcn
