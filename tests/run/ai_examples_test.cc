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

// examples/ai/load_balancing_ring.toml as shipped (under a second a run): ECMP's collisions
// make the AllReduce over 4x its ideal; adaptive routing and spraying with NICs that place
// packets out of order take under 40% and 55% of ECMP's time, four queue pairs per connection
// under 50%; spraying with go-back-N NICs resends over half as many packets as the AllReduce
// needs and loses most of the gain.
TEST_F(AiExamples, LoadBalancingRingPerPacketChoicesNeedNicsThatTakePacketsOutOfOrder) {
  const nlohmann::json ecmp = RunExample("load_balancing_ring.toml", {});
  const auto with = [](const std::string& lb, const std::string& reorder) {
    return RunExample("load_balancing_ring.toml",
                      {"switch.load_balancing=" + lb, "host.reorder=" + reorder});
  };
  const nlohmann::json adaptive = with("adaptive", "placement");
  const nlohmann::json spray = with("spray", "placement");
  const nlohmann::json spray_gbn = with("spray", "go_back_n");
  EXPECT_GT(MeanSlowdown(ecmp), 4);
  EXPECT_EQ(ecmp["out_of_order_packets"], 0);
  EXPECT_LT(MeanTime(adaptive), 0.40 * MeanTime(ecmp));
  EXPECT_LT(MeanTime(spray), 0.55 * MeanTime(ecmp));
  for (const nlohmann::json* j : {&adaptive, &spray}) {
    EXPECT_GT((*j)["out_of_order_packets"].get<int64_t>(), 10000);
    EXPECT_EQ((*j)["retransmitted_packets"], 0);
  }
  // Four queue pairs per connection hash apart: under half of one queue pair's time, nothing
  // out of order.
  const nlohmann::json qps = RunExample("load_balancing_ring.toml", {"host.qps_per_connection=4"});
  EXPECT_LT(MeanTime(qps), 0.5 * MeanTime(ecmp));
  EXPECT_EQ(qps["out_of_order_packets"], 0);
  const int64_t needed = ecmp["data_packets_sent"].get<int64_t>();
  EXPECT_GT(spray_gbn["retransmitted_packets"].get<int64_t>(), needed / 2);
  EXPECT_GT(MeanTime(spray_gbn), 2 * MeanTime(spray));
}

// examples/ai/load_balancing_ring_128.toml as shipped (about 2 s a run): ECMP's collisions make
// the AllReduce over 2x its ideal; adaptive routing with placement NICs comes within 10% of it.
TEST_F(AiExamples, LoadBalancingRingOf128AdaptiveRoutingReachesTheIdeal) {
  const nlohmann::json ecmp = RunExample("load_balancing_ring_128.toml", {});
  const nlohmann::json adaptive = RunExample(
      "load_balancing_ring_128.toml", {"switch.load_balancing=adaptive", "host.reorder=placement"});
  EXPECT_GT(MeanSlowdown(ecmp), 2);
  EXPECT_LT(MeanSlowdown(adaptive), 1.1);
  EXPECT_EQ(adaptive["pfc_pause_frames"], 0);
}

// examples/ai/load_balancing_alltoall.toml as shipped: ECMP's hash already spreads the many
// flows of an all-to-all; every mode with placement NICs is within 10% of it, and spraying with
// go-back-N NICs is slower.
TEST_F(AiExamples, LoadBalancingAllToAllGainsLittleOverEcmp) {
  const nlohmann::json ecmp = RunExample("load_balancing_alltoall.toml", {});
  for (const char* lb : {"flowlet", "adaptive", "spray"}) {
    SCOPED_TRACE(lb);
    const nlohmann::json j =
        RunExample("load_balancing_alltoall.toml",
                   {std::string("switch.load_balancing=") + lb, "host.reorder=placement"});
    EXPECT_GT(MeanTime(j), 0.9 * MeanTime(ecmp));
    EXPECT_LT(MeanTime(j), 1.1 * MeanTime(ecmp));
  }
  const nlohmann::json spray_gbn =
      RunExample("load_balancing_alltoall.toml", {"switch.load_balancing=spray"});
  EXPECT_GT(MeanTime(spray_gbn), 1.5 * MeanTime(ecmp));
}

