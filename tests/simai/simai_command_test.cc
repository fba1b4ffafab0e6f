// `dcqcn simai` on SimAI's own inputs (tests/simai/): its topology files read as GPUs, NVLink
// domains and switches; SimAI.conf's keys; a workload mapped onto a job as SimAI's ns-3 backend
// runs it; SimAI's result files in its formats; its times on the network-only cases within 1%
// (docs/validation.md); bad input named by file, line and field, exit 1, nothing written.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_util.h"
#include "core/error.h"
#include "ns3/simai_topology.h"
#include "scenario/hpcc_config.h"
#include "test_util.h"
#include "workload/simai_job.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

fs::path Input(const std::string& name) {
  return fs::path(DCQCN_SOURCE_DIR) / "tests/simai" / name;
}

std::vector<std::string> Cells(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
  return cells;
}

std::vector<std::string> Lines(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

TEST(SimaiTopology, GpusNvswitchesAndSwitches) {
  TopologyConfig topo;
  std::vector<std::string> warnings;
  ReadSimaiTopology(Input("spectrum_x_16g_1spine").string(), topo, &warnings);
  EXPECT_EQ(topo.type, "simai_file");
  EXPECT_EQ(topo.hosts, 16);
  EXPECT_EQ(topo.switches, 9);  // 8 rail leaves and a spine; the NVSwitches are NVLink
  EXPECT_EQ(topo.gpus_per_server, 8);
  EXPECT_EQ(topo.nvlink_rate, 2880 * kGbps);
  EXPECT_EQ(topo.nvlink_delay, 50 * kNanosecond);  // two 25 ns links
  EXPECT_EQ(topo.links.size(), 24u);               // 40 less the 16 NVSwitch links
  EXPECT_EQ(topo.hpcc_id(16), 18);                 // the first switch keeps its file id
  // GPU k of each server on leaf k (Spectrum-X's rails): GPUs 0 and 8 share a leaf.
  EXPECT_EQ(topo.links[0].a, 0);
  EXPECT_EQ(topo.links[8].a, 8);
  EXPECT_EQ(topo.links[0].b, topo.links[8].b);
  EXPECT_NE(topo.links[0].b, topo.links[1].b);
  EXPECT_TRUE(warnings.empty());
}

TEST(SimaiTopology, RefusesWhatItCannotModelNamingFileAndLine) {
  const fs::path dir = fs::temp_directory_path() / "dcqcn_simai_topology";
  fs::create_directories(dir);
  auto error = [&](const std::string& text) {
    const fs::path p = dir / "topo";
    std::ofstream(p) << text;
    TopologyConfig topo;
    return testing::InputErrorOf([&] { ReadSimaiTopology(p.string(), topo, nullptr); });
  };
  // 2 GPUs, 1 NVSwitch, 2 switches; each GPU's NIC cabled to both (dual-ToR): a NIC with two
  // ports, accepted.
  EXPECT_EQ(error("5 2 1 2 6 H100\n2 3 4\n0 2 2880Gbps 0.000025ms 0\n"
                  "1 2 2880Gbps 0.000025ms 0\n0 3 400Gbps 0.0005ms 0\n1 3 400Gbps 0.0005ms 0\n"
                  "0 4 400Gbps 0.0005ms 0\n1 4 400Gbps 0.0005ms 0\n"),
            "");
  EXPECT_NE(
      error("5 2 1 2 4 H100\n0 3 4\n1 0 2880Gbps 0.000025ms 0\n").find(":2: topology: node 0"),
      std::string::npos);
  EXPECT_NE(error("5 2 1 2 4 H100\n2 3 4\n0 2 2880Gbps 0.000025ms 0\n"
                  "1 2 2880Gbps 0.000025ms 0\n0 3 400Gbps 0.0005ms 0\n3 4 400Gbps 0.0005ms 0\n")
                .find("GPU 1 has no link to a switch"),
            std::string::npos);
  EXPECT_NE(error("5 2 1 2 4 H100\n2 3 4\n0 2 2880Gbps 0.000025ms 0\n"
                  "1 2 1600Gbps 0.000025ms 0\n0 3 400Gbps 0.0005ms 0\n1 3 400Gbps 0.0005ms 0\n")
                .find(":4: topology: an NVSwitch link of 1.6Tbps"),
            std::string::npos);
  EXPECT_NE(error("5 2 1 2 4 H100\n2 3").find("switch id 2 of 2"), std::string::npos);
  fs::remove_all(dir);
}

TEST(SimaiConfig, ReadsSimaisKeysWithoutTopologyOrFlowFiles) {
  const HpccSetup setup =
      LoadSimaiConfig(Input("SimAI.conf").string(), Input("spectrum_x_16g_8spine").string());
  const Scenario& s = setup.scenario;
  EXPECT_EQ(s.topology.hosts, 16);
  EXPECT_EQ(s.topology.switches, 16);
  EXPECT_TRUE(s.flows.empty());
  EXPECT_EQ(s.host.mtu, 9000);
  EXPECT_EQ(s.host.base_rtt, HostConfig::BaseRtt::kMax);  // GLOBAL_T 0 is forced to 1
  EXPECT_EQ(s.duration, 100 * kSecond);                   // its 4e13 s: until the job ends
  EXPECT_EQ(s.sw.buffer, 32 << 20);
  // Its monitor keys are SimAI's, not unknown; only the packet trace is warned about.
  ASSERT_EQ(setup.warnings.size(), 1u) << setup.warnings[0];
  EXPECT_NE(setup.warnings[0].find("ENABLE_TRACE"), std::string::npos);
}

TEST(SimaiJob, MapsTheWorkloadAsSimaisNs3BackendRunsIt) {
  std::vector<std::string> warnings;
  const SimaiWorkload w = ReadSimaiWorkload(Input("tp16_allreduce_16MiB.txt").string());
  const JobConfig j = SimaiJobConfig(w, "w.txt", 16, 3 * kMicrosecond, &warnings);
  EXPECT_EQ(j.tp, 16);
  EXPECT_EQ(j.pp, 1);
  EXPECT_EQ(j.iterations, 1);
  EXPECT_EQ(j.channels, 0);
  EXPECT_TRUE(j.rotate_rings);
  EXPECT_EQ(j.connection, CollectiveConnection::kPerFlow);
  EXPECT_EQ(j.step_done, StepDone::kAckArrival);
  // AS_SEND_LAT and its MemBus hop; its state changes; its processing; its LIFO queue.
  EXPECT_EQ(j.send_latency, 3 * kMicrosecond + 10 * kNanosecond);
  EXPECT_EQ(j.compute_gap, 1 * kNanosecond);
  EXPECT_EQ(j.processing_latency, 30 * kNanosecond);
  EXPECT_EQ(j.weight_grad_order, WeightGradOrder::kNewestFirst);
  ASSERT_EQ(j.layers.size(), 1u);
  EXPECT_EQ(j.layers[0].phases[0].op, CollectiveOp::kAllReduce);
  EXPECT_EQ(j.layers[0].phases[0].size, 16 << 20);
  EXPECT_EQ(j.layers[0].phases[0].compute, 1 * kNanosecond);
  EXPECT_FALSE(j.layers[0].phases[2].op);
  EXPECT_EQ(j.layers[0].update, 1 * kNanosecond);
  EXPECT_TRUE(warnings.empty());

  EXPECT_NE(testing::InputErrorOf([&] {
              SimaiJobConfig(w, "w.txt", 32, 0, nullptr);
            }).find("w.txt:1: all_gpus: 16, but the topology has 32 GPUs"),
            std::string::npos);
  const std::string header =
      "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 2 pp: 2 vpp: 1 ga: 4 "
      "all_gpus: 8 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 1024\n1\n";
  const SimaiWorkload ep = ParseSimaiWorkload(
      "ep.txt", header + "moe -1 1 ALLTOALL_EP 1024 1 NONE 0 1 ALLREDUCE 4096 5\n");
  warnings.clear();
  const JobConfig m = SimaiJobConfig(ep, "ep.txt", 8, 0, &warnings);
  EXPECT_FALSE(m.layers[0].phases[0].op);  // no EP groups in SimAI's ns-3 build
  EXPECT_EQ(m.layers[0].update, 5 * kNanosecond);
  ASSERT_EQ(warnings.size(), 4u);  // pp, ga, ep, and the _EP collective
  EXPECT_NE(warnings[3].find("ep.txt:3: layer moe's forward comm type ALLTOALL_EP"),
            std::string::npos);
  const SimaiWorkload ara =
      ParseSimaiWorkload("a.txt", header + "x -1 1 ALLREDUCEALLTOALL 1024 1 NONE 0 1 NONE 0 1\n");
  EXPECT_NE(testing::InputErrorOf([&] {
              SimaiJobConfig(ara, "a.txt", 8, 0, nullptr);
            }).find("a.txt:3: layer x's forward comm type: ALLREDUCEALLTOALL"),
            std::string::npos);
}

class SimaiCommand : public testing::TempDirTest {
 protected:
  testing::Result Simai(const std::string& workload, const std::string& topology,
                        const std::string& extra = "") {
    return testing::RunCliIn(dir_, "simai -w '" + Input(workload).string() + "' -n '" +
                                       Input(topology).string() + "' -c '" +
                                       Input("SimAI.conf").string() + "' --out out " + extra);
  }
  // The weight-gradient (column 12) or forward (column 9) total comm of the layer row, in us.
  double TotalComm(int column) {
    return std::stod(Cells(Lines(dir_ / "out/ncclFlowModel_EndToEnd.csv")[3])[column - 1]);
  }
};

TEST_F(SimaiCommand, NetworkOnlyAllReducesTakeSimaisTimesToTheNanosecond) {
  // SimAI's rank-0 times (tests/simai/README.md, docs/validation.md): 25.607 and 343.677 us, its
  // runs' ends 25.612 and 343.682 us. Ours are 2 ns longer and the same: with SimAI's 10 ns
  // MemBus hop per transfer, 30 ns processing of the ring's second step and 1 ns per state
  // change (without them, 48 and 50 ns shorter; with HPCC's truncation of transmit times instead
  // of SimAI's rounding to the nearest ns, 0.66% and 0.56% shorter: wire.ns_rounding).
  ASSERT_EQ(Simai("dp2x8_allreduce_1MiB.txt", "spectrum_x_16g_8spine").code, 0);
  EXPECT_NEAR(TotalComm(12), 25.607, 0.0025);
  EXPECT_NEAR(std::stod(Cells(Lines(dir_ / "out/ncclFlowModel_EndToEnd.csv")[3])[17]), 25.612,
              0.0025);
  const std::vector<std::string> lines = Lines(dir_ / "out/ncclFlowModel_EndToEnd.csv");
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0].rfind("File name, Expose DP comm, Expose DP_EP comm, Expose TP comm,", 0), 0u);
  EXPECT_EQ(lines[2].rfind("layer_name,test1,fwd compute,wg compute,ig compute,", 0), 0u);
  EXPECT_EQ(Cells(lines[3])[0], "embedding_layer");
  EXPECT_EQ(Cells(lines[3])[9], "-nan");  // no forward collective: 0 / 0, as SimAI prints it
  EXPECT_EQ(lines[4].rfind("SUM,test1,0.001000,0.001000,0.001000,", 0), 0u);
  EXPECT_EQ(lines[5].rfind("total exposed comm,", 0), 0u);
  // The wg busbw of a 2-rank ring is its algbw; the empty detailed file; 32 flows' FCTs.
  EXPECT_EQ(Cells(lines[3])[13], Cells(lines[3])[12]);
  EXPECT_TRUE(fs::exists(dir_ / "out/ncclFlowModel_detailed_18.csv"));
  EXPECT_EQ(testing::ReadFile(dir_ / "out/ncclFlowModel_detailed_18.csv"), "");
  EXPECT_EQ(Lines(dir_ / "out/llama_hpn7_fct.txt").size(), 32u);
  EXPECT_TRUE(fs::exists(dir_ / "out/llama_hpn7_pfc.txt"));
  EXPECT_TRUE(fs::exists(dir_ / "out/jobs.csv"));

  fs::remove_all(dir_ / "out");
  ASSERT_EQ(Simai("dp2x8_allreduce_16MiB.txt", "spectrum_x_16g_8spine").code, 0);
  EXPECT_NEAR(TotalComm(12), 343.677, 0.0005);
  EXPECT_NEAR(std::stod(Cells(Lines(dir_ / "out/ncclFlowModel_EndToEnd.csv")[3])[17]), 343.682,
              0.0005);
}

