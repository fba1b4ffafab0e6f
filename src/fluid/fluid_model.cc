// The DCQCN fluid model's right-hand side (spec 5) and its integration with DdeRk4.
#include "fluid/fluid_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/error.h"
#include "fluid/dde_rk4.h"
#include "fluid/fluid_terms.h"

namespace dcqcn::fluid {

double MarkProbability(const FluidParams& p, double queue_bytes) {
  const double kmin = static_cast<double>(p.kmin), kmax = static_cast<double>(p.kmax);
  if (queue_bytes <= kmin) return 0;
  if (queue_bytes > kmax) return 1;
  return p.pmax * (queue_bytes - kmin) / (kmax - kmin);
}

std::vector<FluidFlow> IdenticalFlows(int n) { return std::vector<FluidFlow>(n); }

namespace {

// State layout: y[0] = queue [packets]; flow i: y[1+3i] = Rc, y[2+3i] = Rt [packets/s],
// y[3+3i] = alpha.
class FluidSystem {
 public:
  FluidSystem(const FluidParams& p, std::span<const FluidFlow> flows)
      : c_(ModelConstants::From(p)), n_(static_cast<int>(flows.size())) {
    for (const FluidFlow& f : flows) start_.push_back(static_cast<double>(f.start) / kSecond);
  }
  int Dim() const { return 1 + 3 * n_; }
  const ModelConstants& constants() const { return c_; }

  // The marking probability on the piece `region` of the RED curve (0: below Kmin, 1: linear,
  // 2: above Kmax), extended across the piece's ends so that a sub-step sees a smooth function.
  double PieceProbability(int region, double q) const {
    if (region == 0) return 0;
    if (region == 2) return 1;
    return std::clamp(c_.pmax * (q - c_.kmin) / (c_.kmax - c_.kmin), 0.0, 1.0);
  }

  void Derivative(double t, const double* y, const HermiteHistory& h, const Piece& piece,
                  double* dy) const {
    const HermiteHistory::Point at = h.Locate(t - c_.delay);
    const MarkTerms m = MarkTerms::From(c_, PieceProbability(piece.region, h.Value(at, 0)));
    double sum_rc = 0;
    FlowTerms ft{};
    double last_r = -1;
    for (int i = 0; i < n_; ++i) {
      const int o = 1 + 3 * i;
      if (start_[i] > piece.t_mid) {
        dy[o] = dy[o + 1] = dy[o + 2] = 0;
        continue;
      }
      const double rc = std::min(y[o], c_.cap), rt = std::min(y[o + 1], c_.cap);
      const double alpha = y[o + 2];
      sum_rc += rc;
      const double r = std::max(h.Value(at, o), 0.0);
      // Flows that sent at the same rate one delay ago (identical flows: all of them) share
      // their terms, which cost two exponentials.
      if (r != last_r) {
        ft = ComputeFlowTerms(c_, m, r);
        last_r = r;
      }
      double drc = -rc * alpha * ft.a / (2 * c_.tau) + 0.5 * (rt - rc) * (ft.rb + ft.rd);
      double drt = -(rt - rc) * ft.a / c_.tau + c_.rai * (ft.rc + ft.re);
      if (rc >= c_.cap && drc > 0) drc = 0;
      if (rc <= c_.min_rate && drc < 0) drc = 0;
      if (rt >= c_.cap && drt > 0) drt = 0;
      dy[o] = drc;
      dy[o + 1] = drt;
      dy[o + 2] = c_.g / c_.tau_alpha * (ft.alpha_target - alpha);
    }
    double dq = sum_rc - c_.cap;
    // Only at exactly 0: a stage that overshoots below 0 keeps the smooth extension, and the
    // stepper ends the step where the queue reaches 0 instead.
    if (y[0] == 0.0 && dq < 0) dq = 0;
    dy[0] = dq;
  }

  void Project(double* y) const {
    y[0] = std::max(y[0], 0.0);
    for (int i = 0; i < n_; ++i) {
      const int o = 1 + 3 * i;
      y[o] = std::clamp(y[o], c_.min_rate, c_.cap);
      y[o + 1] = std::clamp(y[o + 1], 0.0, c_.cap);
      y[o + 2] = std::clamp(y[o + 2], 0.0, 1.0);
    }
  }

