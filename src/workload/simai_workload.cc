#include "workload/simai_workload.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>

#include "core/input_file.h"
#include "core/token_file.h"

namespace dcqcn {
namespace {

constexpr std::array<std::string_view, 6> kOpNames = {
    "NONE", "ALLREDUCE", "ALLGATHER", "REDUCESCATTER", "ALLTOALL", "ALLREDUCEALLTOALL"};
constexpr std::array<std::string_view, 5> kGroupNames = {"", "TP", "DP", "EP", "DP_EP"};
constexpr std::array<std::string_view, 3> kPhaseNames = {"forward", "input-gradient",
                                                         "weight-gradient"};
// SimAI reads header values with std::stoi.
constexpr int64_t kIntMax = std::numeric_limits<int>::max();

// The type of phase `phase` (0 forward, 1 input gradient, 2 weight gradient): an operation and
// an optional group suffix, e.g. ALLREDUCE, ALLTOALL_EP, REDUCESCATTER_DP_EP.
SimaiPhase ReadType(TokenFile& in, const std::string& layer, size_t phase) {
  const std::string field = fmt::format("{}'s {} comm type", layer, kPhaseNames[phase]);
  const TokenFile::Token& t = in.Next(field);
  SimaiPhase p;
  if (t.text == "NONE") return p;
  // The group suffix, then the operation before it.
  std::string_view op = t.text;
  p.group = phase == 2 ? SimaiGroup::kDp : SimaiGroup::kTp;
  for (const auto& [suffix, group] : {std::pair{std::string_view("_DP_EP"), SimaiGroup::kDpEp},
                                      std::pair{std::string_view("_EP"), SimaiGroup::kEp}}) {
    if (op.ends_with(suffix)) {
      op.remove_suffix(suffix.size());
      p.group = group;
      break;
    }
  }
  for (size_t i = 1; i < kOpNames.size(); ++i) {
    if (op == kOpNames[i]) {
      p.op = static_cast<SimaiOp>(i);
      return p;
    }
  }
  in.Fail(t.line, fmt::format("{}: expected NONE, ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL "
                              "or ALLREDUCEALLTOALL, alone or with _EP or _DP_EP, got \"{}\"",
                              field, t.text));
}

// A byte count, which AICB may write as a float ("5242880.0"): false unless it is whole and not
// negative.
bool WholeBytes(const std::string& text, Bytes* bytes) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v) || v < 0 || v != std::floor(v) ||
      v > 9.0e18) {
    return false;
  }
  *bytes = static_cast<Bytes>(v);
  return true;
}

Bytes ReadBytes(TokenFile& in, const std::string& field) {
  const TokenFile::Token& t = in.Next(field);
  Bytes bytes = 0;
  if (!WholeBytes(t.text, &bytes)) {
    in.Fail(t.line, fmt::format("{}: expected a whole number of bytes, got \"{}\"", field, t.text));
  }
  return bytes;
}