TEST_F(SimaiCommand, TensorParallelAcrossNvlinkAndTheFabricIsFasterThanSimais) {
  // SimAI: 95.196 us at rank 0 (100.605 us at its last ACK); ours 86.95 us, 8.7% shorter.
  // docs/validation.md has what the experiments found: each server's last GPU sends 7 of the 8
  // rings' transfers to its first over one NVLink each step (as long as the NIC's cross-server
  // transfer); SimAI's transfers replayed at its own starts take what they take in SimAI, and
  // what is left is when the steps start, which a few ns anywhere move by microseconds. This
  // pins where we stand; the 5% is not met.
  ASSERT_EQ(Simai("tp16_allreduce_16MiB.txt", "spectrum_x_16g_1spine").code, 0);
  EXPECT_GT(TotalComm(9), 0.85 * 95.196);
  EXPECT_LT(TotalComm(9), 0.95 * 95.196);
}

TEST_F(SimaiCommand, PacketLevelNvlinkSendsTensorParallelThroughTheNvswitches) {
  // topology.nvlink_model = "packet": each NVSwitch a switch, each GPU a second NIC port cabled
  // to it. The 7 transfers sharing a GPU's NVLink each step are then interleaved packet by packet
  // and stored and forwarded at the NVSwitch, as SimAI's do: 88.01 us (docs/validation.md), short
  // of SimAI's 95.196. (With each step started at the ACK's arrival, a few ns anywhere move
  // either NVLink model's time by up to 6 us, docs/validation.md.)
  ASSERT_EQ(Simai("tp16_allreduce_16MiB.txt", "spectrum_x_16g_1spine",
                  "--set topology.nvlink_model=packet")
                .code,
            0);
  const double packet = TotalComm(9);
  EXPECT_GT(packet, 0.90 * 95.196);
  EXPECT_LT(packet, 0.95 * 95.196);
  const auto links = Lines(dir_ / "out/links.csv");
  // A row per cable end: 16 GPUs x 2 ports, 2 NVSwitches x 8, 8 leaves x 3, the spine's 8.
  EXPECT_EQ(links.size(), 1u + 32 + 16 + 24 + 8);
  EXPECT_NE(links[1].find("h0,0,s0,0,2880,25,"), std::string::npos) << links[1];
}

