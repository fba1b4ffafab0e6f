// NvlinkFabric against a real simulator: a transfer's last byte arrives size / share + delay
// after it starts, to the picosecond; transfers that share a GPU's sending or receiving side get
// max-min fair shares, recomputed when one starts or ends; servers do not share anything.
#include "net/nvlink_fabric.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "core/simulator.h"
#include "test_actions.h"

namespace dcqcn {
namespace {

constexpr Rate kRate = 3600 * kGbps;  // NVLink 4 (H100): 450 GB/s per direction
constexpr Time kDelay = 1 * kMicrosecond;

// Picoseconds to send `bytes` at `rate`, rounded up as the fabric rounds its events.
Time SendTime(double bytes, double rate) {
  return static_cast<Time>(std::ceil(bytes * 8 / rate * 1e12));
}

struct Fixture {
  Simulator sim;
  std::map<uint32_t, Time> delivered;
  NvlinkFabric fabric{&sim, NvlinkConfig{4, kRate, kDelay}, 8,
                      [this](uint32_t id) { delivered[id] = sim.Now(); }};
};

TEST(NvlinkFabricTest, CarriesOnlyTransfersWithinAServer) {
  Fixture f;
  EXPECT_TRUE(f.fabric.Carries(0, 3));
  EXPECT_TRUE(f.fabric.Carries(5, 4));
  EXPECT_FALSE(f.fabric.Carries(3, 4));  // server 0 to server 1
  Simulator sim;
  NvlinkFabric off(&sim, NvlinkConfig{4, 0, kDelay}, 8, [](uint32_t) {});
  EXPECT_FALSE(off.Carries(0, 1));  // no NVLink rate: everything goes through the NIC
  NvlinkFabric one(&sim, NvlinkConfig{1, kRate, kDelay}, 8, [](uint32_t) {});
  EXPECT_FALSE(one.Carries(0, 0));
}

TEST(NvlinkFabricTest, OneTransferTakesItsSizeAtTheRatePlusTheDelay) {
  Fixture f;
  f.fabric.Start(7, 0, 1, 1000000);
  EXPECT_EQ(f.fabric.active(), 1);
  f.sim.RunUntil(kTimeNever);
  EXPECT_EQ(f.delivered.at(7), SendTime(1e6, kRate) + kDelay);
  EXPECT_EQ(f.fabric.active(), 0);
}

TEST(NvlinkFabricTest, TransfersSharingAGpuGetMaxMinShares) {
  Fixture f;
  // GPU 0 sends to 1 and 2; GPU 3 also sends to 2. GPU 0's side and GPU 2's side each carry two
  // transfers: every one gets half the rate. Server 1 (GPUs 4..7) runs alone at full rate.
  f.fabric.Start(0, 0, 1, 500000);
  f.fabric.Start(1, 0, 2, 500000);
  f.fabric.Start(2, 3, 2, 500000);
  f.fabric.Start(3, 4, 5, 500000);
  f.sim.RunUntil(kTimeNever);
  for (uint32_t id : {0u, 1u, 2u}) EXPECT_EQ(f.delivered.at(id), SendTime(5e5, kRate / 2) + kDelay);
  EXPECT_EQ(f.delivered.at(3), SendTime(5e5, kRate) + kDelay);
}

TEST(NvlinkFabricTest, SharesChangeWhenATransferStartsOrEnds) {
  Fixture f;
  const Time t = SendTime(1e6, kRate);  // one 1 MB transfer alone
  f.fabric.Start(0, 0, 1, 1000000);
  testing::Actions later(&f.sim);
  later.At(t / 2, [&] { f.fabric.Start(1, 0, 2, 1000000); });
  f.sim.RunUntil(kTimeNever);
  // Transfer 0 sends half alone, the other half at half the rate (t); transfer 1 then has half
  // left, which it sends alone in t / 2.
  EXPECT_NEAR(static_cast<double>(f.delivered.at(0)), 1.5 * t + kDelay, 2);
  EXPECT_NEAR(static_cast<double>(f.delivered.at(1)), 2.0 * t + kDelay, 2);
}

}  // namespace
}  // namespace dcqcn
