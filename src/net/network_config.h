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
#include "net/rank_exchange.h"
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
  bool log_pfc = false;  // keep every PFC frame (timeseries/pfc.csv, HPCC's PFC file)
  // Threads to split the run over (1: one event loop; at most one per rack). NVLink runs use
  // one: a server's crossbar is shared by GPUs a rail fabric puts on different racks.
  int threads = 1;
  // The processes the run is spread over (mpirun), each running `threads` threads; null: this
  // process alone. Not owned.
  RankExchange* ranks = nullptr;
};

}  // namespace dcqcn
