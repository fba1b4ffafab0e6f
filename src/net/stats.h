// Network-wide counters, written by the components and read by the outputs and invariant checks.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/units.h"

namespace dcqcn {

// One PFC frame as logged at the device that received it (the one that pauses).
struct PfcEvent {
  Time time;
  int32_t node;
  int32_t port;
  uint8_t priority;
  bool pause;  // false = resume
};

struct NetStats {
  uint64_t packet_hops = 0;        // packets delivered over any link
  uint64_t data_packets_sent = 0;  // by senders, retransmissions included
  Bytes payload_sent = 0;          // DATA payload put on the wire by senders
  Bytes payload_received = 0;      // DATA payload that reached its receiver (any order)
  Bytes payload_delivered = 0;     // accepted in order (the application's bytes)
  Bytes payload_dropped = 0;
  uint64_t drops = 0;  // packets dropped at any switch
  uint64_t retransmitted_packets = 0;
  uint64_t timeouts = 0;
  uint64_t nacks = 0;
  uint64_t pfc_pause_frames = 0;  // PAUSE frames with non-zero time (refreshes included)
  uint64_t pfc_resume_frames = 0;
  uint64_t ecn_marked_packets = 0;
  uint64_t cnps_sent = 0;
  uint64_t cnps_received = 0;
  Bytes max_queue_bytes = 0;  // largest egress data queue (one port, all classes)
  // Packets dropped of flows not yet retired, by flow id: the switches' part of a flow's count
  // of packets left (Network::PacketsOut), kept apart so that switches write no flow state.
  std::unordered_map<uint32_t, uint32_t> dropped_by_flow;
  bool log_pfc = false;
  std::vector<PfcEvent> pfc_log;
};

}  // namespace dcqcn
