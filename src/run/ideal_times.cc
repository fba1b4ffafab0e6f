// The ideal times of a flow: what its slowdown is measured against.
#include "run/ideal_times.h"

#include <algorithm>
#include <cmath>

namespace dcqcn {

Time IdealFct(const Network& net, uint32_t id) {
  // As HPCC's standalone FCT: base RTT (propagation both ways plus one data packet and one
  // ACK serialized per hop) + all bytes with headers at the bottleneck rate. The wire format is
  // the scenario's, without a congestion-control header, so that every algorithm is measured
  // against the same ideal (HPCC ns-3 leaves its INT header out of the standalone FCT too).
  if (net.OverNvlink(id)) {
    return SerializationTime(net.config().flows[id].size, net.config().nvlink.rate) +
           net.config().nvlink.delay;
  }
  Time base_rtt = 0;
  Rate bottleneck = 0;
  const WireFormat& w = net.config().wire;
  const Bytes mtu = net.config().host.mtu;
  for (const LinkSpec& l : net.PathOf(id)) {
    base_rtt += 2 * l.delay + w.TxTime(w.DataFrame(mtu), l.rate) + w.TxTime(w.ack_frame, l.rate);
    bottleneck = bottleneck == 0 ? l.rate : std::min(bottleneck, l.rate);
  }
  return base_rtt + SerializationTime(DataWireBytes(net, id), bottleneck);
}

Bytes DataWireBytes(const Network& net, uint32_t id) {
  return net.config().wire.MessageWire(net.config().flows[id].size, net.config().host.mtu);
}

namespace {
// The first frame's time over `path` ((node, port) pairs), stored and forwarded hop by hop.
Time LatencyOver(const Network& net, uint32_t id, const std::vector<std::pair<int, int>>& path) {
  const WireFormat& w = net.config().wire;
  const Bytes first =
      w.DataFrame(std::min<Bytes>(net.config().flows[id].size, net.config().host.mtu));
  Time latency = 0;
  for (const auto& [node, port] : path) {
    const Link& l = net.link(node, port);
    latency += l.delay() + w.TxTime(first, l.rate());
  }
  return latency;
}
}  // namespace

Time IdealLatency(const Network& net, uint32_t id) {
  if (net.OverNvlink(id)) return net.config().nvlink.delay;
  return LatencyOver(net, id, net.PortPathOf(id));
}

Time IdealDelivery(const Network& net, uint32_t id, bool acks_share_links) {
  return IdealDelivery(net, id, acks_share_links, net.PortPathOf(id));
}

Time IdealDelivery(const Network& net, uint32_t id, bool acks_share_links,
                   const std::vector<std::pair<int, int>>& path) {
  const Bytes size = net.config().flows[id].size;
  if (net.OverNvlink(id))
    return SerializationTime(size, net.config().nvlink.rate) + net.config().nvlink.delay;
  const WireFormat& w = net.config().wire;
  const Bytes mtu = net.config().host.mtu;
  Rate bottleneck = 0;
  for (const auto& [node, port] : path) {
    const Rate rate = net.link(node, port).rate();
    bottleneck = bottleneck == 0 ? rate : std::min(bottleneck, rate);
  }
  const Time latency = LatencyOver(net, id, path);
  if (!acks_share_links) {
    // The frames after the first (a full one, unless the flow is one short frame), one by one
    // at the bottleneck as the links time them (whole ns, if the wire format says so).
    const Bytes full = size / mtu;
    Time rest = std::max<Bytes>(full - 1, 0) * w.TxTime(w.DataFrame(mtu), bottleneck);
    if (full > 0 && size % mtu > 0) rest += w.TxTime(w.DataFrame(size % mtu), bottleneck);
    return latency + rest;
  }
  const Bytes full_frame = w.Wire(w.DataFrame(mtu));
  const Bytes first = w.Wire(w.DataFrame(std::min(size, mtu)));
  const double rest = static_cast<double>(DataWireBytes(net, id) - first) *
                      (1.0 + static_cast<double>(w.Wire(w.ack_frame)) /
                                 (static_cast<double>(net.config().host.ack_interval) *
                                  static_cast<double>(full_frame)));
  return latency + SerializationTime(static_cast<Bytes>(std::llround(rest)), bottleneck);
}

}  // namespace dcqcn
