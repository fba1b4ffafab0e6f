// A flow's route cache (Flow::route_cache) holds, for each switch along each direction of its
// path, the port the switch's route table chooses: the flow's start fills it, every packet reads
// it, and CheckRouteCaches catches an entry that disagrees.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "engine/one_thread_engine.h"
#include "net/network.h"
#include "scenario/scenario_loader.h"
#include "test_util.h"

namespace dcqcn {
namespace {

void ExpectCachesFollowTheRouteTables(const std::string& hash) {
  const Scenario s =
      LoadScenarioText(testing::kBusyFabric, "busy.toml", {"switch.ecmp_hash=" + hash});
  Network net(ToNetworkConfig(s));
  OneThreadEngine engine(net);
  net.HoldFinishedFlows(kTimeNever);  // keep every flow's cache to inspect
  engine.RunUntil(s.duration);
  ASSERT_TRUE(engine.all_done());
  EXPECT_NO_THROW(net.CheckRouteCaches());
  // Every switch of a flow's data path has its entry, and no entry lies beyond the path.
  int multi_switch = 0;
  for (uint32_t id = 0; id < net.num_flows(); ++id) {
    const Flow* f = net.flows_in_flight().find(id);
    ASSERT_NE(f, nullptr);
    const int switches = static_cast<int>(net.PathOf(id).size()) - 1;
    multi_switch += switches > 1;
    for (int hop = 0; hop < Flow::kRouteCacheHops; ++hop) {
      EXPECT_EQ(f->route_cache[0][hop] != Flow::kUnrouted, hop < switches) << "flow " << id;
      EXPECT_EQ(f->route_cache[1][hop] != Flow::kUnrouted, hop < switches) << "flow " << id;
    }
  }
  EXPECT_GT(multi_switch, 10);
  // A wrong entry is caught.
  Flow* f = net.flows_in_flight().find(0);
  f->route_cache[0][0] = static_cast<uint16_t>(f->route_cache[0][0] + 1);
  EXPECT_THROW(net.CheckRouteCaches(), InvariantError);
}

TEST(RouteCacheTest, HoldsWhatTheRouteTablesChooseWithTheDefaultHash) {
  ExpectCachesFollowTheRouteTables("dcqcn");
}

TEST(RouteCacheTest, HoldsWhatTheRouteTablesChooseWithHpccsHash) {
  ExpectCachesFollowTheRouteTables("hpcc");
}

}  // namespace
}  // namespace dcqcn
