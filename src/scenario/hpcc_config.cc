// HPCC config.txt -> Scenario: the key table, value parsing with line numbers, the mapping onto
// our parameters and the warnings for what we do not model.
#include "scenario/hpcc_config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "cc/registry.h"
#include "core/edit_distance.h"
#include "core/error.h"
#include "core/input_file.h"
#include "core/utf8.h"
#include "ns3/hpcc_files.h"
#include "ns3/ns3_units.h"
#include "ns3/simai_topology.h"
#include "topology/builders.h"

namespace dcqcn {
namespace {

using KeyArity = std::map<std::string, int, std::less<>>;

// Every key scratch/third.cc reads, with its number of values (-1: a map "n rate v rate v ...").
const KeyArity& HpccKeys() {
  static const KeyArity keys = {
      {"ENABLE_QCN", 1},
      {"USE_DYNAMIC_PFC_THRESHOLD", 1},
      {"CLAMP_TARGET_RATE", 1},
      {"PAUSE_TIME", 1},
      {"DATA_RATE", 1},
      {"LINK_DELAY", 1},
      {"PACKET_PAYLOAD_SIZE", 1},
      {"L2_CHUNK_SIZE", 1},
      {"L2_ACK_INTERVAL", 1},
      {"L2_BACK_TO_ZERO", 1},
      {"TOPOLOGY_FILE", 1},
      {"FLOW_FILE", 1},
      {"TRACE_FILE", 1},
      {"TRACE_OUTPUT_FILE", 1},
      {"SIMULATOR_STOP_TIME", 1},
      {"ALPHA_RESUME_INTERVAL", 1},
      {"RP_TIMER", 1},
      {"EWMA_GAIN", 1},
      {"FAST_RECOVERY_TIMES", 1},
      {"RATE_AI", 1},
      {"RATE_HAI", 1},
      {"ERROR_RATE_PER_LINK", 1},
      {"CC_MODE", 1},
      {"RATE_DECREASE_INTERVAL", 1},
      {"MIN_RATE", 1},
      {"FCT_OUTPUT_FILE", 1},
      {"HAS_WIN", 1},
      {"GLOBAL_T", 1},
      {"MI_THRESH", 1},
      {"VAR_WIN", 1},
      {"FAST_REACT", 1},
      {"U_TARGET", 1},
      {"INT_MULTI", 1},
      {"RATE_BOUND", 1},
      {"ACK_HIGH_PRIO", 1},
      {"DCTCP_RATE_AI", 1},
      {"PFC_OUTPUT_FILE", 1},
      {"LINK_DOWN", 3},
      {"ENABLE_TRACE", 1},
      {"KMAX_MAP", -1},
      {"KMIN_MAP", -1},
      {"PMAX_MAP", -1},
      {"BUFFER_SIZE", 1},
      {"QLEN_MON_FILE", 1},
      {"QLEN_MON_START", 1},
      {"QLEN_MON_END", 1},
      {"MULTI_RATE", 1},
      {"SAMPLE_FEEDBACK", 1},
      {"PINT_LOG_BASE", 1},
      {"PINT_PROB", 1},
  };
  return keys;
}

// SimAI's ns-3 backend's (its entry's ReadConf): HPCC's but TOPOLOGY_FILE (the topology is its
// -n), QLEN_MON_START and QLEN_MON_END, plus the pause-time cap and its monitors' keys.
const KeyArity& SimaiKeys() {
  static const KeyArity keys = [] {
    KeyArity k = HpccKeys();
    for (const char* gone : {"TOPOLOGY_FILE", "QLEN_MON_START", "QLEN_MON_END"}) k.erase(gone);
    for (const char* added :
         {"NIC_TOTAL_PAUSE_TIME", "BW_MON_FILE", "RATE_MON_FILE", "CNP_MON_FILE", "MON_START",
          "MON_END", "QP_MON_INTERVAL", "QLEN_MON_INTERVAL", "BW_MON_INTERVAL"}) {
      k.emplace(added, 1);
    }
    return k;
  }();
  return keys;
}

struct Entry {
  std::vector<std::string> values;
  int line = 0;
};

// The config file's entries and typed access to them; every message names file, line and key.
class Config {
 public:
  Config(const std::string& path, const KeyArity& known) : path_(path), known_(known) {
    std::istringstream in(ReadInputFile(
        path, &known == &SimaiKeys() ? "SimAI config" : "HPCC config", size_t{64} << 20));
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
      ++line_no;
      std::istringstream fields(line);
      std::string key;
      if (!(fields >> key) || key[0] == '#') continue;  // blank line or our comment
      Entry e;
      e.line = line_no;
      for (std::string v; fields >> v;) e.values.push_back(v);
      auto known = known_.find(key);
      if (known == known_.end()) {
        Warn(line_no, key, fmt::format("unknown key, ignored{}", Suggestion(key)));
        unknown_.push_back(fmt::format("{} on line {}{}", key, line_no, Suggestion(key)));
        continue;
      }
      const int arity = known->second;
      if (arity > 0 && static_cast<int>(e.values.size()) != arity) {
        Fail(line_no, key,
             fmt::format("expected {} value{}, got {}", arity, arity == 1 ? "" : "s",
                         e.values.empty() ? std::string("none")
                                          : fmt::format("\"{}\"", fmt::join(e.values, " "))));
      }
      if (arity < 0) CheckMapShape(key, e);
      if (auto it = entries_.find(key); it != entries_.end()) {
        Warn(line_no, key,
             fmt::format("given again (also on line {}); the last value counts, as in that "
                         "simulator",
                         it->second.line));
      }
      entries_[key] = e;
    }
  }

