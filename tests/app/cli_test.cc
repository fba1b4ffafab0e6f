// The dcqcn binary end to end: exit codes, error messages, output files, determinism.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_util.h"

namespace {

namespace fs = std::filesystem;
using dcqcn::testing::ReadFile;
using dcqcn::testing::Result;
using dcqcn::testing::RunCli;

using CliTest = dcqcn::testing::TempDirTest;
using dcqcn::testing::kSmallIncast;

TEST_F(CliTest, RunWritesTheContractFiles) {
  fs::path scen = Write("s.toml", kSmallIncast);
  Result r = RunCli("run " + scen.string() + " --out " + (dir_ / "out").string());
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* f :
       {"flows.csv", "links.csv", "summary.json", "resolved.toml", "timeseries/queue.csv",
        "timeseries/pfc.csv", "timeseries/throughput.csv", "timeseries/rate.csv"}) {
    EXPECT_TRUE(fs::exists(dir_ / "out" / f)) << f;
  }
  std::string flows = ReadFile(dir_ / "out/flows.csv");
  EXPECT_EQ(flows.rfind("flow_id,src,dst,priority,size_bytes,start_ns,finish_ns,fct_ns,"
                        "ideal_fct_ns,slowdown,delivered_bytes,avg_gbps,tag,id,delivered_ns\n",
                        0),
            0u);
  std::string summary = ReadFile(dir_ / "out/summary.json");
  for (const char* key :
       {"\"scenario\"", "\"seed\"", "\"version\"", "\"sim_time_ns\"", "\"wall_time_s\"",
        "\"events\"", "\"packet_hops\"", "\"flows_total\"", "\"flows_finished\"", "\"bytes_sent\"",
        "\"bytes_delivered\"", "\"drops\"", "\"pfc_pause_frames\"", "\"ecn_marked_packets\"",
        "\"cnps\"", "\"max_queue_bytes\"", "\"fct_slowdown\"", "\"jain_fairness\""}) {
    EXPECT_NE(summary.find(key), std::string::npos) << key;
  }
  // No temporary files left behind.
  for (const auto& e : fs::recursive_directory_iterator(dir_ / "out")) {
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();
  }
  // The resolved scenario runs again and gives the same flows.
  Result again = RunCli("run " + (dir_ / "out/resolved.toml").string() + " --quiet --out " +
                        (dir_ / "again").string());
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_EQ(ReadFile(dir_ / "again/flows.csv"), flows);
}

TEST_F(CliTest, SameSeedGivesByteIdenticalOutputs) {
  fs::path scen = Write("s.toml", kSmallIncast);
  ASSERT_EQ(
      RunCli("run " + scen.string() + " --quiet --seed 7 --out " + (dir_ / "a").string()).code, 0);
  ASSERT_EQ(
      RunCli("run " + scen.string() + " --quiet --seed 7 --out " + (dir_ / "b").string()).code, 0);
  for (const char* f : {"flows.csv", "resolved.toml", "timeseries/queue.csv", "timeseries/pfc.csv",
                        "timeseries/throughput.csv", "timeseries/rate.csv"}) {
    EXPECT_EQ(ReadFile(dir_ / "a" / f), ReadFile(dir_ / "b" / f)) << f;
  }
}

TEST_F(CliTest, DefaultScenarioRuns) {
  Result r = RunCli("run --out " + (dir_ / "d").string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("8 of 8 flows finished"), std::string::npos) << r.out;
}

TEST_F(CliTest, SeedOutOfRangeIsAnErrorNotClamped) {
  for (const char* seed : {"18446744073709551616", "99999999999999999999", "-5", "x", "1.5"}) {
    Result r =
        RunCli(std::string("run --quiet --seed ") + seed + " --out " + (dir_ / "s").string());
    EXPECT_EQ(r.code, 1) << seed;
    EXPECT_NE(r.out.find("seed: expected an integer 0..18446744073709551615"), std::string::npos)
        << r.out;
  }
}

