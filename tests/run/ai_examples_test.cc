// The claims of examples/ai/*.toml (and docs/collectives.md), each checked on the example with
// only the keys named here changed (smaller sizes keep the tests fast; the doc's table runs them
// as shipped).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "run/run_scenario.h"
#include "scenario/scenario_loader.h"

namespace dcqcn {
namespace {

// Whole-example physics takes tens of seconds under the sanitizers: the Release pass checks it,
// and the collectives' code runs instrumented in tests/run/collectives_test.cc.
class AiExamples : public ::testing::Test {
 protected:
  void SetUp() override {
#ifdef DCQCN_SANITIZED
    GTEST_SKIP() << "the Release pass runs the examples";
#endif
  }
};

nlohmann::json RunExample(const std::string& example, const std::vector<std::string>& sets) {
  const Scenario s =
      LoadScenarioFile(std::string(DCQCN_SOURCE_DIR) + "/examples/ai/" + example, sets);
  const nlohmann::json j = RunScenario(s, {});
  EXPECT_EQ(j["drops"], 0) << example;
  EXPECT_EQ(j["flows_finished"], j["flows_total"]) << example;
  return j;
}

double MeanTime(const nlohmann::json& j, int collective = 0) {
  return j["collectives"][collective]["mean"]["time_ns"].get<double>();
}
double MeanSlowdown(const nlohmann::json& j, int collective = 0) {
  return j["collectives"][collective]["mean"]["slowdown"].get<double>();
}

// The flat ring's fabric hops (GPU 7 of a server to GPU 0 of the next: rail 7's leaf to rail
// 0's, 16 flows over 8 spines) collide under ECMP; the hierarchical AllReduce keeps every
// inter-server hop on its rail's leaf and comes within 3% of its ideal (a lower bound, which
// counts the ACKs that share the host links only in its busiest-link term).
TEST_F(AiExamples, RingAllReduceHierarchicalAvoidsTheSpinesTheFlatRingCollidesOn) {
  for (const char* cc : {"none", "dcqcn"}) {
    SCOPED_TRACE(cc);
    const std::string algorithm = std::string("cc.algorithm=") + cc;
    const std::vector<std::string> base = {algorithm, "collective.0.size=32MB"};
    const std::vector<std::string> hier = {algorithm, "collective.0.size=32MB",
                                           "collective.0.algorithm=hierarchical"};
    const nlohmann::json flat = RunExample("ring_allreduce_16x8.toml", base);
    const nlohmann::json h = RunExample("ring_allreduce_16x8.toml", hier);
    EXPECT_GT(MeanSlowdown(flat), 1.5);
    EXPECT_GE(MeanSlowdown(h), 1.0);
    EXPECT_LE(MeanSlowdown(h), 1.03);
    EXPECT_GT(MeanTime(flat), 5 * MeanTime(h));
  }
}

// Every iteration is a 24-to-1 incast at each NIC: PFC alone pauses the fabric; DCQCN (paper)
// avoids every PAUSE but takes longer.
TEST_F(AiExamples, MoeAllToAllPausesUnderPfcAloneAndDcqcnAvoidsItAtACost) {
  const nlohmann::json pfc = RunExample("moe_alltoall.toml", {"cc.algorithm=none"});
  const nlohmann::json dcqcn = RunExample("moe_alltoall.toml", {});
  EXPECT_GT(pfc["pfc_pause_frames"].get<int>(), 100);
  EXPECT_EQ(dcqcn["pfc_pause_frames"], 0);
  EXPECT_GT(MeanTime(dcqcn), 1.5 * MeanTime(pfc));
}

// Two jobs interleaved on the same leaves share the 2:1 oversubscribed uplinks: their mean
// iteration time is at least 10% longer than when each has the fabric to itself (job B started
// after job A has finished), over 50% longer under PFC alone.
TEST_F(AiExamples, TwoJobsSharingTheFabricSlowEachOtherDown) {
  for (const char* cc : {"none", "dcqcn"}) {
    SCOPED_TRACE(cc);
    const std::string algorithm = std::string("cc.algorithm=") + cc;
    const std::vector<std::string> base = {algorithm, "collective.0.size=16MB",
                                           "collective.1.size=16MB"};
    const std::vector<std::string> apart = {algorithm, "collective.0.size=16MB",
                                            "collective.1.size=16MB", "collective.1.start=50ms"};
    const nlohmann::json together = RunExample("two_jobs.toml", base);
    const nlohmann::json alone = RunExample("two_jobs.toml", apart);
    const double shared = MeanTime(together, 0) + MeanTime(together, 1);
    const double own = MeanTime(alone, 0) + MeanTime(alone, 1);
    EXPECT_GT(shared, (std::string(cc) == "none" ? 1.5 : 1.1) * own);
  }
}

// ECMP hashes each cross-leaf hop onto one of two uplinks; more channels (queue pairs that hash
// independently) spread them and shorten the AllReduce. The example as shipped (64 MB, about
// 2 s a run).
TEST_F(AiExamples, EcmpCollisionsShrinkWithMoreChannels) {
  for (const char* cc : {"none", "dcqcn"}) {
    SCOPED_TRACE(cc);
    const std::string algorithm = std::string("cc.algorithm=") + cc;
    const std::vector<std::string> base = {algorithm};
    const std::vector<std::string> four = {algorithm, "collective.0.channels=4"};
    const nlohmann::json one = RunExample("ecmp_collisions.toml", base);
    const nlohmann::json many = RunExample("ecmp_collisions.toml", four);
    EXPECT_GT(MeanSlowdown(one), 1.5);
    EXPECT_LT(MeanTime(many), 0.85 * MeanTime(one));
  }
}

}  // namespace
}  // namespace dcqcn
