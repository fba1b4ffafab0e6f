// Tests of a receiver NIC's CNP generator in DcqcnCc (cnp_service_time): due CNPs of all the
// NIC's flows leave one per service time in the order they became due, marks of a flow whose
// CNP still waits are folded into it, and the interval N counts from when a CNP leaves. Driven
// by a real simulator stepped by hand and a host that records the CNPs; no network.
#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "cc/dcqcn/dcqcn.h"
#include "cc/dcqcn/dcqcn_params.h"
#include "core/simulator.h"
#include "core/units.h"
#include "test_actions.h"

namespace dcqcn {
namespace {

constexpr Time kT0 = 1 * kMillisecond;
constexpr Time kN = 50 * kMicrosecond;
constexpr Time kCx3 = 2500 * kNanosecond;

struct Cnp {
  Time at;
  uint32_t flow;
  bool operator==(const Cnp&) const = default;
};

class RecordingHost : public CcHost {
 public:
  explicit RecordingHost(const Simulator* sim) : sim_(sim) {}
  void SetRate(CcFlow& f, Rate rate) override { f.rate = rate; }
  void SetRateAfterNextPacket(CcFlow& f, Rate rate) override { f.rate = rate; }
  void SendCnp(CcFlow& f) override { cnps.push_back({sim_->Now(), f.id}); }
  std::vector<Cnp> cnps;