  const std::string& path() const { return path_; }
  // For a missing required key: the unknown keys, which may be its misspelling.
  std::string UnknownKeysHint() const {
    return unknown_.empty() ? std::string()
                            : fmt::format(" (unknown keys: {})", fmt::join(unknown_, "; "));
  }
  std::vector<std::string>& warnings() { return warnings_; }
  bool Has(std::string_view key) const { return entries_.find(key) != entries_.end(); }
  int Line(std::string_view key) const {
    auto it = entries_.find(key);
    return it == entries_.end() ? 0 : it->second.line;
  }
  const Entry* Get(std::string_view key) const {
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : &it->second;
  }

  [[noreturn]] void Fail(int line, std::string_view key, const std::string& what) const {
    if (line > 0) throw InputError(fmt::format("{}:{}: {}: {}", path_, line, key, what));
    throw InputError(fmt::format("{}: {}: {}", path_, key, what));
  }
  void Warn(int line, std::string_view key, const std::string& what) {
    if (line > 0) {
      warnings_.push_back(fmt::format("{}:{}: {}: {}", path_, line, key, what));
    } else {
      warnings_.push_back(fmt::format("{}: {}: {}", path_, key, what));
    }
  }

  // Integer value in [lo, hi]; `fallback` when absent.
  int64_t Int(std::string_view key, int64_t fallback, int64_t lo, int64_t hi,
              std::string_view what = "an integer") const {
    const Entry* e = Get(key);
    if (e == nullptr) return fallback;
    return IntText(e->values[0], e->line, key, lo, hi, what);
  }
  int64_t IntText(const std::string& text, int line, std::string_view key, int64_t lo, int64_t hi,
                  std::string_view what) const {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || end != text.c_str() + text.size() || errno != 0 || v < lo || v > hi) {
      Fail(line, key, fmt::format("expected {} {}..{}, got \"{}\"", what, lo, hi, text));
    }
    return v;
  }
  bool Flag(std::string_view key, bool fallback) const {
    // That simulator reads an unsigned integer and treats any non-zero value as true.
    return Int(key, fallback ? 1 : 0, 0, UINT32_MAX, "0 or 1") != 0;
  }
  double Double(std::string_view key, double fallback, double lo, double hi,
                std::string_view what = "a number") const {
    const Entry* e = Get(key);
    if (e == nullptr) return fallback;
    return DoubleText(e->values[0], e->line, key, lo, hi, what);
  }
  double DoubleText(const std::string& text, int line, std::string_view key, double lo, double hi,
                    std::string_view what) const {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno != 0 || !std::isfinite(v) ||
        v < lo || v > hi) {
      Fail(line, key, fmt::format("expected {} in [{}, {}], got \"{}\"", what, lo, hi, text));
    }
    return v;
  }
  std::string Str(std::string_view key, const std::string& fallback) const {
    const Entry* e = Get(key);
    return e == nullptr ? fallback : e->values[0];
  }
  std::optional<Rate> DataRate(std::string_view key) const {
    const Entry* e = Get(key);
    if (e == nullptr) return std::nullopt;
    const std::optional<Rate> r = ParseNs3DataRate(e->values[0]);
    if (!r || *r <= 0) {
      Fail(e->line, key,
           fmt::format("expected an ns-3 data rate > 0 and at most {} such as \"20Mb/s\" or "
                       "\"100Gbps\", got \"{}\"",
                       FormatRate(kMaxRate), e->values[0]));
    }
    return r;
  }
  // A positive time given in microseconds (a decimal number), as third.cc's timers are.
  std::optional<Time> Micros(std::string_view key) const {
    const Entry* e = Get(key);
    if (e == nullptr) return std::nullopt;
    const double us = DoubleText(e->values[0], e->line, key, 0, 1e9, "a time in microseconds");
    const Time t = std::llround(us * static_cast<double>(kMicrosecond));
    if (t <= 0) Fail(e->line, key, fmt::format("expected a time > 0 us, got \"{}\"", e->values[0]));
    return t;
  }
  // A per-link-rate map ("n rate v rate v ..."): rate (bits/s) -> value text.
  std::map<Rate, std::string> Map(std::string_view key) const {
    std::map<Rate, std::string> out;
    const Entry* e = Get(key);
    if (e == nullptr) return out;
    for (size_t i = 1; i + 1 < e->values.size(); i += 2) {
      const Rate r = IntText(e->values[i], e->line, key, 1, kMaxRate, "a link rate in bits/s");
      out[r] = e->values[i + 1];
    }
    return out;
  }

 private:
  std::string Suggestion(std::string_view key) const {
    std::string near;
    size_t best = std::min<size_t>(4, key.size() / 2 + 1);
    for (const auto& [k, _] : known_) {
      const size_t d = EditDistance(key, k);
      if (d < best) {
        best = d;
        near = k;
      }
    }
    return near.empty() ? std::string(" (that simulator skips unknown keys silently)")
                        : fmt::format(" (did you mean {}?)", near);
  }
  void CheckMapShape(std::string_view key, const Entry& e) const {
    const std::string expected =
        "\"<n> <rate bits/s> <value> ...\" with n pairs, e.g. \"2 100000000000 400 "
        "400000000000 1600\"";
    if (e.values.empty()) Fail(e.line, key, fmt::format("expected {}, got nothing", expected));
    const int64_t n = IntText(e.values[0], e.line, key, 1, 1000, "a count of entries");
    if (static_cast<int64_t>(e.values.size()) != 1 + 2 * n) {
      Fail(e.line, key,
           fmt::format("expected {} with n = {}: {} values after n, got {}", expected, n, 2 * n,
                       e.values.size() - 1));
    }
  }

  std::string path_;
  const KeyArity& known_;
  std::vector<std::string> unknown_;  // "KEY on line N (did you mean ...?)"
  std::map<std::string, Entry, std::less<>> entries_;
  std::vector<std::string> warnings_;
};