// Every uint64 is a seed (issue 43, item 14): above TOML's integers (2^63 - 1) it is a string in
// a file and in resolved.toml, which runs again with the same seed.
TEST_F(CliTest, EveryUint64IsASeed) {
  const fs::path scen = dir_ / "s.toml";
  std::ofstream(scen) << kSmallIncast;
  for (const std::string seed :
       {"9223372036854775807", "9223372036854775808", "18446744073709551615"}) {
    const fs::path out = dir_ / ("r" + seed);
    Result r =
        RunCli("run " + scen.string() + " --quiet --seed " + seed + " --out " + out.string());
    ASSERT_EQ(r.code, 0) << seed << ": " << r.out;
    const bool beyond_toml = seed != "9223372036854775807";
    const std::string resolved = ReadFile(out / "resolved.toml");
    EXPECT_NE(resolved.find(beyond_toml ? "seed = \"" + seed + "\"\n" : "seed = " + seed + "\n"),
              std::string::npos)
        << resolved;
    EXPECT_NE(ReadFile(out / "summary.json").find("\"seed\": " + seed + ","), std::string::npos);
    r = RunCli("run " + (out / "resolved.toml").string() + " --quiet --out " +
               (dir_ / "again").string());
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(ReadFile(dir_ / "again" / "flows.csv"), ReadFile(out / "flows.csv")) << seed;
    fs::remove_all(dir_ / "again");
  }
  // Written unquoted in a file, a seed beyond TOML's integers is refused with what fits.
  std::ofstream(dir_ / "big.toml") << "seed = 18446744073709551615\n";
  Result r = RunCli("check " + (dir_ / "big.toml").string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("TOML's integers are -9223372036854775808..9223372036854775807; a seed up "
                       "to 18446744073709551615 is written as a string of digits"),
            std::string::npos)
      << r.out;
}

// Whole-number options say what they accept (issue 43, item 14), not CLI11's range in doubles
// ("Value 0 not in range 0.000000 to 1797...").
TEST_F(CliTest, WholeNumberOptionsSayWhatTheyAccept) {
  const std::string automatic = " (or omit it for automatic)";
  const struct {
    std::string args, message;
  } cases[] = {
      {"run --threads 0", "--threads: expected a whole number >= 1" + automatic + ", got 0"},
      {"run --threads -1", "--threads: expected a whole number >= 1" + automatic + ", got -1"},
      {"run --threads abc",
       "--threads: expected a whole number >= 1" + automatic + ", got \"abc\""},
      {"run --threads 1.5",
       "--threads: expected a whole number >= 1" + automatic + ", got \"1.5\""},
      {"run --threads 99999999999999999999", "--threads: expected a whole number 1..2147483647" +
                                                 automatic + ", got 99999999999999999999"},
      {"ns3 config.txt --threads 0",
       "--threads: expected a whole number >= 1" + automatic + ", got 0"},
      {"sweep --threads 0", "--threads: expected a whole number >= 1" + automatic + ", got 0"},
      {"sweep --seeds 0",
       "--seeds: expected a whole number >= 1 (or omit it: one run per point), got 0"},
      {"sweep --jobs 0", "--jobs: expected a whole number >= 1, got 0"},
      {"fluid --flows abc",
       "--flows: expected a whole number >= 1 (or omit it for the scenario's flows), got \"abc\""},
      {"fluid --map --jobs 0",
       "--jobs: expected a whole number >= 1 (or omit it for every core), got 0"},
  };
  for (const auto& c : cases) {
    Result r = RunCli(c.args);
    EXPECT_EQ(r.code, 2) << c.args << ": " << r.out;
    EXPECT_NE(r.out.find(c.message + "\n"), std::string::npos) << c.args << ": " << r.out;
    EXPECT_EQ(r.out.find("not in range"), std::string::npos) << c.args << ": " << r.out;
  }
}

