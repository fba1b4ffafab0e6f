// SimAI workload files: the shared reference inputs read as SimAI reads them, and every
// malformed line refused naming the file, the line and the field.
#include "workload/simai_workload.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"

namespace dcqcn {
namespace {

constexpr const char* kHeader =
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 1 vpp: 8 ga: 1 "
    "all_gpus: 16 checkpoints: 0 checkpoint_initiates: 0\n";

std::string ErrorOf(const std::string& text) {
  try {
    ParseSimaiWorkload("w.txt", text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(SimaiWorkload, ReadsAHeaderAndItsLayers) {
  const SimaiWorkload w =
      ParseSimaiWorkload("w.txt", std::string(kHeader) +
                                      "2\n"
                                      "attn -1 556000 ALLREDUCE 16777216 1000 ALLGATHER_EP 4096 20 "
                                      "REDUCESCATTER_DP_EP 65536 7\n"
                                      "mlp 0 1 NONE 0 2 NONE 0 3 ALLREDUCE 1048576 4\n");
  EXPECT_EQ(w.policy, kSimaiTrainingPolicy);
  EXPECT_EQ(w.tp, 8);
  EXPECT_EQ(w.vpp, 8);
  EXPECT_EQ(w.all_gpus, 16);
  EXPECT_EQ(w.pp_comm, 0);
  ASSERT_EQ(w.layers.size(), 2u);
  const SimaiLayer& a = w.layers[0];
  EXPECT_EQ(a.name, "attn");
  EXPECT_EQ(a.dependency, -1);
  EXPECT_EQ(a.line, 3);
  EXPECT_EQ(a.phases[0].compute, 556000 * kNanosecond);
  EXPECT_EQ(a.phases[0].op, SimaiOp::kAllReduce);
  EXPECT_EQ(a.phases[0].group, SimaiGroup::kTp);  // no suffix in the forward pass: TP
  EXPECT_EQ(a.phases[0].size, 16777216);
  EXPECT_EQ(a.phases[1].op, SimaiOp::kAllGather);
  EXPECT_EQ(a.phases[1].group, SimaiGroup::kEp);
  EXPECT_EQ(a.phases[2].op, SimaiOp::kReduceScatter);
  EXPECT_EQ(a.phases[2].group, SimaiGroup::kDpEp);
  EXPECT_EQ(a.update, 7 * kNanosecond);
  const SimaiLayer& m = w.layers[1];
  EXPECT_EQ(m.phases[0].op, SimaiOp::kNone);
  EXPECT_EQ(m.phases[2].op, SimaiOp::kAllReduce);
  EXPECT_EQ(m.phases[2].group, SimaiGroup::kDp);  // no suffix in the weight gradient: DP
  EXPECT_EQ(m.line, 4);
}

// The workload files of ../shared/simai-reference's runs (copied to tests/workload/simai/).
TEST(SimaiWorkload, ReadsTheReferenceRunsInputs) {
  const std::string dir = std::string(DCQCN_SOURCE_DIR) + "/tests/workload/simai/";
  struct Case {
    const char* file;
    int tp;
    int phase;
    Bytes size;
  };
  for (const Case& c : {Case{"dp2x8_allreduce_1MiB.txt", 8, 2, 1048576},
                        Case{"dp2x8_allreduce_16MiB.txt", 8, 2, 16777216},
                        Case{"dp2x8_allreduce_128MiB.txt", 8, 2, 134217728},
                        Case{"tp16_allreduce_16MiB.txt", 16, 0, 16777216}}) {
    const SimaiWorkload w = ReadSimaiWorkload(dir + c.file);
    EXPECT_EQ(w.tp, c.tp) << c.file;
    EXPECT_EQ(w.all_gpus, 16) << c.file;
    ASSERT_EQ(w.layers.size(), 1u) << c.file;
    EXPECT_EQ(w.layers[0].phases[c.phase].op, SimaiOp::kAllReduce) << c.file;
    EXPECT_EQ(w.layers[0].phases[c.phase].size, c.size) << c.file;
    // The one communication: the weight gradient's over DP, or the forward pass's over TP.
    EXPECT_EQ(w.layers[0].phases[c.phase].group, c.phase == 2 ? SimaiGroup::kDp : SimaiGroup::kTp);
  }
}

TEST(SimaiWorkload, PpCommMayBeAWholeFloat) {
  std::string header = kHeader;
  header.replace(header.find("pp: 1"), 5, "pp: 2");
  const SimaiWorkload w = ParseSimaiWorkload(
      "w.txt", header.substr(0, header.size() - 1) +
                   " pp_comm: 5242880.0\n1\nl -1 1 NONE 0 1 NONE 0 1 NONE 0 1\n");
  EXPECT_EQ(w.pp, 2);
  EXPECT_EQ(w.pp_comm, 5242880);
}

TEST(SimaiWorkload, RefusesWhatSimaiWouldMisreadNamingLineAndField) {
  const std::string layer = "l -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1024 1\n";
  const std::string h = kHeader;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"DATA model_parallel_NPU_group: 8\n1\n" + layer,
       "w.txt:1: SimAI workload: parallelism policy: expected HYBRID_TRANSFORMER_FWD_IN_BCKWD"},
      {h.substr(0, h.find(" ep: 1")) + h.substr(h.find(" pp:")) + "1\n" + layer,
       "w.txt:1: SimAI workload: the header lacks ep:"},
      {h.substr(0, h.size() - 1) + " ga: 2\n1\n" + layer, "header key ga: given twice"},
      {h.substr(0, h.size() - 1) + " bogus: 3\n1\n" + layer, "unknown header key \"bogus:\""},
      {"HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 ep: 1 pp: 1 ga: 1 "
       "all_gpus: 16 vpp:\n1\n" +
           layer,
       "header key vpp: has no value"},
      {std::string(kHeader).replace(h.find("all_gpus: 16"), 12, "all_gpus: 12") + "1\n" + layer,
       "all_gpus 12 is not a multiple of model_parallel_NPU_group 8"},
      {std::string(kHeader).replace(h.find("pp: 1"), 5, "pp: 2") + "1\n" + layer,
       "pp: 2 needs pp_comm"},
      {h + "x\n" + layer, "w.txt:2: SimAI workload: expected the number of layers"},
      {h + "2\n" + layer,
       "w.txt:3: SimAI workload: expected layer 2 of 2 (a name), but the file "
       "ends"},
      {h + "1\nl -1 1 NONE 0 1 NONE 0 1 ALLREDUSE 1024 1\n",
       "w.txt:3: SimAI workload: layer 1 (l)'s weight-gradient comm type: expected NONE, "
       "ALLREDUCE"},
      {h + "1\nl -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1024.5 1\n",
       "layer 1 (l)'s weight-gradient comm size: expected a whole number of bytes, got "
       "\"1024.5\""},
      {h + "1\nl -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 0 1\n", "layer 1 (l): a ALLREDUCE of 0 bytes"},
      {h + "1\nl -1 -5 NONE 0 1 NONE 0 1 NONE 0 1\n", "layer 1 (l)'s forward compute time (ns)"},
      {h + "1\nl 3 1 NONE 0 1 NONE 0 1 NONE 0 1\n", "layer 1 (l)'s dependency (-1..0)"},
      {h + "1\nl -1 1 NONE 0 1 NONE 0 1 NONE 0\n",
       "layer 1 (l)'s update time (ns), but the "
       "file ends"},
      {h + "1\n" + layer + "extra\n", "w.txt:4: SimAI workload: more fields than the 1 layers"},
  };
  for (const auto& [text, part] : cases) {
    const std::string message = ErrorOf(text);
    EXPECT_NE(message.find(part), std::string::npos) << "got: " << message << "\nfor:\n" << text;
  }
}

}  // namespace
}  // namespace dcqcn
