// Tests of the DCQCN reaction point against docs/dcqcn-rp-semantics.md, and of the parameter
// profiles. Every expected rate and alpha is recomputed here with the doc's expressions in the
// doc's order, so the comparisons are exact (EXPECT_EQ on doubles).
#include "cc/dcqcn/dcqcn_rp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iomanip>
#include <tuple>

#include "cc/dcqcn/dcqcn_params.h"
#include "core/error.h"
#include "core/units.h"

namespace dcqcn {
namespace {

constexpr Rate kLine = 40 * kGbps;
constexpr double kLineD = 40e9;
// Not 0, so an anchor or grid wrongly placed at time 0 shows up.
constexpr Time kT0 = 1 * kMillisecond;
constexpr Time kUs = kMicrosecond;

// Paper-mode parameters with every field the RP reads set here, so no test depends on the
// profile's defaults. Tests override what they exercise.
DcqcnParams PaperParams() {
  DcqcnParams p = DcqcnParams::Profile("paper");
  p.mode = DcqcnParams::Mode::kPaper;
  p.stage_rule = DcqcnParams::StageRule::kPaper;
  p.g = 1.0 / 256;
  p.initial_alpha = 1.0;
  p.alpha_period = 55 * kUs;
  p.rate_reduce_period = 4 * kUs;
  p.timer = 55 * kUs;
  p.byte_counter = 0;
  p.f = 5;
  p.rai = 40 * kMbps;
  p.rhai = 200 * kMbps;
  p.hai_scaled = false;
  p.min_rate = 100 * kMbps;
  p.min_dec_factor = 0;
  p.rate_on_first_cnp = 0;
  p.clamp_target_rate = true;
  p.clamp_after_time_inc = true;
  p.cut_uses_new_alpha = false;
  p.cap_target_at_line = true;
  p.cnp_interval = 50 * kUs;
  p.cnp_on_ack = false;
  return p;
}

// Sampled-mode parameters of the brief: K = 1us, P = 4us, T = 300us, F = 1, no byte counter,
// HPCC stage rule, no unconditional clamp.
DcqcnParams SampledParams() {
  DcqcnParams p = PaperParams();
  p.mode = DcqcnParams::Mode::kSampled;
  p.stage_rule = DcqcnParams::StageRule::kHpcc;
  p.alpha_period = 1 * kUs;
  p.rate_reduce_period = 4 * kUs;
  p.timer = 300 * kUs;
  p.f = 1;
  p.byte_counter = 0;
  p.rai = 5 * kMbps;
  p.rhai = 50 * kMbps;
  p.clamp_target_rate = false;
  p.clamp_after_time_inc = true;
  return p;
}

// --- Expected values, in the doc's expression order. ---

// Alpha at a cut (paper mode) or at a sampled tick with the flag set.
double AlphaUp(double a, double g) { return (1 - g) * a + g; }
// Alpha at a tick without a CNP.
double AlphaDecay(double a, double g) { return (1 - g) * a + 0.0; }
double AlphaDecayTimes(double a, double g, int n) {
  for (int i = 0; i < n; ++i) a = AlphaDecay(a, g);
  return a;
}

// Rc after a cut (step 3) from `rc` with `alpha`.
double CutRc(double rc, double alpha, const DcqcnParams& p) {
  double factor = 1 - alpha / 2;
  if (factor < p.min_dec_factor) factor = p.min_dec_factor;
  return std::max(static_cast<double>(p.min_rate), rc * factor);
}

struct Rates {
  double rc;
  double rt;
};

// After every step: snap when the gap is below 1 bps, then cap Rc at line rate.
double Settle(double rt, double rc) {
  if (rt - rc < 1.0) rc = rt;
  return std::min(rc, kLineD);
}
// Fast recovery: Rt unchanged, Rc halfway to it.
Rates Fr(Rates r) { return {Settle(r.rt, (r.rt + r.rc) / 2), r.rt}; }
// Additive or hyper increase by `step`.
Rates Raise(Rates r, Rate step, bool cap_target_at_line) {
  double rt = r.rt;
  rt += static_cast<double>(step);
  if (cap_target_at_line) rt = std::min(rt, kLineD);
  return {Settle(rt, (rt + r.rc) / 2), rt};
}

::testing::AssertionResult RatesAre(const DcqcnRp& rp, Rates want) {
  if (rp.rc() == want.rc && rp.rt() == want.rt) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << std::setprecision(17) << "rc " << rp.rc() << " (want " << want.rc << "), rt " << rp.rt()
         << " (want " << want.rt << ")";
}

auto Tie(const DcqcnRpCounters& c) {
  return std::make_tuple(c.cnps, c.cuts, c.fast_recovery, c.additive, c.hyper, c.timer_events,
                         c.byte_events);
}

// ===================================================================================== creation

TEST(DcqcnRp, CreationStateBeforeFirstCnp) {
  // Creation sets Rc = Rt = the flow's rate and alpha = initial_alpha with a full byte counter;
  // nothing runs (no deadline) until the first CNP is handled.
  DcqcnParams p = PaperParams();
  p.initial_alpha = 0.75;
  p.byte_counter = 4096;
  DcqcnRp rp(&p, kLine, 12.5e9, kT0);
  EXPECT_EQ(rp.rc(), 12.5e9);
  EXPECT_EQ(rp.rt(), 12.5e9);
  EXPECT_EQ(rp.alpha(kT0), 0.75);
  EXPECT_EQ(rp.timer_stage(), 0);
  EXPECT_EQ(rp.byte_stage(), 0);
  EXPECT_EQ(rp.bytes_to_next_increase(), 4096);
  EXPECT_EQ(rp.next_deadline(), kTimeNever);
  EXPECT_EQ(Tie(rp.counters()), Tie(DcqcnRpCounters{}));
}

// ====================================================================================== cut order

TEST(DcqcnRp, FirstCnpCutsWithOldAlphaThenUpdatesAlpha) {
  // Paper order (Cut steps 1, 3, 4): Rt = Rc, Rc *= 1 - alpha/2 with alpha0 = 1, then alpha is
  // updated; the increase timer is armed at now + T with both stages at 0.
  DcqcnParams p = PaperParams();
  p.initial_alpha = 1.0;
  p.byte_counter = 1000;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  EXPECT_EQ(rp.rc(), kLineD * (1 - 1.0 / 2));
  EXPECT_EQ(rp.rt(), kLineD);
  EXPECT_EQ(rp.alpha(kT0), (1 - p.g) * 1.0 + p.g);
  EXPECT_EQ(rp.timer_stage(), 0);
  EXPECT_EQ(rp.byte_stage(), 0);
  EXPECT_EQ(rp.bytes_to_next_increase(), 1000);
  EXPECT_EQ(rp.next_deadline(), kT0 + p.timer);
  EXPECT_EQ(rp.counters().cnps, 1u);
  EXPECT_EQ(rp.counters().cuts, 1u);
}

TEST(DcqcnRp, CutUsesOldAlpha) {
  // With alpha0 = 0.5 the paper cut is 25% (old alpha), not the ~25.2% the updated alpha would
  // give; alpha is updated once, after the cut.
  DcqcnParams p = PaperParams();
  p.initial_alpha = 0.5;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  EXPECT_EQ(rp.rc(), kLineD * (1 - 0.5 / 2));
  EXPECT_EQ(rp.rc(), 30e9);
  EXPECT_EQ(rp.rt(), kLineD);
  EXPECT_EQ(rp.alpha(kT0), AlphaUp(0.5, p.g));
}

TEST(DcqcnRp, CutUsesNewAlphaWhenConfigured) {
  // cut_uses_new_alpha (ns3-rdma): step 2 updates alpha before the cut and step 4 is skipped, so
  // each CNP updates alpha exactly once.
  DcqcnParams p = PaperParams();
  p.initial_alpha = 0.5;
  p.cut_uses_new_alpha = true;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  const double a1 = AlphaUp(0.5, p.g);
  const double rc1 = CutRc(kLineD, a1, p);
  EXPECT_EQ(rp.rc(), rc1);
  EXPECT_EQ(rp.alpha(kT0), a1);
  rp.OnCnp(kT0 + 1 * kUs);
  const double a2 = AlphaUp(a1, p.g);
  EXPECT_EQ(rp.rc(), CutRc(rc1, a2, p));
  EXPECT_EQ(rp.rt(), rc1);
  EXPECT_EQ(rp.alpha(kT0 + 1 * kUs), a2);
}

// ============================================================================== alpha (paper)

TEST(DcqcnRp, PaperAlphaDecaysOnceEveryKAfterTheCut) {
  // Paper mode: ticks at anchor + n*K with the anchor at the cut; a tick exactly at `now` counts,
  // one picosecond earlier it does not.
  DcqcnParams p = PaperParams();
  p.initial_alpha = 0.5;
  p.alpha_period = 55 * kUs;
  p.timer = 1 * kSecond;  // keep the increase timer out of the way
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  const double a1 = AlphaUp(0.5, p.g);
  const Time k = p.alpha_period;
  EXPECT_EQ(rp.alpha(kT0 + k - 1), a1);
  EXPECT_EQ(rp.alpha(kT0 + k), AlphaDecay(a1, p.g));
  for (int n = 1; n <= 20; ++n) {
    SCOPED_TRACE(n);
    EXPECT_EQ(rp.alpha(kT0 + n * k - 1), AlphaDecayTimes(a1, p.g, n - 1));
    EXPECT_EQ(rp.alpha(kT0 + n * k), AlphaDecayTimes(a1, p.g, n));
  }
}

TEST(DcqcnRp, PaperAlphaSameWhetherAdvancedOrComputedLazily) {
  // The lazy decay must be bit-identical to a periodic timer: advancing at irregular times
  // (moving the anchor to the last applied tick) gives exactly the same alpha as one query.
  DcqcnParams p = PaperParams();
  p.initial_alpha = 0.5;
  p.timer = 1 * kSecond;
  const Time k = p.alpha_period;
  DcqcnRp lazy(&p, kLine, kLineD, kT0);
  DcqcnRp stepped(&p, kLine, kLineD, kT0);
  lazy.OnCnp(kT0);
  stepped.OnCnp(kT0);
  for (Time t : {kT0 + 7 * kUs, kT0 + k, kT0 + k + 3, kT0 + 3 * k - 1, kT0 + 3 * k,
                 kT0 + 7 * k + k / 2, kT0 + 19 * k}) {
    stepped.AdvanceTo(t);
  }
  const double want = AlphaDecayTimes(AlphaUp(0.5, p.g), p.g, 20);
  EXPECT_EQ(lazy.alpha(kT0 + 20 * k), want);
  EXPECT_EQ(stepped.alpha(kT0 + 20 * k), want);
}

TEST(DcqcnRp, PaperLaterCnpRestartsTheAlphaPeriod) {
  // A CNP at K/2 moves the anchor: no tick at K, the next one at K/2 + K. The second cut uses the
  // alpha updated by the first CNP (old alpha again).
  DcqcnParams p = PaperParams();
  p.initial_alpha = 0.5;
  p.timer = 1 * kSecond;
  const Time k = p.alpha_period;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  const double a1 = AlphaUp(0.5, p.g);
  const double rc1 = CutRc(kLineD, 0.5, p);
  rp.OnCnp(kT0 + k / 2);
  const double a2 = AlphaUp(a1, p.g);
  EXPECT_EQ(rp.rc(), CutRc(rc1, a1, p));
  EXPECT_EQ(rp.alpha(kT0 + k / 2), a2);
  EXPECT_EQ(rp.alpha(kT0 + k), a2);
  EXPECT_EQ(rp.alpha(kT0 + k / 2 + k - 1), a2);
  EXPECT_EQ(rp.alpha(kT0 + k / 2 + k), AlphaDecay(a2, p.g));
  EXPECT_EQ(rp.alpha(kT0 + k / 2 + 3 * k), AlphaDecayTimes(a2, p.g, 3));
}

TEST(DcqcnRp, PaperCnpAfterTicksCutsWithDecayedAlpha) {
  // A CNP exactly at anchor + 2K first applies both ticks (due at or before now), cuts with the
  // decayed alpha, then updates it and re-anchors at the CNP.
  DcqcnParams p = PaperParams();
  p.initial_alpha = 0.5;
  p.timer = 1 * kSecond;
  const Time k = p.alpha_period;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  const double rc1 = CutRc(kLineD, 0.5, p);
  const double a_before = AlphaDecayTimes(AlphaUp(0.5, p.g), p.g, 2);
  rp.OnCnp(kT0 + 2 * k);
  const double a_after = AlphaUp(a_before, p.g);
  EXPECT_EQ(rp.rc(), CutRc(rc1, a_before, p));
  EXPECT_EQ(rp.alpha(kT0 + 2 * k), a_after);
  EXPECT_EQ(rp.alpha(kT0 + 3 * k - 1), a_after);
  EXPECT_EQ(rp.alpha(kT0 + 3 * k), AlphaDecay(a_after, p.g));
}

// ============================================================================ increase stages

TEST(DcqcnRp, PaperStagesTimerOnlyDoFastRecoveryThenAdditiveForever) {
  // F = 5, B = 0: the timer fires at cut + nT; the event increments it first, so it = 1..4 are
  // FR. With the byte counter off ib stays 0, so min(it, ib) never reaches F: every later event
  // is AI, never HI (ns3-rdma's behaviour with its byte counter effectively disabled).
  DcqcnParams p = PaperParams();
  p.f = 5;
  p.byte_counter = 0;
  p.timer = 55 * kUs;
  p.hai_scaled = false;
  DcqcnRp rp(&p, kLine, 10e9, kT0);
  rp.OnCnp(kT0);
  Rates want{CutRc(10e9, 1.0, p), 10e9};
  ASSERT_TRUE(RatesAre(rp, want));
  const Time t = p.timer;
  for (int n = 1; n <= 7; ++n) {
    SCOPED_TRACE(n);
    EXPECT_EQ(rp.next_deadline(), kT0 + n * t);
    rp.AdvanceTo(kT0 + n * t - 1);
    EXPECT_TRUE(RatesAre(rp, want));
    EXPECT_EQ(rp.timer_stage(), n - 1);
    rp.AdvanceTo(kT0 + n * t);
    want = n < 5 ? Fr(want) : Raise(want, p.rai, p.cap_target_at_line);
    EXPECT_TRUE(RatesAre(rp, want));
    EXPECT_EQ(rp.timer_stage(), n);
    EXPECT_EQ(rp.byte_stage(), 0);
    EXPECT_EQ(rp.counters().fast_recovery, static_cast<uint64_t>(std::min(n, 4)));
    EXPECT_EQ(rp.counters().additive, static_cast<uint64_t>(std::max(0, n - 4)));
    EXPECT_EQ(rp.counters().hyper, 0u);
    EXPECT_EQ(rp.counters().timer_events, static_cast<uint64_t>(n));
  }
  EXPECT_EQ(rp.rt(), 10e9 + 3 * 40e6);
  // B == 0: bytes never count.
  const Rates before{rp.rc(), rp.rt()};
  rp.OnBytesSent(kT0 + 7 * t + 1, 1000000000);
  EXPECT_TRUE(RatesAre(rp, before));
  EXPECT_EQ(rp.counters().byte_events, 0u);
  EXPECT_EQ(rp.byte_stage(), 0);
}

TEST(DcqcnRp, PaperStagesTimerOnlyNeverHyperEvenWhenScaled) {
  // hai_scaled changes nothing without the byte counter: HI needs both counts past F.
  DcqcnParams p = PaperParams();
  p.f = 5;
  p.byte_counter = 0;
  p.hai_scaled = true;
  DcqcnRp rp(&p, kLine, 10e9, kT0);
  rp.OnCnp(kT0);
  Rates want{CutRc(10e9, 1.0, p), 10e9};
  for (int n = 1; n <= 7; ++n) {
    SCOPED_TRACE(n);
    rp.AdvanceTo(kT0 + n * p.timer);
    want = n < 5 ? Fr(want) : Raise(want, p.rai, p.cap_target_at_line);
    EXPECT_TRUE(RatesAre(rp, want));
  }
  EXPECT_EQ(rp.rt(), 10e9 + 3 * 40e6);
  EXPECT_EQ(rp.counters().hyper, 0u);
}

TEST(DcqcnRp, ByteCounterCountsDownAndFiresAtExactlyZero) {
  // OnBytesSent subtracts from byte_left; reaching exactly 0 is an event (<= 0), which reloads B,
  // increments ib and does not move the rate timer.
  DcqcnParams p = PaperParams();
  p.byte_counter = 1000;
  DcqcnRp rp(&p, kLine, 10e9, kT0);
  rp.OnCnp(kT0);
  Rates want{CutRc(10e9, 1.0, p), 10e9};
  EXPECT_EQ(rp.bytes_to_next_increase(), 1000);
  rp.OnBytesSent(kT0 + 1 * kUs, 300);
  EXPECT_EQ(rp.bytes_to_next_increase(), 700);
  rp.OnBytesSent(kT0 + 2 * kUs, 699);
  EXPECT_EQ(rp.bytes_to_next_increase(), 1);
  EXPECT_TRUE(RatesAre(rp, want));
  EXPECT_EQ(rp.counters().byte_events, 0u);
  rp.OnBytesSent(kT0 + 3 * kUs, 1);
  want = Fr(want);
  EXPECT_TRUE(RatesAre(rp, want));
  EXPECT_EQ(rp.bytes_to_next_increase(), 1000);
  EXPECT_EQ(rp.byte_stage(), 1);
  EXPECT_EQ(rp.timer_stage(), 0);
  EXPECT_EQ(rp.counters().byte_events, 1u);
  EXPECT_EQ(rp.counters().timer_events, 0u);
  EXPECT_EQ(rp.counters().fast_recovery, 1u);
  EXPECT_EQ(rp.next_deadline(), kT0 + p.timer);
}

TEST(DcqcnRp, ByteCounterSeveralEventsFromOneCall) {
  // One large OnBytesSent runs the while loop: 3500 bytes from 1000 left is 3 events (-2500,
  // -1500, -500 -> 500 left); then 1500 more is 2 events (-1000 -> 0 is still an event -> 1000).
  // ib 1..4 are FR, ib = 5 with it = 0 is AI (lo = 5, hi = 0).
  DcqcnParams p = PaperParams();
  p.byte_counter = 1000;
  p.f = 5;
  DcqcnRp rp(&p, kLine, 10e9, kT0);
  rp.OnCnp(kT0);
  Rates want{CutRc(10e9, 1.0, p), 10e9};
  rp.OnBytesSent(kT0 + 1 * kUs, 3500);
  for (int i = 0; i < 3; ++i) want = Fr(want);
  EXPECT_TRUE(RatesAre(rp, want));
  EXPECT_EQ(rp.bytes_to_next_increase(), 500);
  EXPECT_EQ(rp.byte_stage(), 3);
  EXPECT_EQ(rp.counters().byte_events, 3u);
  rp.OnBytesSent(kT0 + 2 * kUs, 1500);
  want = Fr(want);
  want = Raise(want, p.rai, p.cap_target_at_line);
  EXPECT_TRUE(RatesAre(rp, want));
  EXPECT_EQ(rp.bytes_to_next_increase(), 1000);
  EXPECT_EQ(rp.byte_stage(), 5);
  EXPECT_EQ(rp.counters().byte_events, 5u);
  EXPECT_EQ(rp.counters().fast_recovery, 4u);
  EXPECT_EQ(rp.counters().additive, 1u);
  EXPECT_EQ(rp.next_deadline(), kT0 + p.timer);
}

TEST(DcqcnRp, ByteCounterOnTimerReachingFGivesAdditive) {
  // Contrast with B == 0: with B > 0, hi = min(it, ib), so the timer alone reaching F gives AI
  // (hi = 0 < F), never HI.
  DcqcnParams p = PaperParams();
  p.byte_counter = 1000000000;
  p.f = 5;
  DcqcnRp rp(&p, kLine, 10e9, kT0);
  rp.OnCnp(kT0);
  Rates want{CutRc(10e9, 1.0, p), 10e9};
  for (int n = 1; n <= 7; ++n) {
    SCOPED_TRACE(n);
    rp.AdvanceTo(kT0 + n * p.timer);
    want = n < 5 ? Fr(want) : Raise(want, p.rai, p.cap_target_at_line);
    EXPECT_TRUE(RatesAre(rp, want));
  }
  EXPECT_EQ(rp.counters().fast_recovery, 4u);
  EXPECT_EQ(rp.counters().additive, 3u);
  EXPECT_EQ(rp.counters().hyper, 0u);
}

TEST(DcqcnRp, PaperStagesWithByteCounter) {
  // B > 0: FR while max(it, ib) < F; AI once one count reaches F; HI only when both have, with
  // step rhai * (min(it, ib) - F + 1) if hai_scaled, else rhai.
  for (bool scaled : {false, true}) {
    SCOPED_TRACE(scaled ? "hai_scaled" : "unscaled");
    DcqcnParams p = PaperParams();
    p.byte_counter = 1000;
    p.f = 5;
    p.timer = 100 * kUs;
    p.hai_scaled = scaled;
    const Time t = p.timer;
    DcqcnRp rp(&p, kLine, 10e9, kT0);
    rp.OnCnp(kT0);
    Rates want{CutRc(10e9, 1.0, p), 10e9};
    // ib = 1..4: FR; ib = 5, 6: AI (it = 0).
    for (int k = 1; k <= 6; ++k) {
      SCOPED_TRACE(k);
      rp.OnBytesSent(kT0 + k * kUs, 1000);
      want = k < 5 ? Fr(want) : Raise(want, p.rai, true);
      EXPECT_TRUE(RatesAre(rp, want));
      EXPECT_EQ(rp.byte_stage(), k);
    }
    // it = 1..4 with ib = 6: AI (hi = it < F).
    for (int n = 1; n <= 4; ++n) {
      SCOPED_TRACE(n);
      rp.AdvanceTo(kT0 + n * t);
      want = Raise(want, p.rai, true);
      EXPECT_TRUE(RatesAre(rp, want));
      EXPECT_EQ(rp.timer_stage(), n);
    }
    // it = 5, ib = 6: HI with hi = 5 (step x1).
    rp.AdvanceTo(kT0 + 5 * t);
    want = Raise(want, p.rhai, true);
    EXPECT_TRUE(RatesAre(rp, want));
    // ib = 7, it = 5: hi = 5 (x1).
    rp.OnBytesSent(kT0 + 5 * t + 1 * kUs, 1000);
    want = Raise(want, p.rhai, true);
    EXPECT_TRUE(RatesAre(rp, want));
    // it = 6, ib = 7: hi = 6 (x2 if scaled).
    rp.AdvanceTo(kT0 + 6 * t);
    want = Raise(want, scaled ? p.rhai * 2 : p.rhai, true);
    EXPECT_TRUE(RatesAre(rp, want));
    // ib = 8, it = 6: hi = 6 (x2 if scaled).
    rp.OnBytesSent(kT0 + 6 * t + 1 * kUs, 1000);
    want = Raise(want, scaled ? p.rhai * 2 : p.rhai, true);
    EXPECT_TRUE(RatesAre(rp, want));
    EXPECT_EQ(rp.timer_stage(), 6);
    EXPECT_EQ(rp.byte_stage(), 8);
    EXPECT_EQ(rp.counters().fast_recovery, 4u);
    EXPECT_EQ(rp.counters().additive, 6u);
    EXPECT_EQ(rp.counters().hyper, 4u);
    EXPECT_EQ(rp.counters().timer_events, 6u);
    EXPECT_EQ(rp.counters().byte_events, 8u);
    EXPECT_EQ(rp.rt(), 10e9 + 6 * 40e6 + (scaled ? 1200e6 : 800e6));
  }
}

TEST(DcqcnRp, CutResetsStagesAndReloadsByteCounter) {
  // Cut step 5: it = ib = 0, byte_left = B, timer re-armed at the CNP + T.
  DcqcnParams p = PaperParams();
  p.byte_counter = 1000;
  DcqcnRp rp(&p, kLine, 10e9, kT0);
  rp.OnCnp(kT0);
  rp.OnBytesSent(kT0 + 1 * kUs, 2300);
  rp.AdvanceTo(kT0 + p.timer);
  EXPECT_EQ(rp.byte_stage(), 2);
  EXPECT_EQ(rp.timer_stage(), 1);
  EXPECT_EQ(rp.bytes_to_next_increase(), 700);
  const Time cnp = kT0 + p.timer + 3 * kUs;
  rp.OnCnp(cnp);
  EXPECT_EQ(rp.byte_stage(), 0);
  EXPECT_EQ(rp.timer_stage(), 0);
  EXPECT_EQ(rp.bytes_to_next_increase(), 1000);
  EXPECT_EQ(rp.next_deadline(), cnp + p.timer);
}

// ========================================================================================= clamp

TEST(DcqcnRp, ClampTargetRateAlwaysSetsRtToRc) {
  // clamp_target_rate: Rt = Rc at every cut, even back to back with no increase in between.
  DcqcnParams p = PaperParams();
  p.clamp_target_rate = true;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  const double rc1 = CutRc(kLineD, 1.0, p);
  EXPECT_EQ(rp.rt(), kLineD);
  rp.OnCnp(kT0 + 1 * kUs);
  EXPECT_EQ(rp.rt(), rc1);
  EXPECT_EQ(rp.rc(), CutRc(rc1, AlphaUp(1.0, p.g), p));
}

TEST(DcqcnRp, NoClampKeepsOlderHigherRtOnBackToBackCnps) {
  // clamp_target_rate off, clamp_after_time_inc on: without an increase since the last cut
  // (it = ib = 0) Rt is kept, so FR can climb back to the older, higher target.
  DcqcnParams p = PaperParams();
  p.clamp_target_rate = false;
  p.clamp_after_time_inc = true;
  p.initial_alpha = 0.5;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  const double rc1 = CutRc(kLineD, 0.5, p);
  const double a1 = AlphaUp(0.5, p.g);
  rp.OnCnp(kT0 + 1 * kUs);
  const double rc2 = CutRc(rc1, a1, p);
  EXPECT_EQ(rp.rc(), rc2);
  EXPECT_EQ(rp.rt(), kLineD);
  rp.OnCnp(kT0 + 2 * kUs);
  EXPECT_EQ(rp.rc(), CutRc(rc2, AlphaUp(a1, p.g), p));
  EXPECT_EQ(rp.rt(), kLineD);
}

TEST(DcqcnRp, ClampAfterTimeIncClampsAfterTimerIncrease) {
  // clamp_after_time_inc: a timer increase since the last cut (it > 0) makes the next cut clamp.
  DcqcnParams p = PaperParams();
  p.clamp_target_rate = false;
  p.clamp_after_time_inc = true;
  p.alpha_period = 1 * kSecond;  // alpha only changes at cuts here
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  Rates want{CutRc(kLineD, 1.0, p), kLineD};
  rp.AdvanceTo(kT0 + p.timer);
  want = Fr(want);
  ASSERT_TRUE(RatesAre(rp, want));
  rp.OnCnp(kT0 + p.timer + 1 * kUs);
  EXPECT_EQ(rp.rt(), want.rc);
  EXPECT_EQ(rp.rc(), CutRc(want.rc, AlphaUp(1.0, p.g), p));
}

TEST(DcqcnRp, WithoutClampAfterTimeIncOnlyByteIncreaseClamps) {
  // clamp_after_time_inc off: a timer increase (it > 0) does not clamp, a byte-counter increase
  // (ib > 0) does.
  DcqcnParams p = PaperParams();
  p.clamp_target_rate = false;
  p.clamp_after_time_inc = false;
  p.byte_counter = 1000;
  p.alpha_period = 1 * kSecond;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  double a = AlphaUp(1.0, p.g);
  Rates want{CutRc(kLineD, 1.0, p), kLineD};
  rp.AdvanceTo(kT0 + p.timer);
  want = Fr(want);
  ASSERT_TRUE(RatesAre(rp, want));
  ASSERT_EQ(rp.timer_stage(), 1);
  rp.OnCnp(kT0 + p.timer + 1 * kUs);
  want = {CutRc(want.rc, a, p), kLineD};
  a = AlphaUp(a, p.g);
  EXPECT_TRUE(RatesAre(rp, want));
  rp.OnBytesSent(kT0 + p.timer + 2 * kUs, 1000);
  want = Fr(want);
  ASSERT_TRUE(RatesAre(rp, want));
  ASSERT_EQ(rp.byte_stage(), 1);
  rp.OnCnp(kT0 + p.timer + 3 * kUs);
  EXPECT_EQ(rp.rt(), want.rc);
  EXPECT_EQ(rp.rc(), CutRc(want.rc, a, p));
}

TEST(DcqcnRp, CnpAtTimerDeadlineRunsTheTimerFirst) {
  // "Every public call first runs every timer due at or before now": a CNP exactly at cut + T
  // sees the timer's FR (it = 1), so with clamp_after_time_inc it clamps to the FR rate.
  DcqcnParams p = PaperParams();
  p.clamp_target_rate = false;
  p.clamp_after_time_inc = true;
  p.alpha_period = 1 * kSecond;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  const Rates fr = Fr({CutRc(kLineD, 1.0, p), kLineD});
  rp.OnCnp(kT0 + p.timer);
  EXPECT_EQ(rp.counters().timer_events, 1u);
  EXPECT_EQ(rp.counters().fast_recovery, 1u);
  EXPECT_EQ(rp.rt(), fr.rc);
  EXPECT_EQ(rp.rc(), CutRc(fr.rc, AlphaUp(1.0, p.g), p));
  EXPECT_EQ(rp.next_deadline(), kT0 + 2 * p.timer);
}

// ================================================================================ min / max rate

TEST(DcqcnRp, ManyCnpsStopExactlyAtMinRate) {
  // Rc = max(min_rate, Rc * factor): repeated cuts reach exactly min_rate and never go below.
  DcqcnParams p = PaperParams();
  p.min_rate = 100 * kMbps;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  double rc = kLineD;
  double a = p.initial_alpha;
  for (int i = 0; i < 20; ++i) {
    SCOPED_TRACE(i);
    rp.OnCnp(kT0 + i * kUs);
    rc = CutRc(rc, a, p);
    a = AlphaUp(a, p.g);
    EXPECT_EQ(rp.rc(), rc);
    EXPECT_GE(rp.rc(), 100e6);
  }
  EXPECT_EQ(rp.rc(), 100e6);
  EXPECT_EQ(rp.counters().cuts, 20u);
}

TEST(DcqcnRp, MinDecFactorBoundsOneCut) {
  // factor = max(1 - alpha/2, min_dec_factor): with alpha = 1 and 0.75 the cut is only 25%; with
  // alpha = 0.2 (factor 0.9) the bound does not apply.
  DcqcnParams p = PaperParams();
  p.min_dec_factor = 0.75;
  p.initial_alpha = 1.0;
  DcqcnRp high(&p, kLine, kLineD, kT0);
  high.OnCnp(kT0);
  EXPECT_EQ(high.rc(), kLineD * 0.75);
  EXPECT_EQ(high.rc(), 30e9);
  DcqcnParams q = p;
  q.initial_alpha = 0.2;
  DcqcnRp low(&q, kLine, kLineD, kT0);
  low.OnCnp(kT0);
  EXPECT_EQ(low.rc(), kLineD * (1 - 0.2 / 2));
}

TEST(DcqcnRp, IncreasesCapTargetAndRateAtLine) {
  // cap_target_at_line: HI steps larger than the headroom never push Rt or Rc above line; once
  // Rc reaches line the increase stops.
  DcqcnParams p = PaperParams();
  p.f = 1;
  p.byte_counter = 0;
  p.rhai = 5 * kGbps;
  p.cap_target_at_line = true;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  Rates want{CutRc(kLineD, 1.0, p), kLineD};
  int n = 1;
  for (; n <= 64 && rp.next_deadline() != kTimeNever; ++n) {
    SCOPED_TRACE(n);
    EXPECT_EQ(rp.next_deadline(), kT0 + n * p.timer);
    rp.AdvanceTo(kT0 + n * p.timer);
    want = Raise(want, p.rhai, true);
    ASSERT_TRUE(RatesAre(rp, want));
    EXPECT_LE(rp.rc(), kLineD);
    EXPECT_LE(rp.rt(), kLineD);
  }
  EXPECT_EQ(rp.rc(), kLineD);
  EXPECT_EQ(rp.rt(), kLineD);
  EXPECT_EQ(rp.next_deadline(), kTimeNever);
}

TEST(DcqcnRp, UncappedTargetGrowsAboveLineButRateDoesNot) {
  // cap_target_at_line off (ns3-rdma): Rt may exceed line; Rc is still capped, and reaching line
  // stops the increase. F = 1 and no byte counter: every timer event is AI. AI: Rt 45G,
  // Rc 32.5G; AI: Rt 50G, Rc min(41.25G, 40G).
  DcqcnParams p = PaperParams();
  p.f = 1;
  p.byte_counter = 0;
  p.rai = 5 * kGbps;
  p.cap_target_at_line = false;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  Rates want{CutRc(kLineD, 1.0, p), kLineD};
  rp.AdvanceTo(kT0 + p.timer);
  want = Raise(want, p.rai, false);
  EXPECT_TRUE(RatesAre(rp, want));
  EXPECT_EQ(rp.rt(), 45e9);
  EXPECT_EQ(rp.rc(), 32.5e9);
  rp.AdvanceTo(kT0 + 2 * p.timer);
  want = Raise(want, p.rai, false);
  EXPECT_TRUE(RatesAre(rp, want));
  EXPECT_EQ(rp.rt(), 50e9);
  EXPECT_EQ(rp.rc(), kLineD);
  EXPECT_EQ(rp.next_deadline(), kTimeNever);
  rp.AdvanceTo(kT0 + 10 * p.timer);
  EXPECT_EQ(rp.counters().timer_events, 2u);
}

TEST(DcqcnRp, IncreaseStopsAtLineRateUntilNextCut) {
  // Once Rc >= line: no timer (next_deadline never) and no byte counting, so neither OnBytesSent
  // nor time changes anything; the next cut restarts both.
  DcqcnParams p = PaperParams();
  p.byte_counter = 1000;
  p.cap_target_at_line = true;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  // Rt = line and capped, so every phase is Rc = (line + Rc)/2 here.
  Rates want{CutRc(kLineD, 1.0, p), kLineD};
  Time t = kT0;
  for (int i = 0; i < 64 && rp.rc() < kLineD; ++i) {
    t += 10 * kNanosecond;
    rp.OnBytesSent(t, 1000);
    want = Fr(want);
    ASSERT_TRUE(RatesAre(rp, want));
  }
  ASSERT_EQ(rp.rc(), kLineD);
  EXPECT_EQ(rp.next_deadline(), kTimeNever);
  const DcqcnRpCounters before = rp.counters();
  const Bytes left = rp.bytes_to_next_increase();
  rp.OnBytesSent(t + 1 * kUs, 1000000);
  rp.AdvanceTo(t + 10 * kMillisecond);
  EXPECT_EQ(Tie(rp.counters()), Tie(before));
  EXPECT_EQ(rp.bytes_to_next_increase(), left);
  EXPECT_EQ(static_cast<uint64_t>(rp.byte_stage()), before.byte_events);
  EXPECT_TRUE(RatesAre(rp, {kLineD, kLineD}));
  const Time cnp = t + 11 * kMillisecond;
  rp.OnCnp(cnp);
  EXPECT_EQ(rp.next_deadline(), cnp + p.timer);
  EXPECT_EQ(rp.bytes_to_next_increase(), 1000);
  rp.OnBytesSent(cnp + 1 * kUs, 1000);
  EXPECT_EQ(rp.counters().byte_events, before.byte_events + 1);
}

TEST(DcqcnRp, ClimbsBackToExactlyLineRate) {
  // The 1-bps snap: halving the gap to Rt = line reaches exactly line (not one ulp short) within
  // a bounded number of timer periods (20 Gbps / 2^35 < 1 bps), and the timer then stops.
  DcqcnParams p = PaperParams();
  p.f = 5;
  p.byte_counter = 0;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  Rates want{CutRc(kLineD, 1.0, p), kLineD};
  int n = 1;
  for (; n <= 64 && rp.rc() < kLineD; ++n) {
    rp.AdvanceTo(kT0 + n * p.timer);
    want = n < p.f ? Fr(want) : Raise(want, p.rhai, true);
    ASSERT_TRUE(RatesAre(rp, want)) << "period " << n;
  }
  EXPECT_EQ(rp.rc(), kLineD);
  EXPECT_LE(n - 1, 40);
  EXPECT_EQ(rp.next_deadline(), kTimeNever);
}

TEST(DcqcnRp, FastRecoverySnapsExactlyToTargetBelowLine) {
  // The snap also applies below line: a long FR (F = 100) reaches Rc == Rt exactly, and since
  // Rc < line the timer keeps running.
  DcqcnParams p = PaperParams();
  p.f = 100;
  p.byte_counter = 0;
  DcqcnRp rp(&p, kLine, 10e9, kT0);
  rp.OnCnp(kT0);
  Rates want{CutRc(10e9, 1.0, p), 10e9};
  for (int n = 1; n <= 60; ++n) {
    rp.AdvanceTo(kT0 + n * p.timer);
    want = Fr(want);
    ASSERT_TRUE(RatesAre(rp, want)) << "period " << n;
  }
  EXPECT_EQ(rp.rc(), 10e9);
  EXPECT_EQ(rp.rt(), 10e9);
  EXPECT_EQ(rp.next_deadline(), kT0 + 61 * p.timer);
}

// ============================================================================= rate_on_first_cnp

TEST(DcqcnRp, RateOnFirstCnpSetsRcAndRtBeforeFirstCut) {
  // Before step 1 of the first CNP only: Rc = Rt = min(rate_on_first_cnp, line).
  DcqcnParams p = PaperParams();
  p.rate_on_first_cnp = 10 * kGbps;
  p.clamp_target_rate = true;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  EXPECT_EQ(rp.rt(), 10e9);
  EXPECT_EQ(rp.rc(), CutRc(10e9, 1.0, p));
  EXPECT_EQ(rp.rc(), 5e9);
  rp.OnCnp(kT0 + 1 * kUs);  // not applied again
  EXPECT_EQ(rp.rt(), 5e9);
  EXPECT_EQ(rp.rc(), CutRc(5e9, AlphaUp(1.0, p.g), p));
}

TEST(DcqcnRp, RateOnFirstCnpWithoutClampAndAboveLine) {
  // Rt comes from the first-CNP rule even when the cut does not clamp; a value above line is
  // capped at line.
  DcqcnParams p = PaperParams();
  p.rate_on_first_cnp = 10 * kGbps;
  p.clamp_target_rate = false;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  EXPECT_EQ(rp.rt(), 10e9);
  EXPECT_EQ(rp.rc(), 5e9);
  DcqcnParams q = PaperParams();
  q.rate_on_first_cnp = 100 * kGbps;
  DcqcnRp above(&q, kLine, 25e9, kT0);
  above.OnCnp(kT0);
  EXPECT_EQ(above.rt(), kLineD);
  EXPECT_EQ(above.rc(), CutRc(kLineD, 1.0, q));
}

// ================================================================================= sampled mode

TEST(DcqcnRp, SampledFirstCnpCutsAtFirstDecreaseCheck) {
  // The first CNP does not cut at once: the check at t0 + P + 1ns cuts with alpha after the four
  // ticks at t0 + 1..4us, all decays (the first CNP leaves the flag clear). The cut does not
  // update alpha; afterwards no check is scheduled, only the rate timer.
  DcqcnParams p = SampledParams();
  const Time check = kT0 + p.rate_reduce_period + kNanosecond;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  EXPECT_EQ(rp.rc(), kLineD);
  EXPECT_EQ(rp.counters().cnps, 1u);
  EXPECT_EQ(rp.counters().cuts, 0u);
  EXPECT_EQ(rp.alpha(kT0), 1.0);
  EXPECT_EQ(rp.next_deadline(), check);
  rp.AdvanceTo(kT0 + p.rate_reduce_period);
  EXPECT_EQ(rp.rc(), kLineD);
  EXPECT_EQ(rp.counters().cuts, 0u);
  const double a4 = AlphaDecayTimes(1.0, p.g, 4);
  EXPECT_EQ(rp.alpha(kT0 + 4 * kUs), a4);
  rp.AdvanceTo(check);
  EXPECT_EQ(rp.rc(), kLineD * (1 - a4 / 2));
  EXPECT_EQ(rp.rt(), kLineD);
  EXPECT_EQ(rp.alpha(check), a4);
  EXPECT_EQ(rp.counters().cuts, 1u);
  EXPECT_EQ(rp.timer_stage(), 0);
  EXPECT_EQ(rp.next_deadline(), check + p.timer);
  // No CNP pending: checks do nothing and schedule nothing.
  const double rc1 = rp.rc();
  rp.AdvanceTo(kT0 + 100 * kUs);
  EXPECT_EQ(rp.rc(), rc1);
  EXPECT_EQ(rp.counters().cuts, 1u);
  EXPECT_EQ(rp.next_deadline(), check + p.timer);
}

TEST(DcqcnRp, SampledLaterCnpSetsAlphaFlag) {
  // A later CNP sets the flag: the next tick is (1-g)*alpha + g and clears it, so the one after
  // decays again. A CNP exactly at a tick counts for the following tick (the tick runs first).
  DcqcnParams p = SampledParams();
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  rp.AdvanceTo(kT0 + 10 * kUs);
  const double a10 = AlphaDecayTimes(1.0, p.g, 10);
  EXPECT_EQ(rp.alpha(kT0 + 10 * kUs), a10);
  rp.OnCnp(kT0 + 10 * kUs + 500 * kNanosecond);
  EXPECT_EQ(rp.alpha(kT0 + 10 * kUs + 500 * kNanosecond), a10);
  const double a11 = AlphaUp(a10, p.g);
  EXPECT_EQ(rp.alpha(kT0 + 11 * kUs - 1), a10);
  EXPECT_EQ(rp.alpha(kT0 + 11 * kUs), a11);
  EXPECT_EQ(rp.alpha(kT0 + 12 * kUs), AlphaDecay(a11, p.g));
  const double a20 = AlphaDecayTimes(a11, p.g, 9);
  rp.OnCnp(kT0 + 20 * kUs);
  EXPECT_EQ(rp.alpha(kT0 + 20 * kUs), a20);
  EXPECT_EQ(rp.alpha(kT0 + 21 * kUs), AlphaUp(a20, p.g));
  EXPECT_EQ(rp.alpha(kT0 + 22 * kUs), AlphaDecay(AlphaUp(a20, p.g), p.g));
}

TEST(DcqcnRp, SampledAtMostOneCutPerPeriod) {
  // Many CNPs in one period cause one cut at the next grid point t0 + 1ns + nP strictly after the
  // first of them, using alpha with the flagged ticks; with nothing pending no check is
  // scheduled (next_deadline is the rate timer).
  DcqcnParams p = SampledParams();
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  const Time check1 = kT0 + 4 * kUs + kNanosecond;
  rp.AdvanceTo(check1);
  const double rc1 = CutRc(kLineD, AlphaDecayTimes(1.0, p.g, 4), p);
  ASSERT_EQ(rp.rc(), rc1);
  EXPECT_EQ(rp.next_deadline(), check1 + p.timer);
  const Time check2 = kT0 + 12 * kUs + kNanosecond;
  for (Time t :
       {kT0 + 8500 * kNanosecond, kT0 + 9 * kUs, kT0 + 10 * kUs, kT0 + 11 * kUs, kT0 + 12 * kUs}) {
    rp.OnCnp(t);
    EXPECT_EQ(rp.next_deadline(), check2);
  }
  rp.AdvanceTo(check2 - 1);
  EXPECT_EQ(rp.rc(), rc1);
  EXPECT_EQ(rp.counters().cuts, 1u);
  rp.AdvanceTo(check2);
  // Ticks 1..8 decay; CNPs at 8.5, 9, 10, 11us flag ticks 9..12 (the one at 12us flags tick 13).
  double a = AlphaDecayTimes(1.0, p.g, 8);
  for (int i = 0; i < 4; ++i) a = AlphaUp(a, p.g);
  EXPECT_EQ(rp.alpha(check2), a);
  EXPECT_EQ(rp.rc(), CutRc(rc1, a, p));
  EXPECT_EQ(rp.rt(), kLineD);  // no increase yet, no clamp
  EXPECT_EQ(rp.counters().cuts, 2u);
  EXPECT_EQ(rp.counters().cnps, 6u);
  EXPECT_EQ(rp.next_deadline(), check2 + p.timer);
  EXPECT_EQ(rp.alpha(kT0 + 13 * kUs), AlphaUp(a, p.g));  // flagged by the CNP at 12us
  rp.AdvanceTo(check2 + 4 * p.rate_reduce_period);
  EXPECT_EQ(rp.counters().cuts, 2u);
}

TEST(DcqcnRp, SampledCnpOnGridPointWaitsForTheNextOne) {
  // "Next grid point strictly after now": a CNP exactly at a grid point with no check scheduled
  // waits a whole period; a CNP exactly at a scheduled check lets that check cut first, then
  // schedules the following grid point.
  DcqcnParams p = SampledParams();
  const Time P = p.rate_reduce_period;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  rp.AdvanceTo(kT0 + P + kNanosecond);
  ASSERT_EQ(rp.counters().cuts, 1u);
  const Time grid = kT0 + 2 * P + kNanosecond;
  rp.OnCnp(grid);
  EXPECT_EQ(rp.next_deadline(), grid + P);
  EXPECT_EQ(rp.counters().cuts, 1u);
  rp.OnCnp(grid + P);  // the check at grid + P runs first and cuts
  EXPECT_EQ(rp.counters().cuts, 2u);
  EXPECT_EQ(rp.next_deadline(), grid + 2 * P);
  rp.AdvanceTo(grid + 2 * P);
  EXPECT_EQ(rp.counters().cuts, 3u);
  EXPECT_EQ(rp.next_deadline(), grid + 2 * P + p.timer);
}

TEST(DcqcnRp, SampledCheckRunsBeforeRateTimerAtSameTime) {
  // At equal times the decrease check runs before the rate timer. With T = 300us = 75P the
  // timer (cut + T) falls on the check grid: the check cuts and re-arms the timer, so no timer
  // event happens and Rt is not clamped (it = 0). Timer first would give it = 1 and Rt = Rc.
  DcqcnParams p = SampledParams();
  p.clamp_after_time_inc = true;
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  const Time check1 = kT0 + 4 * kUs + kNanosecond;
  rp.AdvanceTo(check1);
  const double rc1 = rp.rc();
  rp.OnCnp(kT0 + 302 * kUs);
  const Time both = check1 + p.timer;
  ASSERT_EQ(both, kT0 + 304 * kUs + kNanosecond);
  EXPECT_EQ(rp.next_deadline(), both);
  rp.AdvanceTo(both);
  const double a = AlphaDecay(AlphaUp(AlphaDecayTimes(1.0, p.g, 302), p.g), p.g);
  EXPECT_EQ(rp.counters().timer_events, 0u);
  EXPECT_EQ(rp.counters().cuts, 2u);
  EXPECT_EQ(rp.timer_stage(), 0);
  EXPECT_EQ(rp.rt(), kLineD);
  EXPECT_EQ(rp.rc(), CutRc(rc1, a, p));
  EXPECT_EQ(rp.next_deadline(), both + p.timer);
}

TEST(DcqcnRp, SampledHpccStageRule) {
  // HPCC rule, F = 1, timer only: s = it read before incrementing; s = 0 FR, s = 1 AI, s >= 2 HI
  // (unscaled). The timer re-arms every T; a later cut clamps (it > 0 with
  // clamp_after_time_inc), resets the stage and the next event is FR again.
  DcqcnParams p = SampledParams();
  p.hai_scaled = false;
  const Time T = p.timer;
  DcqcnRp rp(&p, kLine, 10e9, kT0);
  rp.OnCnp(kT0);
  const Time c = kT0 + p.rate_reduce_period + kNanosecond;
  rp.AdvanceTo(c);
  Rates want{CutRc(10e9, AlphaDecayTimes(1.0, p.g, 4), p), 10e9};
  ASSERT_TRUE(RatesAre(rp, want));
  for (int n = 1; n <= 4; ++n) {
    SCOPED_TRACE(n);
    EXPECT_EQ(rp.next_deadline(), c + n * T);
    rp.AdvanceTo(c + n * T);
    if (n == 1) want = Fr(want);
    if (n == 2) want = Raise(want, p.rai, true);
    if (n >= 3) want = Raise(want, p.rhai, true);
    EXPECT_TRUE(RatesAre(rp, want));
    EXPECT_EQ(rp.timer_stage(), n);
  }
  EXPECT_EQ(rp.counters().fast_recovery, 1u);
  EXPECT_EQ(rp.counters().additive, 1u);
  EXPECT_EQ(rp.counters().hyper, 2u);
  EXPECT_EQ(rp.rt(), 10e9 + 5e6 + 2 * 50e6);
  // CNP at t0 + 1205.001us; next grid point t0 + 1ns + 302 * 4us.
  rp.OnCnp(c + 4 * T + 1 * kUs);
  const Time cut2 = kT0 + 1208 * kUs + kNanosecond;
  EXPECT_EQ(rp.next_deadline(), cut2);
  rp.AdvanceTo(cut2);
  // Ticks 1..1205 decay, 1206 flagged, 1207 and 1208 decay.
  const double a = AlphaDecayTimes(AlphaUp(AlphaDecayTimes(1.0, p.g, 1205), p.g), p.g, 2);
  want = {CutRc(want.rc, a, p), want.rc};
  EXPECT_TRUE(RatesAre(rp, want));
  EXPECT_EQ(rp.timer_stage(), 0);
  EXPECT_EQ(rp.next_deadline(), cut2 + T);
  rp.AdvanceTo(cut2 + T);
  want = Fr(want);
  EXPECT_TRUE(RatesAre(rp, want));
  EXPECT_EQ(rp.counters().fast_recovery, 2u);
}

TEST(DcqcnRp, SampledHpccStageRuleScaledHyperAndByteCounter) {
  // HPCC rule with hai_scaled: HI step rhai * (s - F) = 1, 2 x rhai. And with B > 0 the stage is
  // s = it + ib, so byte and timer events share one count.
  DcqcnParams p = SampledParams();
  p.hai_scaled = true;
  const Time c = kT0 + p.rate_reduce_period + kNanosecond;
  {
    DcqcnRp rp(&p, kLine, 10e9, kT0);
    rp.OnCnp(kT0);
    rp.AdvanceTo(c);
    Rates want{CutRc(10e9, AlphaDecayTimes(1.0, p.g, 4), p), 10e9};
    for (int n = 1; n <= 4; ++n) {
      SCOPED_TRACE(n);
      rp.AdvanceTo(c + n * p.timer);
      if (n == 1) want = Fr(want);
      if (n == 2) want = Raise(want, p.rai, true);
      if (n >= 3) want = Raise(want, p.rhai * (n - 1 - p.f), true);
      EXPECT_TRUE(RatesAre(rp, want));
    }
  }
  p.byte_counter = 1000;
  DcqcnRp rp(&p, kLine, 10e9, kT0);
  rp.OnCnp(kT0);
  rp.AdvanceTo(c);
  Rates want{CutRc(10e9, AlphaDecayTimes(1.0, p.g, 4), p), 10e9};
  rp.OnBytesSent(c + 1 * kUs, 1000);  // s = 0: FR
  want = Fr(want);
  EXPECT_TRUE(RatesAre(rp, want));
  rp.AdvanceTo(c + p.timer);  // s = 1: AI
  want = Raise(want, p.rai, true);
  EXPECT_TRUE(RatesAre(rp, want));
  rp.OnBytesSent(c + p.timer + 1 * kUs, 1000);  // s = 2: HI x1
  want = Raise(want, p.rhai, true);
  EXPECT_TRUE(RatesAre(rp, want));
  rp.AdvanceTo(c + 2 * p.timer);  // s = 3: HI x2
  want = Raise(want, p.rhai * 2, true);
  EXPECT_TRUE(RatesAre(rp, want));
  EXPECT_EQ(rp.timer_stage(), 2);
  EXPECT_EQ(rp.byte_stage(), 2);
}

// ========================================================================================== stop

TEST(DcqcnRp, StopClearsTimersAndIgnoresLaterCalls) {
  // Stop(): no deadline, and later CNPs, bytes and time change nothing.
  DcqcnParams p = PaperParams();
  p.byte_counter = 1000;
  DcqcnRp rp(&p, kLine, 10e9, kT0);
  rp.OnCnp(kT0);
  rp.OnBytesSent(kT0 + 1 * kUs, 1500);
  rp.Stop();
  EXPECT_EQ(rp.next_deadline(), kTimeNever);
  const Rates before{rp.rc(), rp.rt()};
  const DcqcnRpCounters counters = rp.counters();
  const Bytes left = rp.bytes_to_next_increase();
  rp.OnCnp(kT0 + 2 * kUs);
  rp.OnBytesSent(kT0 + 3 * kUs, 1000000);
  rp.AdvanceTo(kT0 + 1 * kSecond);
  EXPECT_TRUE(RatesAre(rp, before));
  EXPECT_EQ(Tie(rp.counters()), Tie(counters));
  EXPECT_EQ(rp.bytes_to_next_increase(), left);
  EXPECT_EQ(rp.timer_stage(), 0);
  EXPECT_EQ(rp.byte_stage(), 1);
  EXPECT_EQ(rp.next_deadline(), kTimeNever);
}

TEST(DcqcnRp, StopCancelsPendingSampledCheck) {
  // Stop() also clears a scheduled sampled decrease check: the pending cut never happens.
  DcqcnParams p = SampledParams();
  DcqcnRp rp(&p, kLine, kLineD, kT0);
  rp.OnCnp(kT0);
  ASSERT_NE(rp.next_deadline(), kTimeNever);
  rp.Stop();
  EXPECT_EQ(rp.next_deadline(), kTimeNever);
  rp.AdvanceTo(kT0 + 1 * kMillisecond);
  EXPECT_EQ(rp.rc(), kLineD);
  EXPECT_EQ(rp.counters().cuts, 0u);
}

// ====================================================================================== counters

TEST(DcqcnRp, CountersTallyEveryEvent) {
  // F = 2, B > 0: ib=1 FR, it=1 FR (max 1 < 2), ib=2 AI (min 1 < 2), it=2 HI; then a second CNP.
  DcqcnParams p = PaperParams();
  p.f = 2;
  p.byte_counter = 1000;
  p.timer = 100 * kUs;
  DcqcnRp rp(&p, kLine, 10e9, kT0);
  rp.OnCnp(kT0);
  rp.OnBytesSent(kT0 + 1 * kUs, 1000);
  rp.AdvanceTo(kT0 + p.timer);
  rp.OnBytesSent(kT0 + p.timer + 1 * kUs, 1000);
  rp.AdvanceTo(kT0 + 2 * p.timer);
  rp.OnCnp(kT0 + 2 * p.timer + 1 * kUs);
  DcqcnRpCounters want;
  want.cnps = 2;
  want.cuts = 2;
  want.fast_recovery = 2;
  want.additive = 1;
  want.hyper = 1;
  want.timer_events = 2;
  want.byte_events = 2;
  EXPECT_EQ(Tie(rp.counters()), Tie(want));
}

// ====================================================================================== profiles

TEST(DcqcnParams, PaperProfile) {
  // SIGCOMM'15 values (spec 1.8): g 1/256, K = T = 55us, B = 10MB, F = 5, R_AI 40Mbps,
  // N = 50us, always clamp, per-CNP cuts.
  const DcqcnParams p = DcqcnParams::Profile("paper");
  EXPECT_EQ(p.mode, DcqcnParams::Mode::kPaper);
  EXPECT_EQ(p.g, 1.0 / 256);
  EXPECT_EQ(p.alpha_period, 55 * kUs);
  EXPECT_EQ(p.timer, 55 * kUs);
  EXPECT_EQ(p.byte_counter, 10000000);
  EXPECT_EQ(p.f, 5);
  EXPECT_EQ(p.rai, 40 * kMbps);
  EXPECT_EQ(p.cnp_interval, 50 * kUs);
  EXPECT_TRUE(p.clamp_target_rate);
}

TEST(DcqcnParams, Mlx5Profile) {
  // ConnectX firmware defaults (spec 1.6, 1.8): dce_tcp_g 1019 means g = 1 - 1019/1024 = 5/1024;
  // initial_alpha_value 1023 means 1023/1024.
  const DcqcnParams p = DcqcnParams::Profile("mlx5");
  EXPECT_EQ(p.mode, DcqcnParams::Mode::kSampled);
  EXPECT_EQ(p.alpha_period, 1 * kUs);
  EXPECT_EQ(p.rate_reduce_period, 4 * kUs);
  EXPECT_EQ(p.timer, 300 * kUs);
  EXPECT_EQ(p.f, 1);
  EXPECT_EQ(p.rai, 5 * kMbps);
  EXPECT_EQ(p.rhai, 50 * kMbps);
  EXPECT_EQ(p.min_rate, 1 * kMbps);
  EXPECT_EQ(p.min_dec_factor, 0.5);
  EXPECT_FALSE(p.clamp_target_rate);
  EXPECT_TRUE(p.clamp_after_time_inc);
  EXPECT_EQ(p.g, 5.0 / 1024);
  EXPECT_EQ(p.g, 1 - 1019.0 / 1024);
  EXPECT_EQ(p.initial_alpha, 1023.0 / 1024);
}

TEST(DcqcnParams, HpccProfile) {
  // HPCC's run.py "dcqcn": sampled, HPCC stage rule, CNP bit on ACKs, F = 1, T = 300us, K = 1us,
  // no byte counter, 1000Mbps floor, g = 1/256.
  const DcqcnParams p = DcqcnParams::Profile("hpcc");
  EXPECT_EQ(p.mode, DcqcnParams::Mode::kSampled);
  EXPECT_EQ(p.stage_rule, DcqcnParams::StageRule::kHpcc);
  EXPECT_TRUE(p.cnp_on_ack);
  EXPECT_EQ(p.f, 1);
  EXPECT_EQ(p.timer, 300 * kUs);
  EXPECT_EQ(p.alpha_period, 1 * kUs);
  EXPECT_EQ(p.byte_counter, 0);
  EXPECT_EQ(p.min_rate, 1000 * kMbps);
  EXPECT_EQ(p.g, 1.0 / 256);
}

TEST(DcqcnParams, UnknownProfileThrowsInputError) {
  // A misspelt profile is a user error, reported as InputError.
  EXPECT_THROW(DcqcnParams::Profile("bogus"), InputError);
}

}  // namespace
}  // namespace dcqcn