// A job's iteration, as summary.json's jobs[0].iterations[i] gives it.
struct JobIteration {
  double time, compute, bubble, tp, dp, ep, pp;
};
std::vector<JobIteration> Iterations(const nlohmann::json& j) {
  std::vector<JobIteration> out;
  for (const nlohmann::json& it : j["jobs"][0]["iterations"]) {
    const nlohmann::json& e = it["exposed_comm_ns"];
    out.push_back({it["rank_time_ns"].get<double>(), it["compute_ns"].get<double>(),
                   it["bubble_ns"].get<double>(), e["tp"].get<double>(), e["dp"].get<double>(),
                   e["ep"].get<double>(), e["pp"].get<double>()});
  }
  return out;
}
double MeanIteration(const nlohmann::json& j) {
  return j["jobs"][0]["mean_iteration_time_ns"].get<double>();
}

// examples/ai/gpt_7b_job.toml as shipped (about 9 s a run): about half of an iteration is
// compute, the 1F1B bubble over 20% and the blocking TP AllReduces over NVLink over 10%; PFC
// alone pauses over 10,000 times, DCQCN under 1,000 times and 2-10% slower.
TEST_F(AiExamples, GptJobsIterationIsHalfComputeWithABubbleAndExposedTensorParallelism) {
  const nlohmann::json pfc = RunExample("gpt_7b_job.toml", {"cc.algorithm=none"});
  const nlohmann::json dcqcn = RunExample("gpt_7b_job.toml", {});
  for (const nlohmann::json* j : {&pfc, &dcqcn}) {
    ASSERT_EQ((*j)["jobs"][0]["finished_iterations"], 2);
    for (const JobIteration& it : Iterations(*j)) {
      EXPECT_GT(it.compute, 0.4 * it.time);
      EXPECT_LT(it.compute, 0.6 * it.time);
      EXPECT_GT(it.bubble, 0.2 * it.time);
      EXPECT_GT(it.tp, 0.1 * it.time);
      EXPECT_NEAR(it.compute + it.bubble + it.tp + it.dp + it.ep + it.pp, it.time, 1e-9 * it.time);
    }
  }
  EXPECT_GT(pfc["pfc_pause_frames"].get<int64_t>(), 10000);
  EXPECT_LT(dcqcn["pfc_pause_frames"].get<int64_t>(), 1000);
  EXPECT_GT(MeanIteration(dcqcn), 1.02 * MeanIteration(pfc));
  EXPECT_LT(MeanIteration(dcqcn), 1.10 * MeanIteration(pfc));
}

// examples/ai/moe_job.toml as shipped (about 20 s a run): the exposed EP all-to-alls and DP
// AllReduces outlast the compute; PFC alone pauses over 100,000 times, DCQCN under 10,000 times
// and over 30% slower.
TEST_F(AiExamples, MoeJobsExpertAllToAllsAndWeightGradientsOutlastItsCompute) {
  const nlohmann::json pfc = RunExample("moe_job.toml", {"cc.algorithm=none"});
  const nlohmann::json dcqcn = RunExample("moe_job.toml", {});
  for (const nlohmann::json* j : {&pfc, &dcqcn}) {
    ASSERT_EQ((*j)["jobs"][0]["finished_iterations"], 2);
    for (const JobIteration& it : Iterations(*j)) {
      EXPECT_GT(it.ep, 0.1 * it.time);
      EXPECT_GT(it.ep + it.dp, it.compute);
    }
  }
  EXPECT_GT(pfc["pfc_pause_frames"].get<int64_t>(), 100000);
  EXPECT_LT(dcqcn["pfc_pause_frames"].get<int64_t>(), 10000);
  EXPECT_GT(MeanIteration(dcqcn), 1.3 * MeanIteration(pfc));
}

}  // namespace
}  // namespace dcqcn
