// The ideal times of a flow on an idle network, which slowdowns are measured against: metrics,
// read from the network's paths and wire format, not part of the model.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/units.h"
#include "net/network.h"

namespace dcqcn {

// Ideal completion time of flow `id`, as HPCC defines it (used for slowdown); over NVLink,
// its bytes at the NVLink rate plus its delay.
Time IdealFct(const Network& net, uint32_t id);
// Flow `id`'s time from its start to its last byte's delivery on an idle network: its first
// packet stored and forwarded hop by hop, the rest of its bytes at the bottleneck rate. With
// `acks_share_links`, each data packet's link also carries the ACK of a packet coming the
// other way (a rank that receives as fast as it sends, as in every collective). The scenario's
// wire format without a congestion-control header, as IdealFct.
Time IdealDelivery(const Network& net, uint32_t id, bool acks_share_links);
// The same over `path`, its PortPathOf(id) (a caller that walks it anyway walks it once).
Time IdealDelivery(const Network& net, uint32_t id, bool acks_share_links,
                   const std::vector<std::pair<int, int>>& path);
// The wire bytes of flow `id`'s data frames (payload, headers, preamble and gap), in the
// scenario's wire format without a congestion-control header.
Bytes DataWireBytes(const Network& net, uint32_t id);
// Its latency part: the first packet's time over the path (NVLink: its delay).
Time IdealLatency(const Network& net, uint32_t id);

}  // namespace dcqcn
