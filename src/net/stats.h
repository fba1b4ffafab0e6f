// Network-wide counters, written by the components and read by the outputs and invariant checks.
#pragma once

#include <algorithm>
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
  // The order key of the event that logged it (Simulator::running_order): a run split over
  // threads merges its threads' logs by (time, order), the order one loop logs them in.
  uint64_t order = 0;
};

struct NetStats {
  uint64_t packet_hops = 0;        // packets delivered over any link
  uint64_t data_packets_sent = 0;  // by senders, retransmissions included
  Bytes payload_sent = 0;          // DATA payload put on the wire by senders
  Bytes payload_received = 0;      // DATA payload that reached its receiver (any order)
  Bytes payload_delivered = 0;     // accepted in order (the application's bytes)
  Bytes payload_dropped = 0;
  // Transfers between GPUs of one server over its NVLink (NetworkConfig::nvlink), and their
  // bytes: apart from the NICs' counters above, which they never pass through.
  uint64_t nvlink_transfers = 0;
  Bytes nvlink_bytes = 0;
  uint64_t drops = 0;  // packets lost: dropped at a switch or on a link that failed
  uint64_t retransmitted_packets = 0;
  uint64_t timeouts = 0;
  uint64_t nacks = 0;
  // Data packets that arrived ahead of the one expected (whatever host.reorder does with them),
  // and copies of ones the receiver already had (a resend that the original overtook, or one
  // that go-back-N sent again): spurious retransmissions.
  uint64_t out_of_order_packets = 0;
  uint64_t duplicate_packets = 0;
  uint64_t pfc_pause_frames = 0;  // PAUSE frames with non-zero time (refreshes included)
  uint64_t pfc_resume_frames = 0;
  uint64_t ecn_marked_packets = 0;
  uint64_t cnps_sent = 0;
  uint64_t cnps_received = 0;
  Bytes max_queue_bytes = 0;  // largest egress data queue (one port, all classes)
  // The PFC watchdog: queues declared stormed and restored, and the packets it dropped (part of
  // `drops`).
  uint64_t pfc_watchdog_storms = 0;
  uint64_t pfc_watchdog_restorations = 0;
  uint64_t pfc_watchdog_drops = 0;
  // Packets of flows lost on a link that was down ([[event]] link_down), and dropped by a switch
  // because their TTL ran out (a routing loop) or it had no route for them (both part of `drops`).
  uint64_t link_drops = 0;
  uint64_t ttl_drops = 0;
  // Packets dropped of flows not yet retired, by flow id: the switches' part of a flow's count
  // of packets left (Network::PacketsOut), kept apart so that switches write no flow state.
  std::unordered_map<uint32_t, uint32_t> dropped_by_flow;
  bool log_pfc = false;
  std::vector<PfcEvent> pfc_log;

  // A packet of flow `flow` (with `payload` bytes of data) was lost, wherever: counted, and the
  // flow's count of packets left corrected.
  void CountLoss(uint32_t flow, Bytes payload) {
    ++drops;
    payload_dropped += payload;
    ++dropped_by_flow[flow];
  }

  // Calls count(&NetStats::x) for each counter that a split run sums over its parts, and
  // largest(&NetStats::x) for each it takes the largest of.
  template <class Count, class Largest>
  static void ForEachCounter(Count&& count, Largest&& largest) {
    count(&NetStats::packet_hops);
    count(&NetStats::data_packets_sent);
    count(&NetStats::payload_sent);
    count(&NetStats::payload_received);
    count(&NetStats::payload_delivered);
    count(&NetStats::payload_dropped);
    count(&NetStats::nvlink_transfers);
    count(&NetStats::nvlink_bytes);
    count(&NetStats::drops);
    count(&NetStats::retransmitted_packets);
    count(&NetStats::timeouts);
    count(&NetStats::nacks);
    count(&NetStats::out_of_order_packets);
    count(&NetStats::duplicate_packets);
    count(&NetStats::pfc_pause_frames);
    count(&NetStats::pfc_resume_frames);
    count(&NetStats::ecn_marked_packets);
    count(&NetStats::cnps_sent);
    count(&NetStats::cnps_received);
    largest(&NetStats::max_queue_bytes);
    count(&NetStats::pfc_watchdog_storms);
    count(&NetStats::pfc_watchdog_restorations);
    count(&NetStats::pfc_watchdog_drops);
    count(&NetStats::link_drops);
    count(&NetStats::ttl_drops);
  }

  // The counters of the threads of a split run, as one: sums, and the largest queue. (The
  // drops by flow and the PFC logs are combined where they are read.)
  void SetCountersToSumOf(const std::vector<const NetStats*>& parts) {
    NetStats sum;
    for (const NetStats* p : parts) {
      ForEachCounter([&](auto m) { sum.*m += p->*m; },
                     [&](auto m) { sum.*m = std::max(sum.*m, p->*m); });
    }
    sum.dropped_by_flow.swap(dropped_by_flow);
    sum.log_pfc = log_pfc;
    sum.pfc_log.swap(pfc_log);
    *this = std::move(sum);
  }
};

}  // namespace dcqcn
