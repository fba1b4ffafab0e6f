// The DDE integrator's order of accuracy on equations with known solutions: halving the step must
// cut the error about 16 times (RK4 with cubic Hermite history).
#include "fluid/dde_rk4.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace dcqcn::fluid {
namespace {

// y'(t) = -w y(t - d) with w d = pi/2 and y = sin(w t) before 0: the solution is sin(w t).
struct SineDde {
  double w, d;
  int Dim() const { return 1; }
  void Derivative(double t, const double*, const HermiteHistory& h, const Piece&,
                  double* dy) const {
    dy[0] = -w * h.Value(h.Locate(t - d), 0);
  }
  void Project(double*) const {}
};

// The largest error at multiples of `every` up to 10.
double SineError(double delay, double step, std::vector<double> levels = {}, double every = 0.125) {
  const SineDde sys{std::numbers::pi / 2 / delay, delay};
  DdeRk4<SineDde> dde(sys, 0, step, delay, levels.empty() ? -1 : 0, levels, {});
  const int n = static_cast<int>(std::ceil((delay + step) / step));
  for (int i = n; i >= 0; --i) {
    const double t = -i * step;
    const double y = std::sin(sys.w * t), dy = sys.w * std::cos(sys.w * t);
    dde.PushHistory(t, {&y, 1}, {&dy, 1});
  }
  double worst = 0;
  for (int i = 1; i * every <= 10 + 1e-9; ++i) {
    dde.AdvanceTo(i * every);
    worst = std::max(worst, std::abs(dde.state()[0] - std::sin(sys.w * i * every)));
  }
  return worst;
}

TEST(FluidDde, FourthOrderOnSine) {
  // Delay a multiple of the step: the error ratio is clean.
  const double e1 = SineError(1, 1.0 / 8), e2 = SineError(1, 1.0 / 16), e3 = SineError(1, 1.0 / 32);
  EXPECT_LT(e1, 1e-4);
  EXPECT_NEAR(e1 / e2, 16, 2);
  EXPECT_NEAR(e2 / e3, 16, 2);
  // Delay pi/2, not a multiple: where the delayed points fall between knots changes with the
  // step, so single ratios wobble (8..25), but the slope over four halvings is 4.
  const double f1 = SineError(std::numbers::pi / 2, 0.1, {}, 0.1),
               f4 = SineError(std::numbers::pi / 2, 0.0125, {}, 0.1);
  EXPECT_NEAR(std::log2(f1 / f4) / 3, 4, 0.3);
}

TEST(FluidDde, SplitsDoNotCostAccuracyOnASmoothEquation) {
  // Levels where the right-hand side is in fact smooth: steps are split where the delayed value
  // crosses 0.5 (and one and two delays later), but the answer must stay as accurate.
  const double e1 = SineError(1, 1.0 / 8, {0.5}), e2 = SineError(1, 1.0 / 16, {0.5});
  EXPECT_LT(e1, 2 * SineError(1, 1.0 / 8));
  // The extra knots make the steps uneven, so the ratio is less regular than 16.
  EXPECT_GT(e1 / e2, 7);
}

// y'(t) = -y(t - 1) + (y(t - 1) < 0.5 ? 1 : 0): the right-hand side jumps where the delayed value
// crosses 0.5. The solution is piecewise smooth; with the split (and its echoes one and two
// delays later) the error still falls ~16x per halving against a very fine reference.
struct JumpDde {
  int Dim() const { return 1; }
  void Derivative(double t, const double*, const HermiteHistory& h, const Piece& piece,
                  double* dy) const {
    dy[0] = -h.Value(h.Locate(t - 1), 0) + (piece.region == 0 ? 1.0 : 0.0);
  }
  void Project(double*) const {}
};

std::vector<double> JumpRun(double step) {
  JumpDde sys;
  DdeRk4<JumpDde> dde(sys, 0, step, 1.0, 0, {0.5}, {});
  const double y = 1, dy = 0;
  dde.PushHistory(-1 - step, {&y, 1}, {&dy, 1});
  dde.PushHistory(0, {&y, 1}, {&dy, 1});
  std::vector<double> out;
  for (int i = 1; i <= 48; ++i) {
    dde.AdvanceTo(i / 8.0);
    out.push_back(dde.state()[0]);
  }
  return out;
}

TEST(FluidDde, FourthOrderAcrossAJumpInTheRightHandSide) {
  const std::vector<double> ref = JumpRun(1.0 / 2048), a = JumpRun(1.0 / 16), b = JumpRun(1.0 / 32);
  double ea = 0, eb = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    ea = std::max(ea, std::abs(a[i] - ref[i]));
    eb = std::max(eb, std::abs(b[i] - ref[i]));
  }
  EXPECT_LT(ea, 1e-7);
  EXPECT_GT(ea / eb, 10) << ea << " " << eb;
}

}  // namespace
}  // namespace dcqcn::fluid