// SimAI's generator writes its other fabrics in the same format: DCN+ (a server's NICs on one
// ToR, the ToRs under a spine) and HPN 7.0's dual plane (each NIC's two ports on a ToR of each
// plane, each plane under its own aggregation switch). Both run the network-only AllReduce, and
// the dual plane's NICs send on both planes (each queue pair on one port, by its hash).
TEST_F(SimaiCommand, DcnPlusAndDualPlaneHpnFabricsRun) {
  // 2 servers x 8 GPUs (0-15) and their NVSwitches 16 and 17; switches from 18 on.
  std::string nvlinks;
  for (int g = 0; g < 16; ++g)
    nvlinks += fmt::format("{} {} 2880Gbps 0.000025ms 0\n", g, 16 + g / 8);
  std::string dcn = "21 8 2 3 34 H100\n16 17 18 19 20\n" + nvlinks;
  for (int g = 0; g < 16; ++g) dcn += fmt::format("{} {} 400Gbps 0.0005ms 0\n", g, 18 + g / 8);
  dcn += "18 20 1600Gbps 0.0005ms 0\n19 20 1600Gbps 0.0005ms 0\n";
  std::string hpn = "22 8 2 4 50 H100\n16 17 18 19 20 21\n" + nvlinks;
  for (int g = 0; g < 16; ++g) {
    hpn += fmt::format("{} 18 200Gbps 0.0005ms 0\n{} 19 200Gbps 0.0005ms 0\n", g, g);
  }
  hpn += "18 20 1600Gbps 0.0005ms 0\n19 21 1600Gbps 0.0005ms 0\n";
  for (const auto& [name, text] : {std::pair{"dcn_plus", dcn}, std::pair{"hpn_dual_plane", hpn}}) {
    SCOPED_TRACE(name);
    const fs::path topology = Write(std::string(name) + ".txt", text);
    const testing::Result r = testing::RunCliIn(
        dir_, "simai -w '" + Input("dp2x8_allreduce_16MiB.txt").string() + "' -n '" +
                  topology.string() + "' -c '" + Input("SimAI.conf").string() + "' --out " + name);
    ASSERT_EQ(r.code, 0) << r.out;
    const double wg = std::stod(Cells(Lines(dir_ / name / "ncclFlowModel_EndToEnd.csv")[3])[11]);
    EXPECT_GT(wg, 0);
  }
  // The dual plane: some NICs' port 0 and some NICs' port 1 carried data.
  double plane[2] = {0, 0};
  for (const std::string& row : Lines(dir_ / "hpn_dual_plane/links.csv")) {
    const std::vector<std::string> c = Cells(row);
    if (c[0].rfind("h", 0) == 0 && (c[1] == "0" || c[1] == "1"))
      plane[c[1] == "1"] += std::stod(c.back());
  }
  EXPECT_GT(plane[0], 0);
  EXPECT_GT(plane[1], 0);
}

