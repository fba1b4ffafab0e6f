// DcqcnCc::OnFlowContinue: a connection's next transfer takes over the reaction point of the one
// before (a queue pair's one state, NCCL's connections): from then on its rate is exactly what
// one flow with the same history would have, and the earlier transfer keeps nothing.
#include <gtest/gtest.h>

#include <memory>

#include "cc/dcqcn/dcqcn.h"
#include "cc/dcqcn/dcqcn_params.h"
#include "core/simulator.h"
#include "core/units.h"
#include "test_actions.h"

namespace dcqcn {
namespace {

class RateHost : public CcHost {
 public:
  void SetRate(CcFlow& f, Rate rate) override { f.rate = rate; }
  void SetRateAfterNextPacket(CcFlow& f, Rate rate) override { f.rate = rate; }
  void SendCnp(CcFlow&) override {}
};

CcFlow NewFlow(uint32_t id) {
  CcFlow f;
  f.id = id;
  f.line_rate = 40 * kGbps;
  return f;
}

TEST(DcqcnConnection, TheNextTransferContinuesTheRatePointOfTheOneBefore) {
  // Transfers 0 and 1 are one connection; flow 2 is a lone flow with the same history (start at
  // 0, CNPs at 10 us and 200 us). Transfer 1 takes over at 100 us, between the CNPs: from then
  // on its rate and alpha follow flow 2's to the bit, while transfer 0 keeps its last rate and
  // no state.
  Simulator sim;
  testing::Actions act(&sim);
  RateHost host;
  DcqcnParams params = DcqcnParams::Profile("paper");
  DcqcnCc cc(CcEnv{&sim, &host, 1000}, &params);
  CcFlow t0 = NewFlow(0), t1 = NewFlow(1), lone = NewFlow(2);
  act.At(0, [&] {
    cc.OnFlowStart(t0);
    cc.OnFlowStart(lone);
  });
  act.At(10 * kMicrosecond, [&] {
    cc.OnCnp(t0);
    cc.OnCnp(lone);
  });
  Rate t0_rate_at_handover = 0;
  act.At(100 * kMicrosecond, [&] {
    t0_rate_at_handover = t0.rate;
    cc.OnFlowContinue(t0, t1);
    EXPECT_EQ(t1.rate, lone.rate);
    EXPECT_LT(t1.rate, t1.line_rate);  // cut, not a fresh start at line rate
  });
  act.At(200 * kMicrosecond, [&] {
    cc.OnCnp(t1);
    cc.OnCnp(lone);
  });
  for (Time t = 150 * kMicrosecond; t <= 2 * kMillisecond; t += 50 * kMicrosecond) {
    act.At(t, [&] {
      EXPECT_EQ(t1.rate, lone.rate) << "at " << sim.Now();
      EXPECT_EQ(cc.Sample(t1).alpha, cc.Sample(lone).alpha) << "at " << sim.Now();
    });
  }
  sim.RunUntil(2 * kMillisecond);
  EXPECT_EQ(t0.cc_sender_slot, UINT32_MAX);
  EXPECT_NE(t1.cc_sender_slot, UINT32_MAX);
  EXPECT_EQ(t0.rate, t0_rate_at_handover);  // its timer now paces transfer 1
  EXPECT_GT(t1.rate, t0_rate_at_handover);  // which recovered since
  // Two flows' worth of state served three flows: the connection counts once.
  cc.ReleaseSender(t0);
  cc.ReleaseSender(t1);
  cc.ReleaseSender(lone);
  EXPECT_EQ(cc.counters().at("flows_that_saw_cnps"), 2);
}

TEST(DcqcnConnection, WithoutACnpTheNextTransferStartsAtTheRateOfTheOneBefore) {
  Simulator sim;
  RateHost host;
  DcqcnParams params = DcqcnParams::Profile("paper");
  DcqcnCc cc(CcEnv{&sim, &host, 1000}, &params);
  CcFlow t0 = NewFlow(0), t1 = NewFlow(1);
  cc.OnFlowStart(t0);
  cc.OnFlowContinue(t0, t1);
  EXPECT_EQ(t1.rate, t1.line_rate);
  EXPECT_EQ(t1.cc_sender_slot, UINT32_MAX);
}

}  // namespace
}  // namespace dcqcn
