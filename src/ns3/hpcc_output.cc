// FCT and PFC files in the HPCC simulator's formats.
#include "ns3/hpcc_output.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "ns3/hpcc_files.h"

namespace dcqcn {

Time HpccStandaloneFct(const std::vector<LinkSpec>& path, Bytes size, Bytes payload) {
  constexpr unsigned __int128 kBitNsPerSecond = 8000000000ULL;  // bits per byte x ns per second
  int64_t base_rtt_ns = 0;
  Rate slowest = 0;
  for (const LinkSpec& l : path) {
    base_rtt_ns += 2 * (l.delay / kNanosecond) +
                   static_cast<int64_t>(kBitNsPerSecond * static_cast<uint64_t>(payload) /
                                        static_cast<uint64_t>(l.rate));
    slowest = slowest == 0 ? l.rate : std::min(slowest, l.rate);
  }
  if (slowest <= 0) return base_rtt_ns * kNanosecond;
  const Bytes packets = (size - 1) / payload + 1;
  const unsigned __int128 bytes = static_cast<uint64_t>(size + packets * kHpccDataHeaderBytes);
  const int64_t transfer_ns =
      static_cast<int64_t>(bytes * kBitNsPerSecond / static_cast<uint64_t>(slowest));
  return (base_rtt_ns + transfer_ns) * kNanosecond;
}

std::string HpccFctText(const Network& net, const std::vector<uint16_t>& dports) {
  const Topology& topo = net.config().topology;
  const std::span<const FlowSpec> flows = net.config().flows;
  std::vector<std::pair<int, int>> src_dst;
  for (const FlowSpec& f : flows) src_dst.emplace_back(f.src, f.dst);
  const std::vector<uint16_t> sport = HpccSourcePorts(src_dst);
  const Bytes payload = net.config().host.mtu;
  std::vector<std::pair<Time, uint32_t>> done;  // (finish, id)
  for (uint32_t id = 0; id < flows.size(); ++id) {
    if (net.flow_finish(id) >= 0) done.emplace_back(net.flow_finish(id), id);
  }
  std::sort(done.begin(), done.end());
  std::string out;
  out.reserve(done.size() * 64);
  for (const auto& [finish, id] : done) {
    const FlowSpec& f = flows[id];
    fmt::format_to(std::back_inserter(out), FMT_COMPILE("{:08x} {:08x} {} {} {} {} {} {}\n"),
                   HpccNodeIp(topo.hpcc_id(f.src)), HpccNodeIp(topo.hpcc_id(f.dst)), sport[id],
                   id < dports.size() ? dports[id] : 0, f.size, net.flow_start(id) / kNanosecond,
                   (finish - net.flow_start(id)) / kNanosecond,
                   HpccStandaloneFct(net.PathOf(id), f.size, payload) / kNanosecond);
  }
  return out;
}

std::string HpccPfcText(const Network& net) {
  const Topology& topo = net.config().topology;
  std::string out;
  for (const PfcEvent& e : net.stats().pfc_log) {
    fmt::format_to(std::back_inserter(out), FMT_COMPILE("{} {} {} {} {}\n"), e.time / kNanosecond,
                   topo.hpcc_id(e.node), topo.is_host(e.node) ? 0 : 1, e.port + 1, e.pause ? 1 : 0);
  }
  return out;
}

}  // namespace dcqcn
