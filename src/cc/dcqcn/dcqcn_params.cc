// DCQCN profiles (the spec's parameter table, section 1.8, and the NP's CNP generation limit of
// section 2) and [cc] overrides.
#include "cc/dcqcn/dcqcn_params.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"

namespace dcqcn {

DcqcnParams DcqcnParams::Profile(std::string_view name) {
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
  // The NICs' CNP generators (spec section 2, from the DCQCN authors): "ConnectX-3 Pro can
  // generate one CNP every 1-5 us ... the NP can serve 10-20 congested flows [at 40G]; ConnectX-4
  // serves more than 200". Serving a flow means one CNP per N = 50 us, so a generator of s per
  // CNP serves 50us / s flows: 10-20 flows is s = 5..2.5 us (inside the quoted 1-5 us), 200
  // flows is s = 0.25 us.
  if (name == "cx3pro") {
    // The paper's testbed NIC with the paper's parameters; 2.5 us is the fast end of both
    // statements (20 flows), so the limit is not overstated: 5 us (10 flows) is the slow end.
    p.cnp_service_time = 2500 * kNanosecond;
    return p;
  }
  if (name == "cx4") {
    // The firmware's parameters; with its 4 us min_time_between_cnps the same generator serves
    // 16 flows at one CNP per interval each.
    p = Profile("mlx5");
    p.cnp_service_time = 250 * kNanosecond;
    return p;
  }
  throw InputError(fmt::format(
      "cc.profile: unknown profile \"{}\" (expected paper, mlx5, hpcc, cx3pro or cx4)", name));
}

const std::vector<ParamSpec<DcqcnParams>>& DcqcnParamTable() {
  using M = DcqcnParams::Mode;
  using S = DcqcnParams::StageRule;
  static const std::vector<ParamSpec<DcqcnParams>> params = {
      {{"mode", "string",
        "`\"paper\"`: every CNP cuts at once; `\"sampled\"`: CNPs set flags, alpha is updated "
        "every K and the rate cut at most once per rate_reduce_period (ConnectX firmware)"},
       "\"paper\" or \"sampled\"",
       [](DcqcnParams& p, const std::string& v) {
         if (v != "paper" && v != "sampled") return false;
         p.mode = v == "paper" ? M::kPaper : M::kSampled;
         return true;
       },
       [](const DcqcnParams& p) { return std::string(p.mode == M::kPaper ? "paper" : "sampled"); }},
      {{"stage_rule", "string",
        "How increase events choose fast recovery, additive or hyper increase: `\"paper\"` "
        "(ns3-rdma, QCN) or `\"hpcc\"` (HPCC's RateIncEventMlx)"},
       "\"paper\" or \"hpcc\"",
       [](DcqcnParams& p, const std::string& v) {
         if (v != "paper" && v != "hpcc") return false;
         p.stage_rule = v == "paper" ? S::kPaper : S::kHpcc;
         return true;
       },
       [](const DcqcnParams& p) {
         return std::string(p.stage_rule == S::kPaper ? "paper" : "hpcc");
       }},
      FractionParam<DcqcnParams>({"g", "number", "Alpha gain g, in (0, 1] (`dce_tcp_g`)"},
                                 &DcqcnParams::g, false, "a number in (0, 1] such as 0.00390625"),
      FractionParam<DcqcnParams>(
          {"initial_alpha", "number", "Alpha at the first CNP (`initial_alpha_value`)"},
          &DcqcnParams::initial_alpha, true, "a number in [0, 1]"),
      TimeParam<DcqcnParams>({"alpha_period", "time", "K, the alpha update period (`dce_tcp_rtt`)"},
                             &DcqcnParams::alpha_period, false),
      TimeParam<DcqcnParams>(
          {"rate_reduce_period", "time",
           "sampled mode: at most one cut per this period (`rate_reduce_monitor_period`)"},
          &DcqcnParams::rate_reduce_period, false),
      TimeParam<DcqcnParams>({"timer", "time", "T, the rate-increase timer (`rpg_time_reset`)"},
                             &DcqcnParams::timer, false),
      {{"byte_counter", "size",
        "B, bytes sent per rate-increase event; 0 = timer only (`rpg_byte_reset`)"},
       "a size >= 0 such as \"10MB\" (0 = timer only)",
       [](DcqcnParams& p, const std::string& v) {
         auto b = ParseSize(v);
         if (!b || *b < 0) return false;
         p.byte_counter = *b;
         return true;
       },
       [](const DcqcnParams& p) { return FormatSize(p.byte_counter); }},
      IntParam<DcqcnParams>(
          {"f", "integer", "F, the number of fast-recovery steps (`rpg_threshold`)"},
          &DcqcnParams::f, 1, 1000000, "an integer >= 1"),
      RateParam<DcqcnParams>({"rai", "rate", "Additive-increase step R_AI (`rpg_ai_rate`)"},
                             &DcqcnParams::rai, true, true),
      RateParam<DcqcnParams>({"rhai", "rate", "Hyper-increase step R_HAI (`rpg_hai_rate`)"},
                             &DcqcnParams::rhai, true, true),
      BoolParam<DcqcnParams>(
          {"hai_scaled", "boolean",
           "The hyper-increase step grows with the stage: R_HAI x (min(iT, iB) - F + 1) "
           "(ns3-rdma, QCN)"},
          &DcqcnParams::hai_scaled),
      RateParam<DcqcnParams>({"min_rate", "rate", "Floor of a cut (`rpg_min_rate`)"},
                             &DcqcnParams::min_rate, false, true),
      FractionParam<DcqcnParams>(
          {"min_dec_factor", "number",
           "A cut multiplies Rc by at least this, in [0, 1] (`rpg_min_dec_fac`)"},
          &DcqcnParams::min_dec_factor, true, "a number in [0, 1]"),
      RateParam<DcqcnParams>(
          {"rate_on_first_cnp", "rate", "Rc = Rt = this at the first CNP; 0 = unused"},
          &DcqcnParams::rate_on_first_cnp, true),
      BoolParam<DcqcnParams>(
          {"clamp_target_rate", "boolean", "Rt = Rc at every cut (`clamp_tgt_rate`)"},
          &DcqcnParams::clamp_target_rate),
      BoolParam<DcqcnParams>(
          {"clamp_after_time_inc", "boolean",
           "Without clamp_target_rate: Rt = Rc only if a timer increase happened since the "
           "last cut (`clamp_tgt_rate_after_time_inc`); a byte-counter increase always "
           "clamps"},
          &DcqcnParams::clamp_after_time_inc),
      BoolParam<DcqcnParams>(
          {"cut_uses_new_alpha", "boolean",
           "Update alpha before the cut (ns3-rdma) instead of after it (the paper)"},
          &DcqcnParams::cut_uses_new_alpha),
      BoolParam<DcqcnParams>({"cap_target_at_line", "boolean",
                              "Rt never exceeds the line rate (HPCC); Rc always stays below it"},
                             &DcqcnParams::cap_target_at_line),
      TimeParam<DcqcnParams>(
          {"cnp_interval", "time",
           "N: the receiver sends at most one CNP per flow per N; 0 = one per marked packet "
           "(`min_time_between_cnps`)"},
          &DcqcnParams::cnp_interval, true),
      BoolParam<DcqcnParams>(
          {"cnp_on_ack", "boolean", "The CNP is a bit on the per-packet ACK (HPCC)"},
          &DcqcnParams::cnp_on_ack),
      TimeParam<DcqcnParams>(
          {"cnp_service_time", "time",
           "Time the receiver NIC takes to generate one CNP, one at a time for all its "
           "flows, first come, first served; N counts from when a CNP leaves, and a "
           "flow's marks while its CNP waits are folded into it; 0 = unlimited (ignored "
           "with cnp_on_ack). ConnectX-3 Pro 2.5-5us, ConnectX-4 0.25us: 50us / the 10-20 "
           "and 200 flows the DCQCN authors say each serves"},
          &DcqcnParams::cnp_service_time, true),
  };
  return params;
}

namespace {

constexpr CcProfileInfo kProfiles[] = {
    {"paper",
     "SIGCOMM'15 and its CoNEXT'16 fluid model; R_HAI and the minimum rate, which the paper "
     "does not give, from its author's ns3-rdma"},
    {"mlx5", "ConnectX firmware defaults (NVIDIA's DCQCN parameter page, mlx5 driver, mlxconfig)"},
    {"hpcc", "HPCC's ns-3 DCQCN (CC_MODE 1) as its mix/config.txt and run.py set it up"},
    {"cx3pro",
     "`paper` with a ConnectX-3 Pro CNP generator of 2.5us per CNP: the DCQCN authors give it "
     "1-5us per CNP, serving 10-20 congested flows at 40G; one CNP per flow per N = 50us makes "
     "that 50us / 20..10 = 2.5-5us, of which 2.5us is the fast end"},
    {"cx4",
     "`mlx5` with a ConnectX-4 CNP generator of 0.25us per CNP: the DCQCN authors say it serves "
     "200 flows, 50us / 200"},
};

}  // namespace

std::vector<std::pair<std::string, std::string>> DcqcnParamsText(const DcqcnParams& p) {
  return CcParamsText(DcqcnParamTable(), p);
}

std::span<const CcProfileInfo> DcqcnProfiles() { return kProfiles; }

DcqcnParams ResolveDcqcnParams(const CcConfig& cc, std::string_view source) {
  DcqcnParams p;
  try {
    p = DcqcnParams::Profile(cc.profile.empty() ? kProfiles[0].name : cc.profile);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", source, e.what()));
  }
  return ApplyCcOverrides(DcqcnParamTable(), p, cc, source, "DCQCN");
}

}  // namespace dcqcn
