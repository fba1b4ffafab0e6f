// The [topology] keys that several types share, declared once: the common ones every type but
// hpcc_file takes, and the fabric ones of the two- and three-tier fabrics.
#pragma once

#include "topology/builders.h"
#include "topology/topology_type.h"

namespace dcqcn {

inline constexpr KeySchema kTopologyTypeDoc{
    "type", KeyKind::kValue, "string", "", "\"star\"", "How hosts and switches are cabled."};

inline constexpr TopologyKey kHostsKey{
    {"hosts", KeyKind::kValue, "integer", "hosts", "9",
     "Number of hosts h0..h(N-1); the fabrics derive it from their shape (a value given must "
     "agree)."},
    &TopologyConfig::hosts,
    2,
    kMaxTopologyNodes,
    "an integer number of hosts"};
inline constexpr TopologyKey kLinkRateKey{
    {"link_rate", KeyKind::kValue, "rate", "", "\"40Gbps\"",
     "Rate of every host link (custom: of every link that gives none). Paper testbed: 40GbE."},
    &TopologyConfig::link_rate};
inline constexpr TopologyKey kLinkDelayKey{
    {"link_delay", KeyKind::kValue, "time", "", "\"1us\"",
     "One-way propagation delay of every link that gives none. ns3-rdma's sample topology: 1 us."},
    &TopologyConfig::link_delay};
// Read by every type (hpcc_file too) and written last.
inline constexpr TopologyKey kReconvergenceKey{
    {"reconvergence", KeyKind::kValue, "time", "", "required with link events",
     "How long after a link_down or link_up [[event]] the switches' routes follow: shortest "
     "paths over the links up then (static routes keep their live next hops). Until then they "
     "keep sending into a dead link, whose packets are lost. Routing protocols in datacenters "
     "take from about 1 ms (BFD and fast BGP timers) to seconds."},
    &TopologyConfig::reconvergence,
    0};

// hpcc_file's and simai_file's.
inline constexpr TopologyKey kTopologyFileKey{
    {"file", KeyKind::kValue, "string", "", "required for hpcc_file and simai_file",
     "The topology file, relative to the scenario's folder: HPCC ns-3's (hpcc_file) or SimAI's "
     "(simai_file: its GPUs, NVSwitches and switches, docs/training-jobs.md); it gives every "
     "node and link, so no other [topology] key is allowed (but `reconvergence`)."}};

// rail's and simai_file's.
inline constexpr std::string_view kNvlinkModelNames[] = {"fluid", "packet"};
inline constexpr TopologyKey kNvlinkModelKey{
    {"nvlink_model", KeyKind::kValue, "string", "", "\"fluid\"",
     "How a server's NVLink is modelled. \"fluid\": a crossbar of max-min fair shares per GPU "
     "(no packets, queues, ECN or PFC; fast). \"packet\": packet by packet through an NVSwitch "
     "per server, a switch like the others (its buffer, ECN and PFC), each GPU's NIC with a "
     "second port cabled to it (rail: at nvlink_rate, nvlink_delay / 2 each way; simai_file: "
     "the file's NVSwitch links), as SimAI's ns-3 backend runs it; the transfers inside a server "
     "then run DCQCN too."},
    ByName<&TopologyConfig::nvlink_model>(kNvlinkModelNames)};

inline constexpr TopologyKey kSwitchesKey{
    {"switches", KeyKind::kValue, "integer", "switches", "1",
     "Number of switches s0..s(N-1) (star: 1, dumbbell: 2, the fabrics: derived; switch_ring: "
     "4 when not given, at least 3)."},
    &TopologyConfig::switches,
    0,
    kMaxTopologyNodes,
    "an integer number of switches"};
inline constexpr TopologyKey kSpinesKey{
    {"spines", KeyKind::kValue, "integer", "switches", "2",
     "Number of spine switches; every leaf is cabled to every spine."},
    &TopologyConfig::spines,
    1,
    kMaxTopologyNodes,
    "an integer number of spine switches"};
inline constexpr TopologyKey kOversubscriptionKey{
    {"oversubscription", KeyKind::kValue, "number", "ratio", "none",
     "A leaf's host to uplink bandwidth, e.g. 3 for 3:1; sets fabric_rate = hosts_per_leaf "
     "(rail: servers_per_leaf) x link_rate / (spines x oversubscription)."},
    &TopologyConfig::oversubscription,
    0,
    0,
    "a number > 0 (host to uplink bandwidth of a leaf, e.g. 3 for 3:1)",
    true};
inline constexpr TopologyKey kFabricRateKey{
    {"fabric_rate", KeyKind::kValue, "rate", "", "depends on `link_rate`: equal",
     "Rate of the switch-to-switch links."},
    &TopologyConfig::fabric_rate};

// The hosts a fabric's shape gives (`derived`, with `how` it follows) against a `hosts` the file
// also gave: a problem when they differ.
TopologyProblem CheckDerivedHosts(TopologyConfig& topo, const std::vector<std::string>& given,
                                  int64_t derived, const std::string& how);
bool Given(const std::vector<std::string>& given, std::string_view key);

}  // namespace dcqcn