TEST_F(CliTest, CheckShowsWhichPortsGotWhichSettings) {
  // A fabric with 100G hosts and 400G switch links: thresholds and alpha by port rate.
  fs::path scen = Write("f.toml", R"([topology]
type = "leaf_spine"
leaves = 2
spines = 2
hosts_per_leaf = 2
link_rate = "100Gbps"
fabric_rate = "400Gbps"
[switch.ecn]
by_rate = [{rate = "400Gbps", kmin = "1600KB", kmax = "6400KB", pmax = 0.2}]
[switch.pfc]
by_rate = [{rate = "400Gbps", alpha = 0.5}]
[[flow]]
src = 0
dst = 3
size = "10KB"
)");
  Result r = RunCli("check " + scen.string(), "2>&1 >/dev/null");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("100Gbps 1us: 4 ports on 2 switches: ECN kmin 5KB kmax 200KB pmax 0.01, "
                       "PFC alpha 0.125"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("400Gbps 1us: 8 ports on 4 switches: ECN kmin 1.6MB kmax 6.4MB pmax 0.2, "
                       "PFC alpha 0.5"),
            std::string::npos)
      << r.out;
  r = RunCli("check " + scen.string() + " --ports", "2>&1 >/dev/null");
  EXPECT_NE(r.out.find("s0:2 -> s2  400Gbps 1us  ECN kmin 1.6MB"), std::string::npos) << r.out;
}

TEST_F(CliTest, CheckPrintsTheResolvedScenario) {
  fs::path scen = Write("s.toml", kSmallIncast);
  Result r = RunCli("check " + scen.string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("kmin = \"5KB\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[[flow]]"), std::string::npos) << r.out;
}

// `check` counts a collective's flows and does not build them (a 16,384-GPU AllReduce's 67
// million take 8.5 GB): the count, and every key, rank and route checked, in a moment.
TEST_F(CliTest, CheckCountsACollectivesFlowsWithoutBuildingThem) {
  const fs::path scen = Write("ring.toml",
                              "[topology]\ntype = \"rail\"\nservers = 16\ngpus_per_server = 8\n"
                              "servers_per_leaf = 4\nspines = 4\n[[collective]]\nop = "
                              "\"allreduce\"\nalgorithm = \"ring\"\nsize = \"16MB\"\n");
  const Result r = RunCli("check " + scen.string(), "2>&1 >/dev/null");
  ASSERT_EQ(r.code, 0) << r.out;
  // A ring over 128 ranks: 2 x 127 steps of 128 flows.
  EXPECT_NE(r.out.find(": ok (128 hosts, 36 switches, 32512 flows, 32512 of them from 1 "
                       "collective, counted but not built)"),
            std::string::npos)
      << r.out;
}

// A job's flows too, and the rule that keeps its run to one thread is still told.
TEST_F(CliTest, CheckCountsAJobsFlowsWithoutBuildingThem) {
  const fs::path scen =
      Write("job.toml",
            "[topology]\ntype = \"rail\"\nservers = 2\ngpus_per_server = 4\nservers_per_leaf = 2\n"
            "spines = 1\n[[job]]\ntp = 4\nstep_done = \"ack_arrival\"\n[[job.layer]]\n"
            "weight_grad_comm = \"allreduce\"\nweight_grad_size = \"1MB\"\n");
  const Result r = RunCli("check " + scen.string(), "2>&1 >/dev/null");
  ASSERT_EQ(r.code, 0) << r.out;
  // Four DP rings of 2 ranks (one per TP rank): 2 steps of 2 flows each.
  EXPECT_NE(r.out.find(": ok (8 hosts, 5 switches, 16 flows, 16 of them from 1 job, counted but "
                       "not built)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("note: step_done = \"ack_arrival\" runs on one thread"), std::string::npos)
      << r.out;
}

