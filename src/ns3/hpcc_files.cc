// HPCC topology and flow files, read field by field (core/token_file.h).
#include "ns3/hpcc_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/token_file.h"
#include "ns3/ns3_units.h"
#include "topology/builders.h"

namespace dcqcn {

using Token = TokenFile::Token;

std::string HpccTopologyText(const TopologyConfig& topo) {
  std::string out = fmt::format("{} {} {}\n", topo.num_nodes(), topo.switches, topo.links.size());
  for (int sw = 0; sw < topo.switches; ++sw) {
    out += fmt::format("{}{}", sw == 0 ? "" : " ", topo.hpcc_id(topo.hosts + sw));
  }
  out += "\n";
  for (const LinkSpec& l : topo.links) {
    // ns-3 knows no Tbps and no fractional picoseconds: whole Gbps or bps, whole ns or ps.
    const std::string rate =
        l.rate % kGbps == 0 ? fmt::format("{}Gbps", l.rate / kGbps) : fmt::format("{}bps", l.rate);
    const std::string delay = l.delay % kNanosecond == 0
                                  ? fmt::format("{}ns", l.delay / kNanosecond)
                                  : fmt::format("{}ps", l.delay);
    out += fmt::format("{} {} {} {} 0\n", topo.hpcc_id(l.a), topo.hpcc_id(l.b), rate, delay);
  }
  return out;
}

std::string HpccFlowsText(const std::vector<FlowSpec>& flows, const TopologyConfig& topo,
                          uint16_t dport) {
  std::string out = fmt::format("{}\n", flows.size());
  for (const FlowSpec& f : flows) {
    // Whole nanoseconds plus half of one: that simulator reads the start into a double and
    // truncates it to the nanosecond, and "2.000013072" would become 2000013071 ns.
    const Time ns = f.start / kNanosecond;
    out += fmt::format("{} {} {} {} {} {}.{:09}5\n", topo.hpcc_id(f.src), topo.hpcc_id(f.dst),
                       f.priority, dport, f.size, ns / 1000000000, ns % 1000000000);
  }
  return out;
}

std::vector<bool> ReadNodeIdList(TokenFile& in, int nodes, int count, std::string_view what,
                                 std::vector<bool>* taken) {
  std::vector<bool> listed(nodes, false);
  for (int i = 0; i < count; ++i) {
    const std::string expected = fmt::format("{} id {} of {} (a node id)", what, i + 1, count);
    const Token& t = in.Next(expected);
    int64_t v = 0;
    if (!TokenFile::ParseInt(t.text, 0, nodes - 1, &v)) {
      in.Fail(t.line, fmt::format("expected {} in 0..{}, got \"{}\"", expected, nodes - 1, t.text));
    }
    if (listed[v] || (taken != nullptr && (*taken)[v])) {
      in.Fail(t.line, fmt::format("node id {} is listed twice", v));
    }
    listed[v] = true;
  }
  return listed;
}

std::vector<HpccLinkLine> ReadHpccLinkLines(TokenFile& in, const std::string& path, int nodes,
                                            int64_t count, std::vector<std::string>* warnings) {
  std::vector<HpccLinkLine> links;
  links.reserve(static_cast<size_t>(std::min<int64_t>(count, 1 << 20)));
  bool warned_error_rate = false;
  for (int64_t i = 0; i < count; ++i) {
    const std::string which = fmt::format("link {} of {}", i + 1, count);
    HpccLinkLine link;
    int ends[2];
    for (int e = 0; e < 2; ++e) {
      const Token& t = in.Next(which + " (\"<a> <b> <rate> <delay> <error_rate>\")");
      int64_t v = 0;
      if (!TokenFile::ParseInt(t.text, 0, nodes - 1, &v)) {
        in.Fail(t.line,
                fmt::format("{}: expected a node id 0..{}, got \"{}\"", which, nodes - 1, t.text));
      }
      ends[e] = static_cast<int>(v);
      link.line = t.line;
    }
    if (ends[0] == ends[1]) {
      in.Fail(link.line, fmt::format("{} joins node {} to itself", which, ends[0]));
    }
    link.a = ends[0];
    link.b = ends[1];
    const Token& rate = in.Next(which + ": a rate such as 100Gbps");
    const std::optional<Rate> r = ParseNs3DataRate(rate.text);
    if (!r || *r <= 0) {
      in.Fail(rate.line,
              fmt::format("{}: expected a rate > 0 and at most {} such as \"100Gbps\", got \"{}\"",
                          which, FormatRate(kMaxRate), rate.text));
    }
    link.rate = *r;
    const Token& delay = in.Next(which + ": a delay such as 0.001ms");
    const std::optional<Time> d = ParseNs3Time(delay.text);
    if (!d || *d <= 0) {
      in.Fail(delay.line, fmt::format("{}: expected a delay > 0 and at most {} such as "
                                      "\"0.001ms\" or \"1000ns\", got \"{}\"",
                                      which, FormatTime(kMaxTime), delay.text));
    }
    link.delay = *d;
    const Token& error = in.Next(which + ": an error rate such as 0");
    char* end = nullptr;
    const double error_rate = std::strtod(error.text.c_str(), &end);
    if (end != error.text.c_str() + error.text.size() || !(error_rate >= 0 && error_rate <= 1)) {
      in.Fail(error.line,
              fmt::format("{}: expected an error rate 0..1, got \"{}\"", which, error.text));
    }
    if (error_rate > 0 && !warned_error_rate && warnings != nullptr) {
      warnings->push_back(
          fmt::format("{}:{}: link error rate {} (and any other link's): random "
                      "packet loss is not modelled; the links are lossless",
                      path, error.line, error.text));
      warned_error_rate = true;
    }
    links.push_back(link);
  }
  return links;
}

void ReadHpccTopology(const std::string& path, TopologyConfig& topo,
                      std::vector<std::string>* warnings) {
  TokenFile in(path, "topology");
  const int nodes = static_cast<int>(in.Int("the number of nodes", 2, kMaxTopologyNodes));
  const int switches = static_cast<int>(in.Int("the number of switches", 0, nodes - 1));
  const int64_t link_count = in.Int("the number of links", 1, 64LL * kMaxTopologyNodes);
  const std::vector<bool> is_switch = ReadNodeIdList(in, nodes, switches, "switch", nullptr);

  // Our ids: hosts first, then switches, each in the file's order.
  topo.type = "hpcc_file";
  topo.file = path;
  topo.hosts = nodes - switches;
  topo.switches = switches;
  topo.hpcc_ids.clear();
  std::vector<int> ours(nodes);
  for (int pass = 0; pass < 2; ++pass) {
    for (int id = 0; id < nodes; ++id) {
      if (is_switch[id] != (pass == 1)) continue;
      ours[id] = static_cast<int>(topo.hpcc_ids.size());
      topo.hpcc_ids.push_back(id);
    }
  }

  topo.links.clear();
  std::vector<int> host_link_line(nodes, 0);
  for (const HpccLinkLine& l : ReadHpccLinkLines(in, path, nodes, link_count, warnings)) {
    for (int e : {l.a, l.b}) {
      if (is_switch[e]) continue;
      if (host_link_line[e] != 0) {
        in.Fail(l.line, fmt::format("host {} has a second link (the first is on line {}): a dcqcn "
                                    "host has exactly one NIC port",
                                    e, host_link_line[e]));
      }
      host_link_line[e] = l.line;
    }
    topo.links.push_back(LinkSpec{ours[l.a], ours[l.b], l.rate, l.delay});
  }
  for (int id = 0; id < nodes; ++id) {
    if (!is_switch[id] && host_link_line[id] == 0) {
      throw InputError(
          fmt::format("{}: topology: host {} (a node id not listed as a switch) "
                      "has no link; dcqcn needs every host connected",
                      path, id));
    }
  }
  // Informational only: every link carries its own rate and delay.
  topo.link_rate = topo.links.front().rate;
  topo.link_delay = topo.links.front().delay;
}

std::vector<HpccFlow> ReadHpccFlows(const std::string& path, const TopologyConfig& topo,
                                    std::vector<std::string>* warnings) {
  TokenFile in(path, "flow");
  // File id -> our host index (-1 for switches and ids beyond the topology).
  const int nodes = topo.num_nodes();
  std::vector<int> host_of(nodes, -1);
  for (int h = 0; h < topo.hosts; ++h) host_of[topo.hpcc_id(h)] = h;

  const int64_t count = in.Int("the number of flows", 1, 1LL << 31);
  std::vector<HpccFlow> flows;
  flows.reserve(static_cast<size_t>(std::min<int64_t>(count, 1 << 20)));
  bool warned_order = false;
  for (int64_t i = 0; i < count; ++i) {
    const std::string which = fmt::format("flow {} of {}", i + 1, count);
    const std::string format = "\"<src> <dst> <pg> <dport> <size> <start_s>\"";
    HpccFlow f;
    int ids[2];
    for (int e = 0; e < 2; ++e) {
      const Token& t = in.Next(fmt::format("{} ({})", which, format));
      char* end = nullptr;
      const long v = std::strtol(t.text.c_str(), &end, 10);
      const bool number = end == t.text.c_str() + t.text.size();
      if (!number || v < 0 || v >= nodes || host_of[v] < 0) {
        in.Fail(t.line, fmt::format("{}: {}: expected the node id of a host, got \"{}\"{}", which,
                                    e == 0 ? "src" : "dst", t.text,
                                    number && v >= 0 && v < nodes ? " (a switch)" : ""));
      }
      ids[e] = static_cast<int>(v);
      f.line = t.line;
    }
    if (ids[0] == ids[1]) {
      in.Fail(f.line, fmt::format("{}: src and dst are the same host {}", which, ids[0]));
    }
    f.spec.src = host_of[ids[0]];
    f.spec.dst = host_of[ids[1]];
    f.spec.priority = static_cast<int>(
        in.Int(which + ": pg, the priority group (1..7; 0 is our control queue)", 1, 7));
    f.dport = static_cast<uint16_t>(in.Int(which + ": dport", 0, 65535));
    f.spec.dport = f.dport;
    f.spec.size = in.Int(which + ": the size in bytes", 1, kMaxSize);
    const Token& start = in.Next(which + ": the start time in seconds");
    const std::optional<Time> t = ParseNs3Seconds(start.text);
    if (!t || *t < 0) {
      in.Fail(start.line, fmt::format("{}: expected a start time >= 0 in seconds such as "
                                      "\"2.000001\", got \"{}\"",
                                      which, start.text));
    }
    f.spec.start = *t;
    if (!flows.empty() && f.spec.start < flows.back().spec.start && !warned_order &&
        warnings != nullptr) {
      warnings->push_back(
          fmt::format("{}:{}: {} starts before the flow above it: that simulator "
                      "needs ascending start times; dcqcn does not",
                      path, f.line, which));
      warned_order = true;
    }
    flows.push_back(f);
  }
  return flows;
}

}  // namespace dcqcn