 private:
  ModelConstants c_;
  int n_;
  std::vector<double> start_;
};

void Check(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("fluid model: " + what);
}

}  // namespace

FluidRunStats RunFluid(const FluidParams& params, std::span<const FluidFlow> flows,
                       const FluidOptions& options,
                       const std::function<void(const FluidState&)>& observe) {
  Check(params.capacity > 0, "the rate must be positive");
  Check(params.packet > 0, "the packet size must be positive");
  Check(params.delay > 0, "the control-loop delay must be positive");
  Check(params.kmin >= 0 && params.kmax >= params.kmin, "need 0 <= kmin <= kmax");
  Check(params.pmax > 0 && params.pmax <= 1, "pmax must be in (0, 1]");
  Check(params.g > 0 && params.g <= 1, "g must be in (0, 1]");
  Check(params.cnp_interval > 0 && params.alpha_period > 0 && params.timer > 0,
        "the CNP interval, alpha period and timer must be positive");
  Check(params.byte_counter >= 0 && params.f >= 0 && params.rai >= 0 && params.min_rate >= 0,
        "byte counter, F, R_AI and the minimum rate must not be negative");
  Check(!flows.empty(), "no flows");
  Check(options.step > 0 && options.duration > 0, "the step and duration must be positive");

  FluidSystem sys(params, flows);
  const ModelConstants& k = sys.constants();
  const int n = static_cast<int>(flows.size());
  const double h =
      std::min(static_cast<double>(options.step), static_cast<double>(params.delay)) / kSecond;
  std::vector<double> y(sys.Dim(), 0.0), zero(sys.Dim(), 0.0);
  std::vector<double> breakpoints;
  for (int i = 0; i < n; ++i) {
    const FluidFlow& f = flows[i];
    Check(f.start >= 0 && f.rc >= 0 && f.rt >= 0 && f.alpha >= 0 && f.alpha <= 1,
          "flow " + std::to_string(i) + ": bad start time or initial state");
    y[1 + 3 * i] = f.rc > 0 ? std::min(static_cast<double>(f.rc) / 8 / k.packet, k.cap) : k.cap;
    y[2 + 3 * i] = f.rt > 0 ? std::min(static_cast<double>(f.rt) / 8 / k.packet, k.cap) : k.cap;
    y[3 + 3 * i] = f.alpha;
    if (f.start > 0) breakpoints.push_back(static_cast<double>(f.start) / kSecond);
  }
  std::vector<double> levels = {k.kmin};
  if (k.kmax > k.kmin) levels.push_back(k.kmax);
  DdeRk4<FluidSystem> dde(sys, 0.0, h, k.delay, 0, levels, breakpoints);
  dde.SetNonNegative(0);
  // Constant history: the queue empty and every flow in its initial state.
  dde.PushHistory(-k.delay - h, y, zero);
  dde.PushHistory(0.0, y, zero);

  std::vector<double> rc(n), rt(n), alpha(n);
  auto emit = [&] {
    std::span<const double> s = dde.state();
    FluidState st;
    st.time_s = dde.time();
    st.queue_bytes = s[0] * k.packet;
    st.mark_prob = MarkProbability(params, st.queue_bytes);
    for (int i = 0; i < n; ++i) {
      rc[i] = s[1 + 3 * i] * 8 * k.packet;
      rt[i] = s[2 + 3 * i] * 8 * k.packet;
      alpha[i] = s[3 + 3 * i];
      if (static_cast<double>(flows[i].start) / kSecond <= st.time_s) ++st.active;
    }
    st.rc_bps = rc;
    st.rt_bps = rt;
    st.alpha = alpha;
    observe(st);
  };
  emit();
  const double duration = static_cast<double>(options.duration) / kSecond;
  const long steps_per_sample =
      std::max<long>(1, std::lround(static_cast<double>(options.sample) / kSecond / h));
  const long total = static_cast<long>(std::ceil(duration / h - 1e-9));
  // Between samples, advanced in slices of steps, so that a stop request is seen within
  // milliseconds whatever the sample period. AdvanceTo stops at every multiple of the step
  // anyway: slicing changes no result.
  constexpr long kStopCheckSteps = 4096;
  long done = 0;
  for (long i = steps_per_sample;; i += steps_per_sample) {
    const long to = std::min(i, total);
    while (done < to) {
      if (options.stop != nullptr && options.stop->load()) {
        throw Interrupted("interrupted: no results written");
      }
      done = std::min(to, done + kStopCheckSteps);
      dde.AdvanceTo(std::min(static_cast<double>(done) * h, duration));
    }
    emit();
    if (i >= total) break;
  }
  FluidRunStats stats;
  stats.substeps = dde.steps();
  stats.splits = dde.splits();
  stats.step_s = h;
  return stats;
}

FluidParams FluidParamsFrom(const EcnConfig& ecn, const DcqcnParams& dcqcn, Rate capacity,
                            Bytes packet, Time delay) {
  FluidParams p;
  p.capacity = capacity;
  p.packet = packet;
  p.delay = delay;
  p.kmin = ecn.kmin;
  p.kmax = ecn.kmax;
  p.pmax = ecn.pmax;
  p.g = dcqcn.g;
  p.cnp_interval = dcqcn.cnp_interval;
  p.alpha_period = dcqcn.alpha_period;
  p.timer = dcqcn.timer;
  p.byte_counter = dcqcn.byte_counter;
  p.f = dcqcn.f;
  p.rai = dcqcn.rai;
  p.min_rate = dcqcn.min_rate;
  return p;
}

}  // namespace dcqcn::fluid