TEST_F(CliTest, BadInputsExitWithOneAndNameTheProblem) {
  struct Case {
    const char* name;
    std::string text;
    const char* must_contain;
  };
  std::string base = "[topology]\ntype = \"star\"\nhosts = 3\n";
  std::string flow = "[[flow]]\nsrc = 1\ndst = 0\nsize = \"10KB\"\n";
  std::vector<Case> cases = {
      {"unknown_key", base + "colour = 1\n" + flow, "colour"},
      {"bad_unit", base + "link_rate = \"40Gbit\"\n" + flow, "link_rate"},
      {"negative_rate", base + "link_rate = \"-40Gbps\"\n" + flow, "link_rate"},
      {"zero_size", base + "[[flow]]\nsrc = 1\ndst = 0\nsize = \"0B\"\n", "size"},
      {"kmin_gt_kmax", base + flow + "[switch.ecn]\nkmin = \"300KB\"\nkmax = \"200KB\"\n", "kmin"},
      {"pmax", base + flow + "[switch.ecn]\npmax = 1.5\n", "pmax"},
      {"missing_host", base + "[[flow]]\nsrc = 7\ndst = 0\nsize = \"10KB\"\n", "src"},
      {"src_eq_dst", base + "[[flow]]\nsrc = 1\ndst = 1\nsize = \"10KB\"\n", "dst"},
      {"wrong_type", "[topology]\nhosts = \"nine\"\n" + flow, "hosts"},
      {"syntax", "[topology\nhosts = 3\n", "s.toml"},
      {"unknown_node",
       "[topology]\ntype = \"custom\"\nhosts = 2\nswitches = 1\nlinks = [[\"h0\",\"s0\"],"
       "[\"h1\",\"s4\"]]\n" +
           flow.substr(0, 0) + "[[flow]]\nsrc = 1\ndst = 0\nsize = \"1KB\"\n",
       "s4"},
      {"no_route",
       "[topology]\ntype = \"custom\"\nhosts = 2\nswitches = 2\nlinks = [[\"h0\",\"s0\"],"
       "[\"h1\",\"s1\"]]\n[[flow]]\nsrc = 1\ndst = 0\nsize = \"1KB\"\n",
       "no path"},
      {"no_flows", base, "flow"},
  };
  for (const Case& c : cases) {
    fs::path scen = Write("s.toml", c.text);
    Result r = RunCli("run " + scen.string() + " --out " + (dir_ / c.name).string());
    EXPECT_EQ(r.code, 1) << c.name << ": " << r.out;
    EXPECT_NE(r.out.find(c.must_contain), std::string::npos) << c.name << ": " << r.out;
    EXPECT_NE(r.out.find("error"), std::string::npos) << c.name << ": " << r.out;
    EXPECT_FALSE(fs::exists(dir_ / c.name / "summary.json")) << c.name;
  }
}

TEST_F(CliTest, GarbageAndMissingFilesAreInputErrors) {
  std::string garbage;
  for (int i = 0; i < 512; ++i) garbage.push_back(static_cast<char>((i * 7919) % 256));
  fs::path scen = Write("garbage.toml", garbage);
  Result r = RunCli("run " + scen.string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("garbage.toml"), std::string::npos) << r.out;
  r = RunCli("run " + (dir_ / "nope.toml").string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("nope.toml"), std::string::npos) << r.out;
  r = RunCli("check " + (dir_ / "nope.toml").string());
  EXPECT_EQ(r.code, 1) << r.out;
}

TEST_F(CliTest, BadOverridesAreInputErrors) {
  fs::path scen = Write("s.toml", kSmallIncast);
  Result r = RunCli("run " + scen.string() + " --set switch.ecn.kmax=banana");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("kmax"), std::string::npos) << r.out;
  r = RunCli("run " + scen.string() + " --set no.such.key=1");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("no.such.key"), std::string::npos) << r.out;
  // DCQCN parameters are checked by name and value.
  r = RunCli("run --set cc.g=2");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("cc.g"), std::string::npos) << r.out;
  r = RunCli("check " + scen.string() + " --set cc.algorithm=dcqcn --set cc.gain=0.1");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("cc.gain: unknown DCQCN parameter"), std::string::npos) << r.out;
  r = RunCli("run --set cc.profile=cx7");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("cc.profile"), std::string::npos) << r.out;
}