// The parameters of `algorithm` that config.txt sets under its CC_MODE (its registry entry's
// ns3_keys). Missing keys take that simulator's defaults (third.cc's globals), except where
// those are broken: then the algorithm's ns-3 profile's value, with a warning.
void ReadCcKeys(Config& c, Scenario& s, const CcAlgorithm& algorithm, Rate min_rate) {
  s.cc.algorithm = algorithm.name;
  s.cc.profile = algorithm.ns3_profile;
  CcConfig profile_only{s.cc.algorithm, s.cc.profile, {}};
  const auto profile = algorithm.resolve(profile_only, "<built-in>")->ParamsText();
  auto profile_value = [&](std::string_view param) {
    for (const auto& [name, value] : profile) {
      if (name == param) return value;
    }
    throw InvariantError(fmt::format("{}: no parameter {}", algorithm.label, param));
  };
  auto broken = [&](const Ns3CcKey& k) {
    const std::string ours = profile_value(k.param);
    c.Warn(0, k.ns3_key,
           fmt::format("missing; that simulator's default {}; using the {} profile's {}", k.broken,
                       algorithm.ns3_profile, ours));
    return ours;
  };
  using K = Ns3CcKey::Kind;
  for (const Ns3CcKey& k : algorithm.ns3_keys) {
    const bool missing = !c.Has(k.ns3_key);
    std::string value;
    switch (k.kind) {
      case K::kMicros: {
        if (missing && !k.broken.empty()) {
          value = broken(k);
        } else {
          const auto fallback = static_cast<Time>(std::llround(k.ns3_default * kMicrosecond));
          value = FormatTime(c.Micros(k.ns3_key).value_or(fallback));
        }
        break;
      }
      case K::kRate:
        if (missing && !k.broken.empty()) {
          value = broken(k);
        } else {
          // A present key that is not a rate fails in DataRate.
          value = FormatRate(c.DataRate(k.ns3_key).value_or(static_cast<Rate>(k.ns3_default)));
        }
        break;
      case K::kGain: {
        if (missing) {
          value = broken(k);
          break;
        }
        const double g = c.Double(k.ns3_key, 0, 0, 1, "a gain (0 freezes alpha)");
        if (g <= 0) {
          c.Fail(c.Line(k.ns3_key), k.ns3_key,
                 "expected a gain in (0, 1], got 0 (0 freezes alpha)");
        }
        value = fmt::format("{}", g);
        break;
      }
      case K::kNumber:
        value = fmt::format(
            "{}", c.Double(k.ns3_key, k.ns3_default, k.min, k.max, std::string(k.expected)));
        break;
      case K::kInteger:
        value = std::to_string(c.Int(k.ns3_key, static_cast<int64_t>(k.ns3_default),
                                     static_cast<int64_t>(k.min), static_cast<int64_t>(k.max),
                                     std::string(k.expected)));
        break;
      case K::kFlag:
        value = c.Flag(k.ns3_key, k.ns3_default != 0) ? "true" : "false";
        break;
      case K::kMinRate:
        value = FormatRate(min_rate);
        break;
      case K::kRequired:
        if (c.Int(k.ns3_key, static_cast<int64_t>(k.ns3_default), 0, UINT32_MAX, "0 or 1") == 0) {
          c.Fail(c.Line(k.ns3_key), k.ns3_key, std::string(k.broken));
        }
        continue;  // sets no parameter
    }
    s.cc.params[std::string(k.param)] = CcConfig::Param{value, c.Line(k.ns3_key)};
  }
}

}  // namespace

