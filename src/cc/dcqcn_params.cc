// DCQCN profiles (the spec's parameter table, section 1.8) and [cc] overrides.
#include "cc/dcqcn_params.h"

#include <fmt/format.h>

#include <cstdlib>
#include <functional>
#include <map>

#include "core/error.h"

namespace dcqcn {

DcqcnParams DcqcnParams::Profile(const std::string& name) {
  DcqcnParams p;  // the struct's defaults are the paper's
  if (name == "paper") {
    // SIGCOMM'15 and its CoNEXT'16 fluid model: N 50us, K 55us, g 1/256, alpha0 1 (fluid model
    // start), T 55us, B 10MB, F 5, R_AI 40Mbps. R_HAI and the minimum rate are not in the paper:
    // the DCQCN author's ns3-rdma sample config gives R_HAI 200Mbps, its attributes 100Mbps.
    return p;
  }
  if (name == "mlx5") {
    // ConnectX firmware defaults (NVIDIA DCQCN parameters page, mlx5 debugfs, mlxconfig dump).
    p.mode = Mode::kSampled;
    p.stage_rule = StageRule::kHpcc;          // rpg_threshold counts increase events
    p.g = 1.0 - 1019.0 / 1024.0;              // dce_tcp_g 1019: alpha *= 1019/1024
    p.initial_alpha = 1023.0 / 1024.0;        // initial_alpha_value 1023 (Q10)
    p.alpha_period = 1 * kMicrosecond;        // dce_tcp_rtt
    p.rate_reduce_period = 4 * kMicrosecond;  // rate_reduce_monitor_period
    p.timer = 300 * kMicrosecond;             // rpg_time_reset
    p.byte_counter = 32767;                   // rpg_byte_reset (15-bit field, bytes)
    p.f = 1;                                  // rpg_threshold
    p.rai = 5 * kMbps;                        // rpg_ai_rate
    p.rhai = 50 * kMbps;                      // rpg_hai_rate
    p.min_rate = 1 * kMbps;                   // rpg_min_rate
    p.min_dec_factor = 0.5;                   // rpg_min_dec_fac 50%
    p.clamp_target_rate = false;              // clamp_tgt_rate 0
    p.clamp_after_time_inc = true;            // clamp_tgt_rate_after_time_inc 1
    p.cnp_interval = 4 * kMicrosecond;        // min_time_between_cnps (sysfs read)
    return p;
  }
  if (name == "hpcc") {
    // HPCC's ns-3 DCQCN (CC_MODE 1) as its mix/config.txt and run.py "dcqcn" set it up.
    p.mode = Mode::kSampled;
    p.stage_rule = StageRule::kHpcc;  // RateIncEventMlx
    p.cnp_on_ack = true;              // CNP bit on the per-packet ACK
    p.cnp_interval = 0;
    p.g = 1.0 / 256;                          // EWMA_GAIN 0.00390625
    p.initial_alpha = 1.0;                    // m_alpha = 1 on the first CNP
    p.alpha_period = 1 * kMicrosecond;        // ALPHA_RESUME_INTERVAL 1
    p.rate_reduce_period = 4 * kMicrosecond;  // RATE_DECREASE_INTERVAL 4
    p.timer = 300 * kMicrosecond;             // RP_TIMER 300
    p.byte_counter = 0;                       // not implemented in HPCC
    p.f = 1;                                  // FAST_RECOVERY_TIMES 1
    p.rai = 20 * kMbps;                       // RATE_AI 20Mb/s (run.py: 5Mbps per 25G, 100G)
    p.rhai = 200 * kMbps;                     // RATE_HAI 200Mb/s
    p.min_rate = 1000 * kMbps;                // MIN_RATE 1000Mb/s
    p.clamp_target_rate = false;              // CLAMP_TARGET_RATE 0
    p.clamp_after_time_inc = true;            // clamps iff rpTimeStage != 0
    return p;
  }
  throw InputError(
      fmt::format("cc.profile: unknown profile \"{}\" (expected paper, mlx5 or hpcc)", name));
}

namespace {

struct ParamSetter {
  const char* expected;
  std::function<bool(DcqcnParams&, const std::string&)> set;  // false: bad value
};

bool ParseDouble(const std::string& text, double* out) {
  char* end = nullptr;
  *out = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

bool ParseBool(const std::string& text, bool* out) {
  if (text != "true" && text != "false") return false;
  *out = text == "true";
  return true;
}

template <typename T>
ParamSetter TimeParam(T DcqcnParams::*field, bool allow_zero) {
  return {allow_zero ? "a time >= 0 such as \"50us\"" : "a time > 0 such as \"55us\"",
          [=](DcqcnParams& p, const std::string& v) {
            auto t = ParseTime(v);
            if (!t || *t < 0 || (*t == 0 && !allow_zero)) return false;
            p.*field = *t;
            return true;
          }};
}

ParamSetter RateParam(Rate DcqcnParams::*field, bool allow_zero) {
  return {allow_zero ? "a rate >= 0 such as \"40Mbps\"" : "a rate > 0 such as \"100Mbps\"",
          [=](DcqcnParams& p, const std::string& v) {
            auto r = ParseRate(v);
            if (!r || *r < 0 || (*r == 0 && !allow_zero)) return false;
            p.*field = *r;
            return true;
          }};
}

ParamSetter FractionParam(double DcqcnParams::*field, bool allow_zero, const char* expected) {
  return {expected, [=](DcqcnParams& p, const std::string& v) {
            double d;
            if (!ParseDouble(v, &d) || d > 1 || d < 0 || (d == 0 && !allow_zero)) return false;
            p.*field = d;
            return true;
          }};
}

ParamSetter BoolParam(bool DcqcnParams::*field) {
  return {"true or false",
          [=](DcqcnParams& p, const std::string& v) { return ParseBool(v, &(p.*field)); }};
}

const std::map<std::string, ParamSetter>& Setters() {
  static const std::map<std::string, ParamSetter> setters = {
      {"mode",
       {"\"paper\" or \"sampled\"",
        [](DcqcnParams& p, const std::string& v) {
          if (v != "paper" && v != "sampled") return false;
          p.mode = v == "paper" ? DcqcnParams::Mode::kPaper : DcqcnParams::Mode::kSampled;
          return true;
        }}},
      {"stage_rule",
       {"\"paper\" or \"hpcc\"",
        [](DcqcnParams& p, const std::string& v) {
          if (v != "paper" && v != "hpcc") return false;
          p.stage_rule =
              v == "paper" ? DcqcnParams::StageRule::kPaper : DcqcnParams::StageRule::kHpcc;
          return true;
        }}},
      {"g", FractionParam(&DcqcnParams::g, false, "a number in (0, 1] such as 0.00390625")},
      {"initial_alpha", FractionParam(&DcqcnParams::initial_alpha, true, "a number in [0, 1]")},
      {"alpha_period", TimeParam(&DcqcnParams::alpha_period, false)},
      {"rate_reduce_period", TimeParam(&DcqcnParams::rate_reduce_period, false)},
      {"timer", TimeParam(&DcqcnParams::timer, false)},
      {"byte_counter",
       {"a size >= 0 such as \"10MB\" (0 = timer only)",
        [](DcqcnParams& p, const std::string& v) {
          auto b = ParseSize(v);
          if (!b || *b < 0) return false;
          p.byte_counter = *b;
          return true;
        }}},
      {"f",
       {"an integer >= 1",
        [](DcqcnParams& p, const std::string& v) {
          char* end = nullptr;
          long n = std::strtol(v.c_str(), &end, 10);
          if (v.empty() || end != v.c_str() + v.size() || n < 1 || n > 1000000) return false;
          p.f = static_cast<int>(n);
          return true;
        }}},
      {"rai", RateParam(&DcqcnParams::rai, true)},
      {"rhai", RateParam(&DcqcnParams::rhai, true)},
      {"hai_scaled", BoolParam(&DcqcnParams::hai_scaled)},
      {"min_rate", RateParam(&DcqcnParams::min_rate, false)},
      {"min_dec_factor", FractionParam(&DcqcnParams::min_dec_factor, true, "a number in [0, 1]")},
      {"rate_on_first_cnp", RateParam(&DcqcnParams::rate_on_first_cnp, true)},
      {"clamp_target_rate", BoolParam(&DcqcnParams::clamp_target_rate)},
      {"clamp_after_time_inc", BoolParam(&DcqcnParams::clamp_after_time_inc)},
      {"cut_uses_new_alpha", BoolParam(&DcqcnParams::cut_uses_new_alpha)},
      {"cap_target_at_line", BoolParam(&DcqcnParams::cap_target_at_line)},
      {"cnp_interval", TimeParam(&DcqcnParams::cnp_interval, true)},
      {"cnp_on_ack", BoolParam(&DcqcnParams::cnp_on_ack)},
  };
  return setters;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> DcqcnParamsText(const DcqcnParams& p) {
  auto b = [](bool v) { return std::string(v ? "true" : "false"); };
  auto d = [](double v) { return fmt::format("{}", v); };  // shortest exact representation
  using M = DcqcnParams::Mode;
  using S = DcqcnParams::StageRule;
  return {
      {"mode", p.mode == M::kPaper ? "paper" : "sampled"},
      {"stage_rule", p.stage_rule == S::kPaper ? "paper" : "hpcc"},
      {"g", d(p.g)},
      {"initial_alpha", d(p.initial_alpha)},
      {"alpha_period", FormatTime(p.alpha_period)},
      {"rate_reduce_period", FormatTime(p.rate_reduce_period)},
      {"timer", FormatTime(p.timer)},
      {"byte_counter", FormatSize(p.byte_counter)},
      {"f", std::to_string(p.f)},
      {"rai", FormatRate(p.rai)},
      {"rhai", FormatRate(p.rhai)},
      {"hai_scaled", b(p.hai_scaled)},
      {"min_rate", FormatRate(p.min_rate)},
      {"min_dec_factor", d(p.min_dec_factor)},
      {"rate_on_first_cnp", FormatRate(p.rate_on_first_cnp)},
      {"clamp_target_rate", b(p.clamp_target_rate)},
      {"clamp_after_time_inc", b(p.clamp_after_time_inc)},
      {"cut_uses_new_alpha", b(p.cut_uses_new_alpha)},
      {"cap_target_at_line", b(p.cap_target_at_line)},
      {"cnp_interval", FormatTime(p.cnp_interval)},
      {"cnp_on_ack", b(p.cnp_on_ack)},
  };
}

const std::vector<std::string>& DcqcnParamNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& [name, _] : Setters()) v.push_back(name);
    return v;
  }();
  return names;
}

DcqcnParams ResolveDcqcnParams(const Scenario& s) {
  DcqcnParams p;
  try {
    p = DcqcnParams::Profile(s.cc.profile);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", s.source, e.what()));
  }
  for (const auto& [key, param] : s.cc.params) {
    std::string where = param.line > 0 ? fmt::format("{}:{}", s.source, param.line)
                                       : fmt::format("--set cc.{}={}", key, param.value);
    auto it = Setters().find(key);
    if (it == Setters().end()) {
      std::string known;
      for (const std::string& n : DcqcnParamNames()) known += (known.empty() ? "" : ", ") + n;
      throw InputError(
          fmt::format("{}: cc.{}: unknown DCQCN parameter (known: {})", where, key, known));
    }
    if (!it->second.set(p, param.value)) {
      throw InputError(fmt::format("{}: cc.{}: expected {}, got {}", where, key,
                                   it->second.expected, param.value));
    }
  }
  return p;
}

}  // namespace dcqcn
