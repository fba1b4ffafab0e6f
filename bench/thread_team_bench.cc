// The cost of one window's synchronisation in a run split over threads (docs/parallel.md): a
// round of ThreadTeam with no work, i.e. releasing the threads and waiting for them all.
#include <benchmark/benchmark.h>

#include "core/thread_team.h"

namespace dcqcn {
namespace {

void BM_ThreadTeamRound(benchmark::State& state) {
  ThreadTeam team(static_cast<int>(state.range(0)));
  const std::function<void(int)> nothing = [](int) {};
  for (auto _ : state) team.Run(nothing);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ThreadTeamRound)->Arg(1)->Arg(2)->UseRealTime();

}  // namespace
}  // namespace dcqcn
