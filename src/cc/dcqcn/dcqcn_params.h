// DCQCN parameters: one options struct whose fields mirror the firmware's knobs, the three
// profiles of the spec's parameter table (paper, mlx5, hpcc), paper and mlx5 with a NIC's CNP
// generation limit (cx3pro, cx4), and the [cc] overrides.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cc/cc_config.h"
#include "cc/param_table.h"
#include "core/units.h"

namespace dcqcn {

struct DcqcnParams {
  // How the reaction point reacts to CNPs.
  //  paper:   every CNP cuts at once (SIGCOMM'15); alpha decays every K without a CNP.
  //  sampled: CNPs only set flags; alpha is updated every K and the rate is cut at most once
  //           per rate_reduce_period (ConnectX firmware, HPCC's ns-3 "mlx" code).
  enum class Mode { kPaper, kSampled };
  // How increase events pick FR/AI/HI.
  //  paper: the event first increments its count (iT or iB), then FR while max(iT,iB) < F, AI
  //         while min(iT,iB) < F, else HI (ns3-rdma, QCN).
  //  hpcc:  one stage count s = iT + iB read before incrementing: FR if s < F, AI if s == F,
  //         HI if s > F (HPCC's RateIncEventMlx).
  enum class StageRule { kPaper, kHpcc };

  Mode mode = Mode::kPaper;
  StageRule stage_rule = StageRule::kPaper;
  double g = 1.0 / 256;                        // alpha gain (dce_tcp_g)
  double initial_alpha = 1.0;                  // alpha on the first CNP (initial_alpha_value)
  Time alpha_period = 55 * kMicrosecond;       // K (dce_tcp_rtt)
  Time rate_reduce_period = 4 * kMicrosecond;  // sampled mode (rate_reduce_monitor_period)
  Time timer = 55 * kMicrosecond;              // T, rate-increase timer (rpg_time_reset)
  Bytes byte_counter = 10000000;               // B; 0 = timer-only increase (rpg_byte_reset)
  int f = 5;                                   // F, fast-recovery steps (rpg_threshold)
  Rate rai = 40 * kMbps;                       // additive increase step (rpg_ai_rate)
  Rate rhai = 200 * kMbps;                     // hyper increase step (rpg_hai_rate)
  bool hai_scaled = false;           // HI step R_HAI * (min(iT,iB) - F + 1) (ns3-rdma, QCN)
  Rate min_rate = 100 * kMbps;       // floor of a cut (rpg_min_rate)
  double min_dec_factor = 0;         // a cut multiplies Rc by at least this (rpg_min_dec_fac)
  Rate rate_on_first_cnp = 0;        // Rc = Rt = this on the first CNP; 0 = unused
  bool clamp_target_rate = true;     // Rt = Rc on every cut (clamp_tgt_rate)
  bool clamp_after_time_inc = true;  // else Rt = Rc if a timer increase happened since the last
                                     // cut (clamp_tgt_rate_after_time_inc); a byte-counter
                                     // increase always clamps
  bool cut_uses_new_alpha = false;   // update alpha before the cut (ns3-rdma) instead of after
  bool cap_target_at_line = true;    // Rt never exceeds line rate (HPCC); Rc always capped
  // Notification point.
  Time cnp_interval = 50 * kMicrosecond;  // N: at most one CNP per flow per N; 0 = every mark
  bool cnp_on_ack = false;                // HPCC: the CNP is a bit on the per-packet ACK
  // The NIC generates CNPs one at a time, this long each, for all the flows it receives; due
  // CNPs wait first come, first served. 0 = unlimited (the paper's parameters, the firmware
  // page and HPCC say nothing of it); cx3pro and cx4 set it from the paper authors' numbers.
  Time cnp_service_time = 0;

  static DcqcnParams Profile(std::string_view name);  // paper | mlx5 | hpcc | cx3pro | cx4
};

// The profile named in cc.profile with every cc.params override applied. Throws InputError
// naming the file (`source`), line and key for an unknown parameter or a bad value.
DcqcnParams ResolveDcqcnParams(const CcConfig& cc, std::string_view source);
// Every parameter as (name, value text in the form [cc] accepts), for resolved.toml.
std::vector<std::pair<std::string, std::string>> DcqcnParamsText(const DcqcnParams& p);
// Every parameter, once, in the order resolved.toml and the key reference show.
const std::vector<ParamSpec<DcqcnParams>>& DcqcnParamTable();
// paper, mlx5, hpcc, cx3pro, cx4: the names DcqcnParams::Profile accepts.
std::span<const CcProfileInfo> DcqcnProfiles();

}  // namespace dcqcn
