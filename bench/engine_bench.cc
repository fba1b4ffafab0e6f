// Micro-benchmarks of the engine's hot paths: the event queue and the MMU.
#include <benchmark/benchmark.h>

#include "core/rng.h"
#include "core/simulator.h"
#include "net/mmu.h"

namespace dcqcn {
namespace {

// Steady state of a queue holding `range(0)` events: pop one, push one a random delay later.
void BM_EventQueueHold(benchmark::State& state) {
  EventQueue q;
  Rng rng(1);
  for (int64_t i = 0; i < state.range(0); ++i) {
    q.Push(static_cast<Time>(rng.Below(1000000)), 0, nullptr, 0);
  }
  for (auto _ : state) {
    Event e = q.Pop();
    q.Push(e.time + static_cast<Time>(rng.Below(1000000)), 0, nullptr, 0);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EventQueueHold)->Arg(64)->Arg(4096)->Arg(262144);

void BM_MmuAdmitRelease(benchmark::State& state) {
  SwitchConfig c;
  Mmu mmu(c, std::vector<Bytes>(32, 20000), 1, 1066);
  Rng rng(2);
  for (auto _ : state) {
    int port = static_cast<int>(rng.Below(32));
    benchmark::DoNotOptimize(mmu.Admit(port, 3, 1066));
    benchmark::DoNotOptimize(mmu.ShouldPause(port, 3));
    mmu.Release(port, 3, 1066);
    benchmark::DoNotOptimize(mmu.ShouldResume(port, 3));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MmuAdmitRelease);

}  // namespace
}  // namespace dcqcn