TEST_F(SimaiCommand, BadInputExitsOneNamingFileLineAndFieldAndWritesNothing) {
  Write("w.txt",
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 1 vpp: 1 ga: 1 "
        "all_gpus: 32 checkpoints: 0 checkpoint_initiates: 0\n1\nl -1 1 NONE 0 1 NONE 0 1 "
        "ALLREDUCE 1024 1\n");
  const testing::Result r =
      testing::RunCliIn(dir_, "simai -w w.txt -n '" + Input("spectrum_x_16g_1spine").string() +
                                  "' -c '" + Input("SimAI.conf").string() + "' --out out");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("w.txt:1: all_gpus: 32, but the topology has 16 GPUs"), std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  // Without --out, the FCT file goes where SimAI.conf says: /etc/astra-sim/... is refused
  // before the run when its folder does not exist.
  if (!fs::exists("/etc/astra-sim/simulation")) {
    const testing::Result no_out =
        testing::RunCliIn(dir_, "simai -w '" + Input("dp2x8_allreduce_1MiB.txt").string() +
                                    "' -n '" + Input("spectrum_x_16g_8spine").string() + "' -c '" +
                                    Input("SimAI.conf").string() + "'");
    EXPECT_EQ(no_out.code, 1);
    EXPECT_NE(no_out.out.find("FCT_OUTPUT_FILE names /etc/astra-sim/simulation/llama_hpn7_fct.txt"),
              std::string::npos)
        << no_out.out;
    EXPECT_FALSE(fs::exists(dir_ / "ncclFlowModel_EndToEnd.csv"));
  }
  const testing::Result lat =
      testing::RunCommand("cd '" + dir_.string() + "' && AS_SEND_LAT=3us " + DCQCN_BINARY +
                          " simai -w '" + Input("tp16_allreduce_16MiB.txt").string() + "' -n '" +
                          Input("spectrum_x_16g_1spine").string() + "' -c '" +
                          Input("SimAI.conf").string() + "' --out out 2>&1");
  EXPECT_EQ(lat.code, 1);
  EXPECT_NE(lat.out.find("AS_SEND_LAT (environment): expected a latency in microseconds"),
            std::string::npos)
      << lat.out;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

}  // namespace
}  // namespace dcqcn
