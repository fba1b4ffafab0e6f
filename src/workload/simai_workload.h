// SimAI's workload files (aliyun/SimAI; AICB writes them): a training job's parallelism and, per
// layer, the compute time and the communication of its forward pass, its input gradient and its
// weight gradient. Read exactly as SimAI's astra-sim reads them (Workload::initialize_workload),
// but what it would skip or misread silently is an error naming the file, the line and the field.
//
// Line 1: the parallelism policy, then `key: value` pairs: model_parallel_NPU_group (the TP
// group), ep, pp, vpp, ga, all_gpus, checkpoints (a count, then that many layer indices),
// checkpoint_initiates (the same), pp_comm (bytes of each pipeline message; AICB may write it as
// a float with no fraction). Line 2: the number of layers. Then per layer, whitespace-separated:
// name, dependency, forward compute time (ns), forward comm type, forward comm size (bytes), the
// same three for the input gradient and for the weight gradient, and the update time (ns).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.h"

namespace dcqcn {

// The collective of a phase: its operation, and the group it runs over (the type's suffix: none
// is TP for the forward pass and the input gradient, DP for the weight gradient; `_EP`, `_DP_EP`).
enum class SimaiOp { kNone, kAllReduce, kAllGather, kReduceScatter, kAllToAll, kAllReduceAllToAll };
enum class SimaiGroup { kNone, kTp, kDp, kEp, kDpEp };
std::string_view Name(SimaiOp op);
std::string_view Name(SimaiGroup group);

struct SimaiPhase {
  Time compute = 0;
  SimaiOp op = SimaiOp::kNone;
  SimaiGroup group = SimaiGroup::kNone;
  Bytes size = 0;
};

struct SimaiLayer {
  std::string name;
  int dependency = -1;
  // Forward, input gradient, weight gradient.
  std::array<SimaiPhase, 3> phases;
  Time update = 0;
  int line = 0;  // in the file
};

struct SimaiWorkload {
  std::string policy;
  int tp = 1;  // model_parallel_NPU_group
  int ep = 1;
  int pp = 1;
  int vpp = 1;
  int ga = 1;
  int all_gpus = 1;
  Bytes pp_comm = 0;
  std::vector<int> checkpoints;
  std::vector<int> checkpoint_initiates;
  std::vector<SimaiLayer> layers;
};

// The policy AICB writes, the one SimAI runs training jobs with; others are refused.
inline constexpr std::string_view kSimaiTrainingPolicy = "HYBRID_TRANSFORMER_FWD_IN_BCKWD";

// Reads SimAI workload file `path` (or its text, named `path` in messages).
SimaiWorkload ReadSimaiWorkload(const std::string& path);
SimaiWorkload ParseSimaiWorkload(const std::string& path, const std::string& text);

}  // namespace dcqcn
