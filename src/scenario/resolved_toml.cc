// Scenario -> TOML text. Written by hand rather than through toml++'s serializer so the order of
// tables and keys follows design 1.2 and the file reads like one a user would write.
#include "scenario/resolved_toml.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "cc/registry.h"
#include "core/key_row.h"
#include "net/host_keys.h"
#include "net/switch_keys.h"
#include "net/wire_keys.h"
#include "output/output_keys.h"
#include "scenario/scenario_loader.h"
#include "topology/topology_type.h"
#include "workload/workload_keys.h"

namespace dcqcn {
namespace {

bool IsBareKey(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string Key(std::string_view key) { return IsBareKey(key) ? std::string(key) : TomlQuote(key); }

std::string Bool(bool b) { return b ? "true" : "false"; }

// The keys `rows` declare, as `config` holds them, one line each in the rows' order; the rows
// without a field, or written by hand, go to `by_hand` in their place. Tables are the caller's.
template <class Config>
void WriteRows(
    std::span<const KeyRow<Config>> rows, const Config& config, std::string& out,
    const std::function<void(const KeyRow<std::type_identity_t<Config>>&)>& by_hand = {}) {
  for (const KeyRow<Config>& row : rows) {
    if (row.doc.kind != KeyKind::kValue) continue;
    const std::string_view name = row.doc.name;
    std::string value;
    if (std::holds_alternative<std::monostate>(row.field) || row.written == Written::kByHand) {
      if (by_hand) by_hand(row);
      continue;
    } else if (auto* field = std::get_if<int Config::*>(&row.field)) {
      if (row.written == Written::kUnlessZero && config.*(*field) == 0) continue;
      value = std::to_string(config.*(*field));
    } else if (auto* quantity = std::get_if<int64_t Config::*>(&row.field)) {
      const int64_t v = config.*(*quantity);
      if (row.written == Written::kUnlessZero && v == 0) continue;
      value = row.doc.type == "integer" ? std::to_string(v)
              : row.doc.type == "size"  ? TomlQuote(FormatSize(v))
              : row.doc.type == "rate"  ? TomlQuote(FormatRate(v))
                                        : TomlQuote(FormatTime(v));
    } else if (auto* number = std::get_if<double Config::*>(&row.field)) {
      if (row.written == Written::kUnlessZero && config.*(*number) == 0) continue;
      value = TomlFloat(config.*(*number));
    } else if (auto* flag = std::get_if<bool Config::*>(&row.field)) {
      value = Bool(config.*(*flag));
    } else if (auto* text = std::get_if<std::string Config::*>(&row.field)) {
      if (row.written == Written::kUnlessZero && (config.*(*text)).empty()) continue;
      value = TomlQuote(config.*(*text));
    } else if (auto* choice = std::get_if<EnumField<Config>>(&row.field)) {
      value = TomlQuote(choice->names[choice->get(config)]);
    }
    out += fmt::format("{} = {}\n", name, value);
  }
}

}  // namespace

std::string TomlQuote(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        // Other control characters are not allowed raw in a TOML string.
        if (c < 0x20 || c == 0x7f) {
          out += fmt::format("\\u{:04X}", static_cast<unsigned>(c));
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string TomlFloat(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  std::string text = fmt::format("{}", value);  // shortest text that reads back exactly
  if (text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text;
}

void ResolvedTomlTo(const Scenario& s, const std::function<void(std::string_view)>& sink) {
  // Pieces of about this size go to `sink`: a run of millions of flows is never one string.
  constexpr size_t kPieceBytes = 1 << 20;
  std::string out;
  auto line = [&out](std::string_view key, const std::string& value) {
    out += fmt::format("{} = {}\n", key, value);
  };
  auto quoted = [&line](std::string_view key, std::string_view value) {
    line(key, TomlQuote(value));
  };

  out += "# Resolved scenario: every parameter with the value the run used. Loading this file\n";
  out += "# reproduces the run; generated flows are listed as explicit [[flow]] tables.\n";
  quoted("name", s.name);
  quoted("duration", FormatTime(s.duration));
  quoted("model", s.flow_level ? "flow" : "packet");
  // Above TOML's integers a seed is a string, as the loader reads it.
  const std::string seed = std::to_string(s.seed);
  line("seed", s.seed > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ? TomlQuote(seed)
                                                                                   : seed);

  const TopologyConfig& t = s.topology;
  out += "\n[topology]\n";
  quoted("type", t.type);
  const TopologyType& type = *FindTopologyType(t.type);
  for (const TopologyKey* row : RowsOf(type)) {
    if (row->doc.name == "file") {
      // The file gives every node and link. Absolute, because resolved.toml lives elsewhere.
      quoted("file", std::filesystem::absolute(t.file).lexically_normal().string());
    } else if (row->doc.name == "links") {
      out += "links = [\n";
      for (const LinkSpec& l : t.links) {
        out += fmt::format("  [{}, {}, {}, {}],\n", TomlQuote(t.node_name(l.a)),
                           TomlQuote(t.node_name(l.b)), TomlQuote(FormatRate(l.rate)),
                           TomlQuote(FormatTime(l.delay)));
      }
      out += "]\n";
    } else if (auto* field = std::get_if<int TopologyConfig::*>(&row->field)) {
      line(row->doc.name, std::to_string(t.*(*field)));
    } else if (auto* quantity = std::get_if<int64_t TopologyConfig::*>(&row->field)) {
      quoted(row->doc.name,
             row->doc.type == "rate" ? FormatRate(t.*(*quantity)) : FormatTime(t.*(*quantity)));
    } else if (auto* number = std::get_if<double TopologyConfig::*>(&row->field)) {
      if (t.*(*number) > 0 || !row->omitted_at_zero) line(row->doc.name, TomlFloat(t.*(*number)));
    } else if (auto* choice = std::get_if<EnumField<TopologyConfig>>(&row->field)) {
      quoted(row->doc.name, choice->names[choice->get(t)]);
    }
  }
  if (t.reconvergence >= 0) quoted("reconvergence", FormatTime(t.reconvergence));

  const SwitchConfig& sw = s.sw;
  out += "\n[switch]\n";
  WriteRows(SwitchKeys(), sw, out);
  out += "\n[switch.pfc]\n";
  WriteRows(PfcKeys(), sw.pfc, out, [&](const KeyRow<PfcConfig>& row) {
    using Rule = PfcConfig::HeadroomRule;
    if (row.doc.name == "threshold") {
      quoted("threshold",
             sw.pfc.dynamic_threshold ? "dynamic" : FormatSize(sw.pfc.static_threshold));
    } else if (row.doc.name == "headroom") {
      quoted("headroom", sw.pfc.headroom_rule == Rule::kAuto   ? "auto"
                         : sw.pfc.headroom_rule == Rule::kHpcc ? "hpcc"
                                                               : FormatSize(sw.pfc.headroom));
    } else if (row.doc.name == "by_rate") {
      std::string alpha_by_rate;
      for (const PfcConfig::ForRate& r : sw.pfc.by_rate) {
        alpha_by_rate +=
            fmt::format("{}{{rate = {}, alpha = {}}}", alpha_by_rate.empty() ? "" : ", ",
                        TomlQuote(FormatRate(r.rate)), TomlFloat(r.alpha));
      }
      line("by_rate", "[" + alpha_by_rate + "]");
    }
  });
  if (sw.pfc.watchdog.enabled) {
    // Only when on: the resolved file of a scenario without stays as it was.
    out += "\n[switch.pfc.watchdog]\n";
    WriteRows(PfcWatchdogKeys(), sw.pfc.watchdog, out);
  }
  out += "\n[switch.ecn]\n";
  WriteRows(EcnKeys(), sw.ecn, out, [&](const KeyRow<EcnConfig>& row) {
    if (row.doc.name != "by_rate") return;
    std::string by_rate;
    for (const EcnConfig::ForRate& r : sw.ecn.by_rate) {
      by_rate += fmt::format("{}{{rate = {}, kmin = {}, kmax = {}, pmax = {}}}",
                             by_rate.empty() ? "" : ", ", TomlQuote(FormatRate(r.rate)),
                             TomlQuote(FormatSize(r.kmin)), TomlQuote(FormatSize(r.kmax)),
                             TomlFloat(r.pmax));
    }
    line("by_rate", "[" + by_rate + "]");
  });

  out += "\n[host]\n";
  WriteRows(HostKeys(), s.host, out);

  out += "\n[wire]\n";
  WriteRows(WireKeys(), s.wire, out);

  out += "\n[cc]\n";
  quoted("algorithm", s.cc.algorithm);
  quoted("profile", s.cc.profile);
  const CcAlgorithm* algorithm = FindCcAlgorithm(s.cc.algorithm);
  if (algorithm != nullptr && !algorithm->profiles.empty()) {
    // Every parameter as the profile and the overrides resolve it.
    out += fmt::format("# every {} parameter: the profile's values with the overrides applied\n",
                       algorithm->label);
    for (const auto& [key, value] : algorithm->resolve(s.cc, s.source)->ParamsText()) {
      line(Key(key), CcParamToToml(value));
    }
  } else {
    for (const auto& [key, param] : s.cc.params) line(Key(key), CcParamToToml(param.value));
  }

  out += "\n[output]\n";
  WriteRows(OutputKeys(), s.output, out, [&](const KeyRow<OutputConfig>& row) {
    if (row.doc.name != "timeseries") return;
    std::string series;
    auto add_series = [&series](bool on, std::string_view name) {
      if (!on) return;
      if (!series.empty()) series += ", ";
      series += TomlQuote(name);
    };
    add_series(s.output.ts_rate, "rate");
    add_series(s.output.ts_queue, "queue");
    add_series(s.output.ts_pfc, "pfc");
    add_series(s.output.ts_throughput, "throughput");
    line("timeseries", "[" + series + "]");
  });
  // Last and only when set: a resolved.toml from before deadlock detection stays the same text.
  if (s.output.deadlock_time != OutputConfig{}.deadlock_time) {
    quoted("deadlock_time", FormatTime(s.output.deadlock_time));
  }
  if (const PcapConfig& pcap = s.output.pcap; pcap.enabled()) {
    out += "\n[output.pcap]\n";
    WriteRows(PcapKeys(), pcap, out, [&](const KeyRow<PcapConfig>& row) {
      const std::string_view name = row.doc.name;
      if (name == "points") {
        std::string points;
        // (Appended piece by piece: GCC 12's LTO warns falsely about `(... ? "" : ", ") +
        // string`.)
        for (const std::string& p : pcap.points) {
          if (!points.empty()) points += ", ";
          points += TomlQuote(p);
        }
        line("points", "[" + points + "]");
      } else if (name == "kinds") {
        std::string kinds;
        for (size_t i = 0; i < kPcapKinds.size(); ++i) {
          if (!(pcap.kinds & (1u << i))) continue;
          if (!kinds.empty()) kinds += ", ";
          kinds += TomlQuote(kPcapKinds[i]);
        }
        line("kinds", "[" + kinds + "]");
      } else if (name == "until" && pcap.until != kMaxTime) {
        quoted("until", FormatTime(pcap.until));
      }
    });
  }

  // The same comment whether the flows were written or generated, so that loading this file
  // resolves to this text again.
  // The collectives' and jobs' flows are theirs to expand again: only their tables are written.
  const size_t written = !s.collectives.empty() ? s.collective_begin
                         : !s.job_flows.empty() ? s.job_flows.front().flow_begin
                                                : s.flows.size();
  out += fmt::format("\n# {} flows: every explicit and generated flow\n", written);
  // `after` names flows by id: a prerequisite without one is named "flowN" (N its index, with
  // '_' added until no flow has that id).
  // Only the written flows' prerequisites are named: a collective's millions are not written.
  std::unordered_map<uint32_t, std::string> made_ids;
  if (!s.flow_after.empty()) {
    const std::unordered_set<std::string> taken(s.flow_ids.begin(), s.flow_ids.end());
    for (uint32_t w = 0; w < written; ++w) {
      for (const uint32_t p : s.flow_after.of(w)) {
        if (FlowAfter::IsTask(p) || (p < s.flow_ids.size() && !s.flow_ids[p].empty()) ||
            made_ids.count(p)) {
          continue;  // a job's task, or named already
        }
        std::string id = fmt::format("flow{}", p);
        while (taken.count(id)) id += '_';
        made_ids.emplace(p, id);
      }
    }
  }
  auto id_of = [&](uint32_t id) -> std::string {
    if (id < s.flow_ids.size() && !s.flow_ids[id].empty()) return s.flow_ids[id];
    const auto it = made_ids.find(id);
    return it != made_ids.end() ? it->second : std::string();
  };
  for (const FlowSpec& f : std::span(s.flows).first(written)) {
    if (out.size() >= kPieceBytes) {
      sink(out);
      out.clear();
    }
    out += "\n[[flow]]\n";
    const auto id = static_cast<uint32_t>(&f - s.flows.data());
    if (const std::string name = id_of(id); !name.empty()) quoted("id", name);
    line("src", std::to_string(f.src));
    line("dst", std::to_string(f.dst));
    quoted("size", FormatSize(f.size));
    quoted("start", FormatTime(f.start));
    line("priority", std::to_string(f.priority));
    if (f.tag != 0) quoted("tag", s.tag(f));
    if (f.dport != kRoceUdpPort) line("dport", std::to_string(f.dport));
    if (id < s.flow_rates.size() && s.flow_rates[id] > 0)
      quoted("rate", FormatRate(s.flow_rates[id]));
    if (s.flow_after.waits(id)) {
      std::vector<std::string> after;
      for (const uint32_t p : s.flow_after.of(id)) after.push_back(TomlQuote(id_of(p)));
      line("after", fmt::format("[{}]", fmt::join(after, ", ")));
      if (s.flow_after.delay(id) > 0) quoted("after_delay", FormatTime(s.flow_after.delay(id)));
    }
  }
  for (const StaticRoute& r : s.routes) {
    out += "\n[[route]]\n";
    quoted("switch", s.topology.node_name(r.sw));
    auto names = [&](const std::vector<int>& nodes) {
      std::vector<std::string> quoted_names;
      for (int n : nodes) quoted_names.push_back(TomlQuote(s.topology.node_name(n)));
      return fmt::format("[{}]", fmt::join(quoted_names, ", "));
    };
    line("dst", names(r.dsts));
    line("next", names(r.next));
  }
  for (const NetworkEvent& e : s.events) {
    out += "\n[[event]]\n";
    quoted("at", FormatTime(e.at));
    if (e.kind == NetworkEvent::Kind::kPauseStorm) {
      quoted("kind", "pause_storm");
      quoted("host", s.topology.node_name(e.host));
      quoted("until", FormatTime(e.until));
      continue;
    }
    quoted("kind", e.kind == NetworkEvent::Kind::kLinkDown ? "link_down" : "link_up");
    line("link", fmt::format("[{}, {}]", TomlQuote(s.topology.node_name(e.a)),
                             TomlQuote(s.topology.node_name(e.b))));
    if (e.cable >= 0) line("cable", std::to_string(e.cable));
  }
  for (size_t i = 0; i < s.collectives.size(); ++i) {
    const CollectiveConfig& c = s.collectives[i];
    out += "\n[[collective]]\n";
    WriteRows(CollectiveKeys(), c, out, [&](const KeyRow<CollectiveConfig>& row) {
      if (row.doc.name == "algorithm") {
        quoted("algorithm", c.algorithm);
      } else if (row.doc.name == "ranks" && c.all_ranks) {
        quoted("ranks", "all");
      } else if (row.doc.name == "ranks") {
        line("ranks", fmt::format("[{}]", fmt::join(c.ranks, ", ")));
      } else if (row.doc.name == "tag") {
        quoted("tag", c.tag.empty() ? fmt::format("collective{}", i) : c.tag);
      }
    });
  }
  for (const JobConfig& j : s.jobs) {
    out += "\n[[job]]\n";
    WriteRows(JobKeys(), j, out, [&](const KeyRow<JobConfig>& row) {
      if (row.doc.name == "name") {
        quoted("name", j.name);
      } else if (row.doc.name == "ranks" && j.all_ranks) {
        quoted("ranks", "all");
      } else if (row.doc.name == "ranks") {
        line("ranks", fmt::format("[{}]", fmt::join(j.ranks, ", ")));
      } else if (row.doc.name == "allreduce_algorithm") {
        quoted("allreduce_algorithm", j.allreduce_algorithm);
      } else if (row.doc.name == "alltoall_algorithm") {
        quoted("alltoall_algorithm", j.alltoall_algorithm);
      }
    });
    for (const JobLayer& layer : j.layers) {
      out += "\n[[job.layer]]\n";
      WriteRows(JobLayerKeys(), layer, out);
      for (size_t k = 0; k < layer.phases.size(); ++k) {
        const JobPhase& p = layer.phases[k];
        const std::string_view phase = Name(static_cast<JobPhaseKind>(k));
        quoted(fmt::format("{}_compute", phase), FormatTime(p.compute));
        if (!p.op) continue;
        quoted(fmt::format("{}_comm", phase), Name(*p.op));
        quoted(fmt::format("{}_size", phase), FormatSize(p.size));
        quoted(fmt::format("{}_group", phase), Name(p.group));
      }
    }
  }
  sink(out);
}

std::string ResolvedToml(const Scenario& s) {
  std::string text;
  ResolvedTomlTo(s, [&text](std::string_view piece) { text += piece; });
  return text;
}

}  // namespace dcqcn
