// Everything a Network is built from: the scenario layer fills it in, the model only reads it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cc/cc_algorithm.h"
#include "net/flow_dependencies.h"
#include "net/flow_spec.h"
#include "net/headers.h"
#include "net/host_config.h"
#include "net/network_event.h"
#include "net/nvlink_fabric.h"
#include "net/static_route.h"
#include "net/switch_config.h"
#include "net/topology.h"

namespace dcqcn {

struct NetworkConfig {
  std::string source;  // the input it came from, for messages
  uint64_t seed = 1;
  Topology topology;
  SwitchConfig sw;
  HostConfig host;
  WireFormat wire;
  // The congestion control, resolved by whoever built the config (shared: immutable, and every
  // copy of a config builds its NICs' instances from the same parameters).
  std::shared_ptr<const CcFactory> cc;
  // The flows, by id. A view: whoever builds the network keeps the specs alive while it runs,
  // so that millions of them are not held twice.
  std::span<const FlowSpec> flows;
  // Flows' own rates, by id, for algorithms that pin rates (a view; may be shorter than flows).
  std::span<const Rate> flow_rates;
  // Which flows each flow waits for ([[flow]] after), a view like `flows`; null or empty: none.
  const FlowAfter* after = nullptr;
  // Routes set by hand, overriding the computed ones for their (switch, destination).
  std::vector<StaticRoute> routes;
  std::vector<NetworkEvent> events;  // [[event]], in time order
  // How long after a link fails or comes back the switches' routes follow (topology.
  // reconvergence): until then they keep sending into a dead link, as real ones do.
  Time reconvergence = 0;
  // Multi-GPU servers' NVLink: flows between GPUs of one server take it, not the NICs.
  NvlinkConfig nvlink;
  // The flow-level model (scenario key `model = "flow"`): every other flow a fluid stream at
  // its max-min fair share of the ports it crosses (flow_level_fabric.h), no packets.
  bool flow_level = false;
  bool log_pfc = false;  // keep every PFC frame (timeseries/pfc.csv, HPCC's PFC file)
  // Event loops to place the nodes on (Network's parts: at most one per rack), for an engine to
  // run on threads or over processes; 1: one loop. A network that cannot be split (CanSplit)
  // takes one whatever it is asked.
  int parts = 1;
  // The work each node did in an earlier run (by node id; empty: unknown), which the placement
  // balances instead of the nodes' ports (thread_placement.h).
  std::vector<double> node_work;
};

// Whether a network can be split over event loops: not at flow level, whose shares are the
// whole fabric's (flow_level_fabric.h), nor when a receiver learns the instant its sender has
// the last ACK (FlowAfter::kAckArrival: a word between loops with no delay, which no window's
// lookahead covers). (NVLink splits: each server's crossbar runs with its GPUs.) The one rule
// the placement follows and the run's notes (summary.json "threads", `dcqcn check`) repeat.
inline bool CanSplit(bool flow_level, const FlowAfter* after) {
  return !flow_level && (after == nullptr || !after->any_ack_arrival());
}

}  // namespace dcqcn
