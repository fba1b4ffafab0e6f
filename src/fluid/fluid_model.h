// The per-flow DCQCN fluid model of CoNEXT'16 (spec section 5): one bottleneck queue with RED/ECN
// marking, and per flow the rate Rc, target rate Rt and alpha, driven by the marking probability
// and the flow's own rate one control-loop delay ago. Counts the queue in packets, as the paper.
#pragma once

#include <atomic>
#include <functional>
#include <span>
#include <vector>

#include "cc/dcqcn/dcqcn_params.h"
#include "cc/ecn_config.h"
#include "core/units.h"

namespace dcqcn::fluid {

// Every parameter of the model. The defaults are the CoNEXT'16 figures' (spec 5): 40G, RED
// 5 KB / 200 KB / 1 %, g 1/256, tau 50 us, tau' = T = 55 us, B = 10 MB, R_AI 40 Mb/s, F = 5.
struct FluidParams {
  Rate capacity = 40 * kGbps;             // C, the bottleneck's rate
  Bytes packet = 1000;                    // the model's packet (CoNEXT'16 model files: 1000 B)
  Time delay = 85 * kMicrosecond;         // tau*, the whole control-loop delay
  Bytes kmin = 5000;                      // RED: no marking at or below
  Bytes kmax = 200000;                    // RED: pmax at kmax, every packet above
  double pmax = 0.01;                     // RED: marking probability at kmax
  double g = 1.0 / 256;                   // alpha gain
  Time cnp_interval = 50 * kMicrosecond;  // tau: at most one CNP per flow per tau
  Time alpha_period = 55 * kMicrosecond;  // tau': alpha update period
  Time timer = 55 * kMicrosecond;         // T: rate-increase timer
  Bytes byte_counter = 10000000;          // B; 0 = no byte-counter increase
  int f = 5;                              // F: fast-recovery steps
  Rate rai = 40 * kMbps;                  // R_AI: additive-increase step
  Rate min_rate = 0;                      // floor of Rc (the paper's model has none)

  bool operator==(const FluidParams&) const = default;
};

// The model's parameters from the packet model's: `ecn`, the bottleneck port's RED curve, and
// `dcqcn`, the reaction and notification points' parameters (the model has no hyper increase and
// follows the paper mode); C, the model's packet and tau* from the caller.
FluidParams FluidParamsFrom(const EcnConfig& ecn, const DcqcnParams& dcqcn, Rate capacity,
                            Bytes packet, Time delay);

// One flow: when it starts and its state then. Before its start a flow sends nothing.
struct FluidFlow {
  Time start = 0;
  Rate rc = 0;  // 0 = line rate
  Rate rt = 0;  // 0 = line rate
  double alpha = 1.0;
};

// A snapshot of the model in the user's units.
struct FluidState {
  double time_s = 0;
  double queue_bytes = 0;
  double mark_prob = 0;            // p(q(t)), the marking probability at the queue now
  std::span<const double> rc_bps;  // per flow
  std::span<const double> rt_bps;
  std::span<const double> alpha;
  int active = 0;  // flows started
};

struct FluidOptions {
  Time step = 1 * kMicrosecond;  // RK4 step (reduced to the delay if larger)
  Time duration = 100 * kMillisecond;
  Time sample = 10 * kMicrosecond;  // observer period (rounded to whole steps)
  // Set asynchronously (a signal handler) to stop: RunFluid throws Interrupted soon after.
  const std::atomic<bool>* stop = nullptr;
};

struct FluidRunStats {
  long substeps = 0;  // RK4 steps, splits included
  long splits = 0;    // steps split where the delayed queue crosses Kmin or Kmax
  double step_s = 0;  // the step used
};

// The RED marking probability of a queue of q bytes (spec 3): 0 up to Kmin, linear to Pmax at
// Kmax, 1 above.
double MarkProbability(const FluidParams& p, double queue_bytes);

// Integrates the model from t = 0, every flow's history before 0 being its initial state and the
// queue empty. Calls `observe` at t = 0 and every sample period. Throws std::invalid_argument for
// a parameter outside its domain, Interrupted once `options.stop` is set.
FluidRunStats RunFluid(const FluidParams& params, std::span<const FluidFlow> flows,
                       const FluidOptions& options,
                       const std::function<void(const FluidState&)>& observe);

// N flows starting together at line rate with alpha = 1 (the paper's set-up).
std::vector<FluidFlow> IdenticalFlows(int n);

}  // namespace dcqcn::fluid
