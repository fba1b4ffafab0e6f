// Benchmark of the DCQCN fluid model: 100 ms of N identical flows at 40G, 85 us, the default step.
#include <benchmark/benchmark.h>

#include "fluid/fluid_model.h"

namespace dcqcn::fluid {
namespace {

void BM_Fluid100ms(benchmark::State& state) {
  FluidParams p;
  FluidOptions o;
  const std::vector<FluidFlow> flows = IdenticalFlows(static_cast<int>(state.range(0)));
  double q = 0;
  for (auto _ : state) {
    RunFluid(p, flows, o, [&](const FluidState& s) { q += s.queue_bytes; });
  }
  benchmark::DoNotOptimize(q);
  state.SetLabel("100 ms simulated per iteration");
}
BENCHMARK(BM_Fluid100ms)->Arg(2)->Arg(10)->Arg(64)->Unit(benchmark::kMillisecond);

// Flows that differ (start rates spread over 50-100% of line rate): no terms shared between flows.
void BM_Fluid100msDistinct(benchmark::State& state) {
  FluidParams p;
  FluidOptions o;
  const int n = static_cast<int>(state.range(0));
  std::vector<FluidFlow> flows(n);
  for (int i = 0; i < n; ++i) flows[i].rc = p.capacity / 2 + p.capacity / 2 * i / n;
  double q = 0;
  for (auto _ : state) {
    RunFluid(p, flows, o, [&](const FluidState& s) { q += s.queue_bytes; });
  }
  benchmark::DoNotOptimize(q);
  state.SetLabel("100 ms simulated per iteration");
}
BENCHMARK(BM_Fluid100msDistinct)->Arg(64)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dcqcn::fluid