void ReadHeader(TokenFile& in, SimaiWorkload& w) {
  const int line = in.line();
  const TokenFile::Token& policy = in.Next("the parallelism policy");
  if (policy.text != kSimaiTrainingPolicy) {
    in.Fail(policy.line,
            fmt::format("parallelism policy: expected {} (what AICB writes, the training loop "
                        "dcqcn runs), got \"{}\"",
                        kSimaiTrainingPolicy, policy.text));
  }
  w.policy = policy.text;
  const std::map<std::string_view, int*> ints = {{"model_parallel_NPU_group:", &w.tp},
                                                 {"ep:", &w.ep},
                                                 {"pp:", &w.pp},
                                                 {"vpp:", &w.vpp},
                                                 {"ga:", &w.ga},
                                                 {"all_gpus:", &w.all_gpus}};
  std::set<std::string> seen;
  std::vector<TokenFile::Token> rest = in.RestOfLine(line);
  for (size_t i = 0; i < rest.size(); ++i) {
    const std::string& key = rest[i].text;
    if (!seen.insert(key).second) in.Fail(line, fmt::format("header key {} given twice", key));
    // The field after the key (and, for the checkpoint lists, the layer indices after it).
    auto next = [&]() -> const std::string& {
      if (i + 1 >= rest.size()) in.Fail(line, fmt::format("header key {} has no value", key));
      return rest[++i].text;
    };
    auto value = [&](std::string_view what, int64_t lo, int64_t hi) {
      const std::string& text = next();
      int64_t v = 0;
      if (!TokenFile::ParseInt(text, lo, hi, &v)) {
        in.Fail(line, fmt::format("{}: expected {} ({}..{}), got \"{}\"", key, what, lo, hi, text));
      }
      return v;
    };
    if (const auto it = ints.find(key); it != ints.end()) {
      *it->second = static_cast<int>(value("a group size", 1, kIntMax));
    } else if (key == "checkpoints:" || key == "checkpoint_initiates:") {
      std::vector<int>& list = key == "checkpoints:" ? w.checkpoints : w.checkpoint_initiates;
      const int64_t count = value("a count of layers", 0, kIntMax);
      for (int64_t k = 0; k < count; ++k) {
        list.push_back(static_cast<int>(value("a layer index", 0, kIntMax)));
      }
    } else if (key == "pp_comm:" || key == "pp_comm") {
      const std::string& text = next();
      if (!WholeBytes(text, &w.pp_comm)) {
        in.Fail(line, fmt::format("{}: expected a whole number of bytes, got \"{}\"", key, text));
      }
    } else {
      in.Fail(line,
              fmt::format("unknown header key \"{}\" (expected model_parallel_NPU_group:, ep:, "
                          "pp:, vpp:, ga:, all_gpus:, checkpoints:, checkpoint_initiates:, "
                          "pp_comm:)",
                          key));
    }
  }
  for (std::string_view required :
       {"model_parallel_NPU_group:", "ep:", "pp:", "vpp:", "ga:", "all_gpus:"}) {
    if (!seen.contains(std::string(required))) {
      in.Fail(line, fmt::format("the header lacks {}", required));
    }
  }
  if (w.all_gpus % w.tp != 0) {
    in.Fail(line, fmt::format("all_gpus {} is not a multiple of model_parallel_NPU_group {}",
                              w.all_gpus, w.tp));
  }
  if (w.all_gpus % (static_cast<int64_t>(w.tp) * w.pp) != 0) {
    in.Fail(line, fmt::format("all_gpus {} is not a multiple of model_parallel_NPU_group x pp "
                              "= {}",
                              w.all_gpus, static_cast<int64_t>(w.tp) * w.pp));
  }
  if (w.pp > 1 && w.pp_comm == 0) {
    in.Fail(line, fmt::format("pp: {} needs pp_comm: the bytes of each message between "
                              "pipeline stages",
                              w.pp));
  }
}

}  // namespace

std::string_view Name(SimaiOp op) { return kOpNames[static_cast<size_t>(op)]; }
std::string_view Name(SimaiGroup group) { return kGroupNames[static_cast<size_t>(group)]; }

SimaiWorkload ParseSimaiWorkload(const std::string& path, const std::string& text) {
  TokenFile in(path, "SimAI workload", text);
  SimaiWorkload w;
  ReadHeader(in, w);
  const int64_t count = in.Int("the number of layers", 1, 1000000);
  for (int64_t i = 0; i < count; ++i) {
    SimaiLayer l;
    l.line = in.line();
    l.name = in.Next(fmt::format("layer {} of {} (a name)", i + 1, count)).text;
    const std::string layer = fmt::format("layer {} ({})", i + 1, l.name);
    l.dependency = static_cast<int>(in.Int(layer + "'s dependency", -1, count - 1));
    for (size_t phase = 0; phase < 3; ++phase) {
      const Time compute =
          in.Int(fmt::format("{}'s {} compute time (ns)", layer, kPhaseNames[phase]), 0,
                 kMaxTime / kNanosecond);
      SimaiPhase p = ReadType(in, layer, phase);
      p.compute = compute * kNanosecond;
      p.size = ReadBytes(in, fmt::format("{}'s {} comm size", layer, kPhaseNames[phase]));
      l.phases[phase] = p;
    }
    l.update = in.Int(layer + "'s update time (ns)", 0, kMaxTime / kNanosecond) * kNanosecond;
    for (const SimaiPhase& p : l.phases) {
      if (p.op != SimaiOp::kNone && p.size == 0) {
        in.Fail(l.line, fmt::format("{}: a {} of 0 bytes", layer, Name(p.op)));
      }
    }
    w.layers.push_back(std::move(l));
  }
  if (!in.done()) {
    in.Fail(in.line(),
            fmt::format("more fields than the {} layers the file's second line says", count));
  }
  return w;
}

SimaiWorkload ReadSimaiWorkload(const std::string& path) {
  return ParseSimaiWorkload(path, ReadInputFile(path, "SimAI workload file", size_t{1} << 30));
}

}  // namespace dcqcn
