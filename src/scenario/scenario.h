// The validated, fully defaulted description of one simulation run. It gathers the options of
// every part; each part's options live beside the code that uses them (net/switch_config.h,
// topology/topology_config.h, workload/workload_config.h, output/output_config.h, cc/...).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "cc/cc_config.h"
#include "cc/dcqcn/dcqcn_params.h"
#include "core/units.h"
#include "net/flow_dependencies.h"
#include "net/flow_spec.h"
#include "net/headers.h"
#include "net/host_config.h"
#include "net/link_spec.h"
#include "net/network_config.h"
#include "net/static_route.h"
#include "net/switch_config.h"
#include "net/topology.h"
#include "output/output_config.h"
#include "topology/topology_config.h"
#include "workload/collective_config.h"
#include "workload/collectives.h"
#include "workload/flow_tags.h"
#include "workload/generators.h"
#include "workload/job.h"
#include "workload/job_config.h"
#include "workload/workload_config.h"

namespace dcqcn {

struct Scenario {
  std::string name = "default";
  std::string source;  // file the scenario came from ("<built-in>" for the default)
  Time duration = 10 * kMillisecond;
  uint64_t seed = 1;
  // model = "flow": flows as max-min fair fluid streams, no packets (net/flow_level_fabric.h).
  bool flow_level = false;
  TopologyConfig topology;
  SwitchConfig sw;
  HostConfig host;
  WireFormat wire;  // frame sizes and timing: RoCEv2 over Ethernet, or HPCC ns-3's
  CcConfig cc;
  WorkloadConfig workload;
  std::vector<StaticRoute> routes;   // [[route]]
  std::vector<NetworkEvent> events;  // [[event]], in time order
  std::vector<FlowSpec> flows;       // explicit, generated, then the collectives' flows
  int explicit_flows = 0;            // how many of `flows` were written explicitly
  // Explicit flows' own rates ([[flow]] rate), by flow id; 0 or past the end: none given.
  std::vector<Rate> flow_rates;
  // Explicit flows' ids ([[flow]] id), by flow id; "" or past the end: none.
  std::vector<std::string> flow_ids;
  // Which flows each flow waits for ([[flow]] after, after_delay); empty: none waits.
  FlowAfter flow_after;
  // [[collective]] tables and the flows each expanded into: flows from collective_begin on
  // (after the explicit and generated ones).
  std::vector<CollectiveConfig> collectives;
  std::vector<CollectiveFlows> collective_flows;
  uint32_t collective_begin = 0;
  // Each collective's flows as counted before any is built (CollectiveFlowCount: exact, PXN's
  // relays at most), and their sum. `check` counts them without building them (LoadOptions):
  // collective_flows is then empty, and the scenario is never run.
  std::vector<uint64_t> collective_flow_counts;
  uint64_t collective_flow_total() const {
    return std::accumulate(collective_flow_counts.begin(), collective_flow_counts.end(),
                           uint64_t{0});
  }
  bool collectives_built() const { return collective_flows.size() == collectives.size(); }
  // [[job]] tables and what each expanded into (flows after the collectives', and tasks), and
  // each one's flows as counted before any is built (JobFlowCount). `check` counts them without
  // building them, as a collective's: job_flows is then empty.
  std::vector<JobConfig> jobs;
  std::vector<JobFlows> job_flows;
  std::vector<uint64_t> job_flow_counts;
  uint64_t job_flow_total() const {
    return std::accumulate(job_flow_counts.begin(), job_flow_counts.end(), uint64_t{0});
  }
  bool jobs_built() const { return job_flows.size() == jobs.size(); }
  FlowTags tags;  // the names of the flows' tags
  const std::string& tag(const FlowSpec& f) const { return tags.name(f.tag); }
  OutputConfig output;
  // What the loader noticed but accepted ("FILE:LINE: ..."), for the caller to show: the
  // scenario layer never prints.
  std::vector<std::string> warnings;
};

// What the network model needs of a scenario; validates [cc] (InputError naming the file, line
// and key) and what the network could not be built with (ports, hosts' cables, flow sizes). Its
// flows are a view of s.flows: `s` must outlive the network built from it.
NetworkConfig ToNetworkConfig(const Scenario& s);
// The servers' NVLink of s.topology (disabled unless its hosts are GPUs of servers).
NvlinkConfig NvlinkOf(const Scenario& s);

// s.cc resolved as ToNetworkConfig resolves it: its rate floors and increase steps checked
// against the slowest host's line rate too.
std::unique_ptr<const CcFactory> ResolveCc(const Scenario& s);

// Appends the flows of s.workload to `flows` (GenerateWorkload of workload/generators.h).
inline void GenerateWorkload(const Scenario& s, std::vector<FlowSpec>& flows, FlowTags& tags) {
  GenerateWorkload(WorkloadInput{s.workload, s.topology, s.seed, s.source}, flows, tags);
}

// The profile named in s.cc.profile with every s.cc.params override applied.
inline DcqcnParams ResolveDcqcnParams(const Scenario& s) {
  return ResolveDcqcnParams(s.cc, s.source);
}

}  // namespace dcqcn