// An error names the option the user typed, not the --set it becomes (issue 28, item 12).
TEST_F(CliTest, ErrorsNameTheOptionTyped) {
  Result r = RunCli("run --quiet --seed abc --out " + (dir_ / "s").string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("error: --seed abc: seed: expected an integer 0.."), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("--set"), std::string::npos) << r.out;
  r = RunCli("sweep --quiet --vary workload.sender=2,4 --out " + (dir_ / "w").string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("--vary workload.sender=2: unknown key workload.sender; did you mean "
                       "senders?"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("--set"), std::string::npos) << r.out;
  // A [cc] value is checked when resolved, later: it still names --vary.
  r = RunCli("sweep --quiet --vary cc.rai=10Mbps,banana --out " + (dir_ / "c").string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("--vary cc.rai=banana: cc.rai: expected a rate"), std::string::npos)
      << r.out;
  // --set still says --set.
  r = RunCli("run --quiet --set seed=abc --out " + (dir_ / "s").string());
  EXPECT_NE(r.out.find("error: --set seed=abc: seed"), std::string::npos) << r.out;
}

// Misspellings get a "did you mean": [cc] parameters, profiles, algorithms and commands
// (issue 28, item 12).
TEST_F(CliTest, MisspellingsGetTheNearestName) {
  Result r = RunCli("run --quiet --set cc.ria=10Mbps --out " + (dir_ / "s").string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("cc.ria: unknown DCQCN parameter; did you mean rai? (known: "),
            std::string::npos)
      << r.out;
  r = RunCli("run --quiet --set cc.algorithm=timley --out " + (dir_ / "s").string());
  EXPECT_NE(r.out.find("got \"timley\"; did you mean \"timely\"?"), std::string::npos) << r.out;
  r = RunCli("run --quiet --set cc.profile=mxl5 --out " + (dir_ / "s").string());
  EXPECT_NE(r.out.find("got \"mxl5\"; did you mean \"mlx5\"?"), std::string::npos) << r.out;
  r = RunCli("runn");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error: unknown command \"runn\"; did you mean run? (commands: run, "),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("A subcommand is required"), std::string::npos) << r.out;
  r = RunCli("frobnicate");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error: unknown command \"frobnicate\" (commands: run, "), std::string::npos)
      << r.out;
}

// A PAUSE too short to be refreshed in time is warned of by check and run (issue 28, item 8).
TEST_F(CliTest, CheckAndRunWarnOfAPauseTooShortToRefresh) {
  fs::path scen = Write("s.toml", kSmallIncast);
  for (const std::string& cmd :
       {"check " + scen.string(), "run " + scen.string() + " --out " + (dir_ / "o").string()}) {
    Result r = RunCli(cmd + " --set switch.pfc.pause_quanta=1", "2>&1 >/dev/null");
    EXPECT_NE(r.out.find("warning: switch.pfc.pause_quanta = 1 is too short to keep a PAUSE in "
                         "force"),
              std::string::npos)
        << cmd << ": " << r.out;
  }
}

// A buffer too small for its headroom: the warning (the paper's rule, all 8 priorities) and the
// error (what the run sets aside) give the same headroom per port and priority and say what
// each total counts (issue 28, item 12).
TEST_F(CliTest, TooSmallABufferGivesOneHeadroomFigure) {
  Result r = RunCli("run --set switch.buffer=100KB --out " + (dir_ / "o").string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("the paper's rule sets headroom aside for all 8 priorities, which on its "
                       "ports (9 ports, buffer 100KB, headroom 13.35 KB per port and priority) "
                       "takes the whole buffer (960.63 KB, where a run sets it aside only for "
                       "the priorities that carry data)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("switch.buffer: 100.00 KB cannot hold what its 9 ports set aside for the "
                       "1 priority that carries data: a reserve of 4.00 KB and a headroom of "
                       "13.35 KB per port and priority, 156.08 KB in all"),
            std::string::npos)
      << r.out;
}

TEST_F(CliTest, UsageErrorsExitWithTwo) {
  EXPECT_EQ(RunCli("").code, 2);
  EXPECT_EQ(RunCli("frobnicate").code, 2);
  EXPECT_EQ(RunCli("run --no-such-flag").code, 2);
  EXPECT_EQ(RunCli("--help").code, 0);
}

}  // namespace
