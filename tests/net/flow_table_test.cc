// The table of flows in flight: creation, retirement, slot reuse.
#include "net/flow_table.h"

#include <gtest/gtest.h>

namespace dcqcn {
namespace {

TEST(FlowTable, AFlowIsFoundFromItsStartUntilItRetires) {
  FlowTable table(3);
  EXPECT_EQ(table.find(1), nullptr);  // not started
  Flow& f = table.Create(1);
  EXPECT_EQ(f.id, 1u);
  EXPECT_EQ(table.find(1), &f);
  EXPECT_EQ(&table[1], &f);
  EXPECT_EQ(table.in_flight(), 1u);
  table.Retire(1);
  EXPECT_EQ(table.find(1), nullptr);
  EXPECT_EQ(table.in_flight(), 0u);
  EXPECT_EQ(table.peak(), 1u);
}

TEST(FlowTable, ARetiredFlowsSlotServesTheNextFlowFresh) {
  FlowTable table(2);
  Flow& a = table.Create(0);
  a.snd_nxt = 7;
  a.cc_sender_slot = 3;
  a.sender_packets = 2;
  table.Retire(0);
  Flow& b = table.Create(1);
  EXPECT_EQ(&b, &a);    // the same memory...
  EXPECT_EQ(b.id, 1u);  // ...holding a new flow
  EXPECT_EQ(b.snd_nxt, 0u);
  EXPECT_EQ(b.cc_sender_slot, UINT32_MAX);
  EXPECT_EQ(b.sender_packets, 0);
  EXPECT_EQ(table.find(0), nullptr);  // the old id stays retired
  EXPECT_EQ(table.peak(), 1u);
}

TEST(FlowTable, FlowsKeepTheirAddressesWhileTheTableGrows) {
  constexpr uint32_t kFlows = 5000;  // several chunks
  FlowTable table(kFlows);
  std::vector<Flow*> first;
  for (uint32_t id = 0; id < kFlows; ++id) first.push_back(&table.Create(id));
  for (uint32_t id = 0; id < kFlows; ++id) {
    ASSERT_EQ(table.find(id), first[id]);
    ASSERT_EQ(first[id]->id, id);
  }
  EXPECT_EQ(table.peak(), kFlows);
}

}  // namespace
}  // namespace dcqcn