 private:
  const Simulator* sim_;
};

using testing::Actions;

// One receiver NIC's DCQCN with `flows` flows arriving at it.
struct Receiver {
  explicit Receiver(Time service_time, int flows = 8) : host(&sim), actions(&sim) {
    params.cnp_service_time = service_time;
    for (int i = 0; i < flows; ++i) {
      this->flows.emplace_back();
      this->flows.back().id = static_cast<uint32_t>(i);
    }
    cc = std::make_unique<DcqcnCc>(CcEnv{&sim, &host, 1000}, &params);
  }
  void Mark(Time t, std::vector<uint32_t> ids) {
    actions.At(t, [this, ids] {
      for (uint32_t id : ids) cc->OnDataArrival(flows[id], true);
    });
  }
  Simulator sim;
  RecordingHost host;
  Actions actions;
  DcqcnParams params = DcqcnParams::Profile("paper");
  std::deque<CcFlow> flows;  // stable addresses
  std::unique_ptr<DcqcnCc> cc;
};

TEST(DcqcnCnpGenerator, SimultaneousMarksLeaveOneServiceTimeApartInArrivalOrder) {
  // Eight flows marked at the same instant, in an order unrelated to their ids: the k-th CNP
  // (from 1) leaves k service times later, in the order the marks arrived.
  Receiver r(kCx3);
  const std::vector<uint32_t> order = {5, 2, 7, 0, 3, 6, 1, 4};
  r.Mark(kT0, order);
  r.sim.RunUntil(kT0 + kN - 1);
  std::vector<Cnp> expected;
  for (size_t k = 0; k < order.size(); ++k) {
    expected.push_back({kT0 + static_cast<Time>(k + 1) * kCx3, order[k]});
  }
  EXPECT_EQ(r.host.cnps, expected);
  // The k-th waited k - 1 service times behind the others.
  const CcCounters c = r.cc->counters();
  EXPECT_EQ(c.at("cnps_delayed"), 7);
  EXPECT_EQ(c.at("cnp_wait_total"), (0 + 1 + 2 + 3 + 4 + 5 + 6 + 7) * kCx3);
  EXPECT_EQ(c.at("cnp_wait_max"), 7 * kCx3);
  EXPECT_EQ(c.at("cnp_queue_max"), 8);
  EXPECT_EQ(c.at("cnp_marks_coalesced"), 0);
}

TEST(DcqcnCnpGenerator, MarksOfAWaitingCnpAreFoldedIntoIt) {
  // Flows 0 and 1 marked at kT0; flow 1 is marked again while its CNP waits (up to just before
  // it leaves): still one CNP each. Flow 2's first mark, during that wait, queues behind it.
  Receiver r(kCx3);
  r.Mark(kT0, {0, 1});
  r.Mark(kT0 + 1, {1});
  r.Mark(kT0 + kCx3 + 1, {1, 2});  // flow 0's CNP has left
  r.Mark(kT0 + 2 * kCx3 - 1, {1, 1});
  r.sim.RunUntil(kT0 + kN - 1);
  EXPECT_EQ(r.host.cnps,
            (std::vector<Cnp>{{kT0 + kCx3, 0}, {kT0 + 2 * kCx3, 1}, {kT0 + 3 * kCx3, 2}}));
  const CcCounters c = r.cc->counters();
  EXPECT_EQ(c.at("cnp_marks_coalesced"), 4);
  EXPECT_EQ(c.at("cnps_delayed"), 2);  // flows 1 and 2 waited; flow 0 only took its service time
  EXPECT_EQ(c.at("cnp_wait_total"), kCx3 + (kCx3 - 1));
  EXPECT_EQ(c.at("cnp_queue_max"), 2);
}

TEST(DcqcnCnpGenerator, IntervalCountsFromWhenTheCnpLeftAndDeferredCnpsQueueToo) {
  // Flow 0's CNP, due at kT0 behind flows 1..3, leaves at kT0 + 4 s. A mark 10 us later is
  // deferred to N after that; then the CNP is due again, and waits behind flow 1's, due at the
  // same instant (more than N after flow 1's first CNP left) but earlier in the event order.
  Receiver r(kCx3);
  r.Mark(kT0, {1, 2, 3, 0});
  const Time left = kT0 + 4 * kCx3;
  r.Mark(left + 10 * kMicrosecond, {0});
  r.Mark(left + kN, {1});
  r.sim.RunUntil(left + 2 * kN);
  ASSERT_EQ(r.host.cnps.size(), 6u);
  EXPECT_EQ(r.host.cnps[3], (Cnp{left, 0}));
  EXPECT_EQ(r.host.cnps[4], (Cnp{left + kN + kCx3, 1}));
  EXPECT_EQ(r.host.cnps[5], (Cnp{left + kN + 2 * kCx3, 0}));
}

TEST(DcqcnCnpGenerator, ABusyGeneratorStretchesEveryFlowsCnpPeriod) {
  // 40 flows marked every microsecond for 5 ms: the generator is never idle, so it sends one
  // CNP per service time, spread over the flows round robin: each flow gets one per
  // 40 x 2.5 us = 100 us instead of one per N = 50 us.
  const int flows = 40;
  Receiver r(kCx3, flows);
  std::vector<uint32_t> all;
  for (int i = 0; i < flows; ++i) all.push_back(static_cast<uint32_t>(i));
  const Time end = kT0 + 5 * kMillisecond;
  for (Time t = kT0; t < end; t += kMicrosecond) r.Mark(t, all);
  r.sim.RunUntil(end);
  EXPECT_EQ(r.host.cnps.size(), static_cast<size_t>((end - kT0) / kCx3));
  std::map<uint32_t, Time> last;
  for (size_t i = 0; i < r.host.cnps.size(); ++i) {
    const Cnp& c = r.host.cnps[i];
    EXPECT_EQ(c.at, kT0 + static_cast<Time>(i + 1) * kCx3);
    if (last.count(c.flow)) {
      EXPECT_EQ(c.at - last[c.flow], flows * kCx3) << "flow " << c.flow;
    }
    last[c.flow] = c.at;
  }
  EXPECT_EQ(r.cc->counters().at("cnp_queue_max"), static_cast<int64_t>(flows));
}

TEST(DcqcnCnpGenerator, ZeroServiceTimeSendsAtOnceWithoutEvents) {
  // The default, unlimited: every due CNP leaves within the call that made it due, in call
  // order, as the plain notification point says (first mark at once, then one per N), and the
  // generator schedules nothing and counts nothing.
  Receiver r(0);
  r.Mark(kT0, {5, 2, 7});
  r.Mark(kT0 + 10 * kMicrosecond, {2});
  r.sim.RunUntil(kT0);
  EXPECT_EQ(r.host.cnps, (std::vector<Cnp>{{kT0, 5}, {kT0, 2}, {kT0, 7}}));
  EXPECT_EQ(r.sim.pending(), 1u);  // the mark at kT0 + 10 us, nothing else
  r.sim.RunUntil(kT0 + 10 * kMicrosecond);
  EXPECT_EQ(r.sim.pending(), 1u);  // flow 2's NP timer at kT0 + N
  r.sim.RunUntil(kT0 + kN);
  EXPECT_EQ(r.host.cnps.back(), (Cnp{kT0 + kN, 2}));
  EXPECT_EQ(r.sim.pending(), 0u);
  const CcCounters c = r.cc->counters();
  EXPECT_EQ(c.at("cnps_delayed") + c.at("cnp_queue_max") + c.at("cnp_marks_coalesced"), 0u);
  EXPECT_EQ(c.at("cnp_wait_total"), 0);
}

TEST(DcqcnCnpGenerator, ProfilesCarryTheNicsServiceTimes) {
  // 50 us / 20 flows for ConnectX-3 Pro, 50 us / 200 flows for ConnectX-4; none elsewhere.
  EXPECT_EQ(DcqcnParams::Profile("cx3pro").cnp_service_time, 2500 * kNanosecond);
  EXPECT_EQ(DcqcnParams::Profile("cx4").cnp_service_time, 250 * kNanosecond);
  for (const char* name : {"paper", "mlx5", "hpcc"}) {
    EXPECT_EQ(DcqcnParams::Profile(name).cnp_service_time, 0) << name;
  }
  // Otherwise cx3pro is the paper profile and cx4 the firmware's.
  DcqcnParams cx3 = DcqcnParams::Profile("cx3pro");
  DcqcnParams cx4 = DcqcnParams::Profile("cx4");
  cx3.cnp_service_time = 0;
  cx4.cnp_service_time = 0;
  EXPECT_EQ(DcqcnParamsText(cx3), DcqcnParamsText(DcqcnParams::Profile("paper")));
  EXPECT_EQ(DcqcnParamsText(cx4), DcqcnParamsText(DcqcnParams::Profile("mlx5")));
}

}  // namespace
}  // namespace dcqcn