WireFormat HpccWireFormat() {
  WireFormat w;
  w.data_headers = 48;  // PppHeader 14 + IPv4 20 + UDP 8 + SeqTsHeader 6 (no INT for DCQCN)
  w.ack_frame = 60;     // 14 + 20 + qbbHeader 12, padded up to 60
  w.ack_headers = 46;   // before padding: what an INT or time-stamp header adds to
  w.cnp_frame = 60;     // never sent: the CNP is a bit on the ACK
  w.min_frame = 60;
  w.gap = 0;          // no preamble, inter-frame gap or FCS
  w.whole_ns = true;  // ns-3 Time from a double keeps whole nanoseconds
  return w;
}

namespace {

// HPCC's config.txt, or with `simai_topology` SimAI.conf and that SimAI topology file.
HpccSetup LoadConfig(const std::string& config_path, const std::string* simai_topology) {
  const bool simai = simai_topology != nullptr;
  Config c(config_path, simai ? SimaiKeys() : HpccKeys());
  HpccSetup setup;
  Scenario& s = setup.scenario;
  s.source = config_path;
  s.name = std::filesystem::path(config_path).stem().string();
  if (s.name.empty() || s.name == "." || s.name == ".." || !IsValidUtf8(s.name)) s.name = "hpcc";

  // Congestion control.
  const int64_t cc_mode = c.Int("CC_MODE", 1, 0, UINT32_MAX, "a CC mode");
  // Missing keys take that simulator's defaults (third.cc's globals) where those are sound.
  const Rate min_rate = c.DataRate("MIN_RATE").value_or(100 * kMbps);
  const CcAlgorithm* algorithm = FindCcAlgorithmByNs3Mode(cc_mode);
  if (algorithm == nullptr) {
    std::vector<std::string> available;
    for (const CcAlgorithm& a : CcAlgorithms()) {
      if (a.ns3_cc_mode != 0) available.push_back(fmt::format("{} ({})", a.ns3_cc_mode, a.label));
    }
    std::sort(available.begin(), available.end(), [](const std::string& x, const std::string& y) {
      return std::stoi(x) < std::stoi(y);
    });
    const std::string last = available.empty() ? "" : available.back();
    if (!available.empty()) available.pop_back();
    c.Fail(c.Line("CC_MODE"), "CC_MODE",
           fmt::format("{} is not available in dcqcn; it runs {} and {}{}", cc_mode,
                       fmt::join(available, ", "), last, cc_mode == 10 ? "; 10 is HPCC-PINT" : ""));
  }
  ReadCcKeys(c, s, *algorithm, min_rate);
  // Checked in every mode: a bad value is an error even where this mode ignores the key.
  c.DataRate("DCTCP_RATE_AI");
  c.Int("MI_THRESH", 5, 0, 1000000);
  c.Flag("FAST_REACT", true);
  c.Double("U_TARGET", 0.95, 0, 1e9);
  c.Int("INT_MULTI", 1, 0, 1000000);
  c.Flag("MULTI_RATE", true);
  c.Flag("SAMPLE_FEEDBACK", false);
  c.Double("PINT_LOG_BASE", 1.05, 0, 1e9);
  c.Double("PINT_PROB", 1.0, 0, 1e9);
  c.Double("PAUSE_TIME", 5, 0, 1e12);
  if (c.Has("DATA_RATE")) c.DataRate("DATA_RATE");
  if (const Entry* e = c.Get("LINK_DELAY"); e != nullptr && !ParseNs3Time(e->values[0])) {
    c.Fail(e->line, "LINK_DELAY",
           fmt::format("expected an ns-3 time such as \"0.001ms\", got \"{}\"", e->values[0]));
  }

  // Host NIC and transport.
  s.host.mtu =
      static_cast<int>(c.Int("PACKET_PAYLOAD_SIZE", 1000, 64, 9000, "a payload size in bytes"));
  const int64_t ack_interval = c.Int("L2_ACK_INTERVAL", 0, 0, UINT32_MAX, "a number of bytes");
  s.host.ack_interval = 1;
  if (ack_interval == 0) {
    c.Warn(c.Line("L2_ACK_INTERVAL"), "L2_ACK_INTERVAL",
           "0 (also the default) makes that simulator send no ACKs, so no flow ever finishes "
           "there; dcqcn ACKs every packet");
  } else if (ack_interval > s.host.mtu) {
    c.Warn(c.Line("L2_ACK_INTERVAL"), "L2_ACK_INTERVAL",
           fmt::format("{} bytes: that simulator ACKs the first time {} bytes have arrived and "
                       "then every packet; dcqcn ACKs every packet from the "
                       "first",
                       ack_interval, ack_interval));
  }
  c.Int("L2_CHUNK_SIZE", 0, 0, UINT32_MAX, "a number of bytes");
  if (c.Flag("L2_BACK_TO_ZERO", false)) {
    c.Warn(c.Line("L2_BACK_TO_ZERO"), "L2_BACK_TO_ZERO",
           "going back to the start of an L2_CHUNK_SIZE chunk on loss is not modelled; dcqcn "
           "goes back to the first lost packet (go-back-N)");
  }
  // Its NIC's ACK queue obeys the data class's pause unless ACK_HIGH_PRIO is 1.
  s.host.pause_acks = c.Int("ACK_HIGH_PRIO", 0, 0, UINT32_MAX, "0 or 1") == 0;
  s.host.window = c.Int("HAS_WIN", 1, 0, UINT32_MAX, "0 or 1") != 0;
  s.host.window_scales_with_rate = c.Flag("VAR_WIN", false);
  s.host.base_rtt = c.Int("GLOBAL_T", 1, 0, UINT32_MAX, "0 or 1") == 1 ? HostConfig::BaseRtt::kMax
                                                                       : HostConfig::BaseRtt::kPair;
  if (simai) s.host.base_rtt = HostConfig::BaseRtt::kMax;  // SimAI sets GLOBAL_T to 1 after reading
  if (!c.Flag("RATE_BOUND", true)) {
    c.Warn(c.Line("RATE_BOUND"), "RATE_BOUND",
           "0 (sending at line rate regardless of the CC rate) is not modelled; dcqcn always "
           "paces at the CC rate");
  }

  s.wire = HpccWireFormat();
  // SimAI's ns-3 is newer than HPCC's: its Time rounds to the nearest ns. Its reference runs
  // show it: a lone 131072 B transfer over two 2880 Gb/s NVSwitch links finishes in 489 ns
  // (frames of 25.13 ns taken as 25, ACKs of 0.17 ns as 0), and 524288 B over two 400 Gb/s
  // hops 59 ns (one per frame of 180.96 ns) later than with truncation.
  if (simai) s.wire.ns_rounding = WireFormat::NsRounding::kNearest;
  // Its switches queue ACKs in the data's class (SwitchNode's AckHighPrio is never set).
  s.host.ack_in_data_class = true;

  // Switches.
  s.sw.buffer = c.Int("BUFFER_SIZE", 16, 1, 1 << 20, "a buffer size in MB") << 20;
  s.sw.pfc.enabled = true;
  s.sw.pfc.dynamic_threshold = true;
  c.Flag("USE_DYNAMIC_PFC_THRESHOLD", true);
  s.sw.pfc.alpha = 0.125;          // switch-mmu pfc_a_shift 3
  s.sw.pfc.reserve = 4 * 1024;     // switch-mmu reserve
  s.sw.pfc.xon_offset = 3 * 1024;  // switch-mmu resume_offset
  s.sw.pfc.pause_until_resume = true;
  s.sw.pfc.headroom_rule = PfcConfig::HeadroomRule::kHpcc;  // 3 x rate x delay per port
  s.sw.ecmp_hash = SwitchConfig::EcmpHash::kHpcc;
  s.sw.ecn.enabled = c.Flag("ENABLE_QCN", true);
  const double error_rate = c.Double("ERROR_RATE_PER_LINK", 0, 0, 1, "a packet error rate");
  if (error_rate > 0) {
    c.Warn(c.Line("ERROR_RATE_PER_LINK"), "ERROR_RATE_PER_LINK",
           "random packet loss is not modelled; the links are lossless");
  }
  if (const Entry* e = c.Get("LINK_DOWN")) {
    const int64_t when = c.IntText(e->values[0], e->line, "LINK_DOWN", 0, kMaxTime / kMicrosecond,
                                   "a time in microseconds after 2 s");
    c.IntText(e->values[1], e->line, "LINK_DOWN", 0, UINT32_MAX, "a node id");
    c.IntText(e->values[2], e->line, "LINK_DOWN", 0, UINT32_MAX, "a node id");
    if (when != 0) {
      c.Warn(e->line, "LINK_DOWN",
             fmt::format("taking the link {} - {} down is not modelled; it stays up", e->values[1],
                         e->values[2]));
    }
  }

  // Run length and output files.
  s.duration = 3010 * kMillisecond;  // third.cc's default 3.01 s
  if (const Entry* e = c.Get("SIMULATOR_STOP_TIME")) {
    std::optional<Time> t = ParseSeconds(e->values[0]);
    if (simai) {
      // SimAI's runs end with the workload: its stock stop time, 4e13 s, means never. Ours end
      // when the job does, and at 100 s at the latest (the time series' sampler keeps at most
      // 10 million samples of 10 us; a job that runs longer says so in its summary).
      const double seconds =
          c.DoubleText(e->values[0], e->line, "SIMULATOR_STOP_TIME", 0, 1e300, "a time in seconds");
      if (seconds > 100) t = 100 * kSecond;
    }
    if (!t || *t <= 0) {
      c.Fail(e->line, "SIMULATOR_STOP_TIME",
             fmt::format("expected a time > 0 in seconds such as 2.1, got \"{}\"", e->values[0]));
    }
    s.duration = *t;
  }
  setup.fct_output_file = c.Str("FCT_OUTPUT_FILE", "fct.txt");
  setup.pfc_output_file = c.Str("PFC_OUTPUT_FILE", "pfc.txt");
  if (std::filesystem::path(setup.fct_output_file).lexically_normal() ==
      std::filesystem::path(setup.pfc_output_file).lexically_normal()) {
    // Both are written at the end of the run: the second would replace the first.
    c.Fail(c.Line("PFC_OUTPUT_FILE"), "PFC_OUTPUT_FILE",
           fmt::format("\"{}\" is also FCT_OUTPUT_FILE: the PFC file would overwrite the FCTs; "
                       "give them different paths",
                       setup.pfc_output_file));
  }
  if (c.Int("ENABLE_TRACE", 1, 0, UINT32_MAX, "0 or 1") != 0) {
    c.Warn(c.Line("ENABLE_TRACE"), "ENABLE_TRACE",
           fmt::format("{}: the packet trace ({}) is not written; use [output] timeseries in a "
                       "scenario for queues, rates and PFC",
                       c.Has("ENABLE_TRACE") ? "1" : "missing (default 1)",
                       c.Str("TRACE_OUTPUT_FILE", "TRACE_OUTPUT_FILE")));
  }
  if (simai) {
    // Its monitors are never scheduled (no schedule_monitor call in its entry): checked, inert.
    for (const char* key :
         {"MON_START", "MON_END", "QP_MON_INTERVAL", "QLEN_MON_INTERVAL", "BW_MON_INTERVAL"}) {
      c.Int(key, 0, 0, INT64_MAX, "a number");
    }
    if (c.Int("NIC_TOTAL_PAUSE_TIME", 0, 0, INT64_MAX, "a time") > 0) {
      c.Warn(c.Line("NIC_TOTAL_PAUSE_TIME"), "NIC_TOTAL_PAUSE_TIME",
             "a NIC's cap on the time it stays paused is not modelled; a PAUSE lasts until "
             "RESUME");
    }
  }
  const int64_t mon_start =
      simai ? 0 : c.Int("QLEN_MON_START", 2000000000, 0, kMaxTime / kNanosecond, "a time in ns");
  const int64_t mon_end =
      simai ? 0 : c.Int("QLEN_MON_END", 2100000000, 0, kMaxTime / kNanosecond, "a time in ns");
  if (c.Has("QLEN_MON_FILE") && mon_start < mon_end) {
    c.Warn(c.Line("QLEN_MON_FILE"), "QLEN_MON_FILE",
           "the queue-length monitor file is not written; dcqcn writes queue lengths to "
           "timeseries/queue.csv when a scenario asks for them");
  }
  s.output.ts_pfc = true;  // the PFC file is made from the PFC log

  // Topology.
  if (simai) {
    ReadSimaiTopology(*simai_topology, s.topology, &c.warnings());
  }
  for (const char* key : {"TOPOLOGY_FILE", "FLOW_FILE"}) {
    if (simai) break;  // the topology is SimAI's -n, the flows its workload's
    if (!c.Has(key)) {
      c.Fail(0, key,
             fmt::format("required: the path of the {} file{}", key[0] == 'T' ? "topology" : "flow",
                         c.UnknownKeysHint()));
    }
  }
  for (const char* key : {"TOPOLOGY_FILE", "FLOW_FILE"}) {
    if (simai) break;
    // Named with the config's line here; errors inside the file name the file's own line.
    const std::string path = c.Str(key, "");
    if (!IsValidUtf8(path)) {
      c.Fail(c.Line(key), key, "the path is not valid UTF-8 (it is written into resolved.toml)");
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      c.Fail(c.Line(key), key,
             fmt::format("cannot read {}: {}", path,
                         std::filesystem::exists(path, ec) ? "not a regular file"
                                                           : "No such file or directory"));
    }
  }
  if (!simai) ReadHpccTopology(c.Str("TOPOLOGY_FILE", ""), s.topology, &c.warnings());
  const TopologyConfig& topo = s.topology;

  // ECN: one setting for all switch ports, from the map entry of the hosts' link rate.
  Rate nic_rate = 0;  // that simulator's nic_rate: the link rate of the first host
  for (const LinkSpec& l : topo.links) {
    if (l.a == 0 || l.b == 0) nic_rate = l.rate;
  }
  std::set<Rate> port_rates;  // rates of switch ports
  for (const LinkSpec& l : topo.links) {
    if (!topo.is_host(l.a) || !topo.is_host(l.b)) port_rates.insert(l.rate);
  }
  const std::map<Rate, std::string> kmin = c.Map("KMIN_MAP");
  const std::map<Rate, std::string> kmax = c.Map("KMAX_MAP");
  const std::map<Rate, std::string> pmax = c.Map("PMAX_MAP");
  struct Ecn {
    Bytes kmin, kmax;
    double pmax;
  };
  std::map<Rate, Ecn> ecn_of;
  for (Rate r : port_rates) {
    Ecn e{};
    using Named = std::pair<const char*, const std::map<Rate, std::string>*>;
    for (const auto& [key, map] :
         {Named{"KMIN_MAP", &kmin}, Named{"KMAX_MAP", &kmax}, Named{"PMAX_MAP", &pmax}}) {
      auto it = map->find(r);
      if (it == map->end()) {
        c.Fail(c.Line(key), key,
               fmt::format("{}no entry for {} ({}), the rate of some switch ports; that "
                           "simulator needs one for every link rate",
                           c.Has(key) ? "" : "missing: ", r, FormatRate(r)));
      }
      if (std::string_view(key) == "PMAX_MAP") {
        e.pmax = c.DoubleText(it->second, c.Line(key), key, 0, 1, "a marking probability");
        if (e.pmax <= 0) {
          c.Fail(c.Line(key), key,
                 fmt::format("expected a probability in (0, 1] for {}, got 0", FormatRate(r)));
        }
      } else {
        const Bytes k =
            c.IntText(it->second, c.Line(key), key, 0, kMaxSize / 1000, "a threshold in KB") * 1000;
        (std::string_view(key) == "KMIN_MAP" ? e.kmin : e.kmax) = k;
      }
    }
    if (e.kmin > e.kmax) {
      c.Fail(c.Line("KMIN_MAP"), "KMIN_MAP",
             fmt::format("Kmin {} > Kmax {} for {}", FormatSize(e.kmin), FormatSize(e.kmax),
                         FormatRate(r)));
    }
    ecn_of[r] = e;
  }
  if (!ecn_of.empty()) {
    const Rate chosen = ecn_of.count(nic_rate) ? nic_rate : *port_rates.begin();
    const Ecn& e = ecn_of[chosen];
    s.sw.ecn.kmin = e.kmin;
    s.sw.ecn.kmax = e.kmax;
    s.sw.ecn.pmax = e.pmax;
    // Every other port rate gets its own entry, as that simulator looks them up per port.
    for (const auto& [r, o] : ecn_of) {
      if (r != chosen) s.sw.ecn.by_rate.push_back({r, o.kmin, o.kmax, o.pmax});
    }
  }
  // That simulator decrements the PFC shift (3: alpha 1/8) once per halving of a port's rate
  // down to the NIC's, stopping at 0 (third.cc "set pfc alpha").
  for (Rate r : port_rates) {
    int shift = 3;
    for (Rate x = r; x > nic_rate && shift > 0; x /= 2) --shift;
    if (shift != 3) s.sw.pfc.by_rate.push_back({r, 1.0 / (1 << shift)});
  }

  // Flows.
  std::vector<HpccFlow> flows;
  if (!simai) flows = ReadHpccFlows(c.Str("FLOW_FILE", ""), topo, &c.warnings());
  // Said here with the flow file's line and ids (the network builder would name our indices).
  const std::vector<int> component = ConnectedComponents(topo);
  for (const HpccFlow& f : flows) {
    if (component[f.spec.src] != component[f.spec.dst]) {
      throw InputError(fmt::format(
          "{}:{}: flow from node {} to node {}: no path between them in "
          "the topology",
          c.Str("FLOW_FILE", ""), f.line, topo.hpcc_id(f.spec.src), topo.hpcc_id(f.spec.dst)));
    }
  }
  int late = 0;
  for (const HpccFlow& f : flows) {
    s.flows.push_back(f.spec);
    setup.dports.push_back(f.dport);
    late += f.spec.start >= s.duration;
  }
  s.explicit_flows = static_cast<int>(s.flows.size());
  if (late > 0 && !simai) {
    c.Warn(c.Line("SIMULATOR_STOP_TIME"), "SIMULATOR_STOP_TIME",
           fmt::format("{} of {} flows start at or after the stop time {} and never run", late,
                       flows.size(), FormatTime(s.duration)));
  }

  // Every value was checked above; this keeps the two in step.
  ResolveCc(s);
  setup.warnings = std::move(c.warnings());
  return setup;
}

}  // namespace

HpccSetup LoadHpccConfig(const std::string& config_path) {
  return LoadConfig(config_path, nullptr);
}

HpccSetup LoadSimaiConfig(const std::string& config_path, const std::string& topology_path) {
  return LoadConfig(config_path, &topology_path);
}

}  // namespace dcqcn
