// Reads an HPCC ns-3 simulator config.txt (scratch/third.cc's keys) with its topology and flow
// files and turns it into a dcqcn Scenario that runs the same experiment.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace dcqcn {

struct HpccSetup {
  Scenario scenario;  // name = the config's stem; source = the config path
  // Per flow, in flow-file order (our flow ids): the file's destination port, echoed in the FCT
  // file. The source port is that simulator's: 10000, 10001, ... per sending host.
  std::vector<uint16_t> dports;
  std::string fct_output_file;  // as the config names them (defaults "fct.txt", "pfc.txt")
  std::string pfc_output_file;
  // "CONFIG:LINE: KEY: ..." for unknown keys, options we do not model and approximations.
  std::vector<std::string> warnings;
};

// Reads `config_path` and the TOPOLOGY_FILE and FLOW_FILE it names. Paths inside the config are
// relative to the current directory, as that simulator opens them. Keys that are missing take
// that simulator's defaults, except where its default is broken (EWMA_GAIN's 1/16 in integer
// arithmetic is 0; RP_TIMER is uninitialised; RATE_AI and RATE_HAI are empty), which take our
// `hpcc` profile's values with a warning.
//
// Mapping (dcqcn's names on the right):
//   CC_MODE -> the registered algorithm with that ns3_cc_mode (1 DCQCN, 3 HPCC, 7 TIMELY,
//     8 DCTCP; cc/registry.h) and its ns3_profile; its ns3_keys map that mode's keys to its
//     [cc] parameters (DCQCN: ALPHA_RESUME_INTERVAL us -> alpha_period, RP_TIMER us -> timer,
//     EWMA_GAIN -> g, RATE_AI -> rai, ...; see each cc/<name>/<name>_algorithm.cc). Other modes
//     (10 HPCC-PINT, ...) are an error.
//   KMIN_MAP/KMAX_MAP (KB, x1000) and PMAX_MAP, per link rate -> switch.ecn: we have one ECN
//     setting for every switch port, so the entry for the hosts' link rate (that simulator's
//     NIC rate) applies everywhere; queues build at the host-facing ports, where it is exact. A
//     warning names the faster ports whose own entry differs. Every switch port rate needs an
//     entry in all three maps, as that simulator asserts.
//   ENABLE_QCN -> switch.ecn.enabled; BUFFER_SIZE MB (x2^20) -> switch.buffer.
//   PFC: dynamic threshold with alpha 1/8 (that simulator's shift 3; it raises alpha on ports
//     faster than the NIC, which we warn about), reserve 4 KiB, XON 3 KiB below XOFF, PAUSE until
//     RESUME; headroom stays our lossless automatic value. USE_DYNAMIC_PFC_THRESHOLD and
//     PAUSE_TIME have no effect there (its switch is always dynamic; a PAUSE lasts until RESUME)
//     and none here.
//   PACKET_PAYLOAD_SIZE -> host.mtu; L2_ACK_INTERVAL -> host.ack_interval = 1 (that simulator
//     ACKs every packet once L2_ACK_INTERVAL bytes have arrived, see dcqcn-spec 7.9).
//   SIMULATOR_STOP_TIME s -> duration (flow start times stay absolute, e.g. 2.0 s: idle time
//     costs an event-driven simulator nothing).
//   FCT_OUTPUT_FILE, PFC_OUTPUT_FILE -> fct_output_file, pfc_output_file.
// Warnings: unknown keys (that simulator silently skips them), keys given twice, and options we
// do not model: ENABLE_TRACE != 0, ERROR_RATE_PER_LINK > 0, LINK_DOWN at a time != 0,
// HAS_WIN != 0, RATE_BOUND 0, ACK_HIGH_PRIO 0, L2_BACK_TO_ZERO != 0, an L2_ACK_INTERVAL of 0 or
// above PACKET_PAYLOAD_SIZE, and a queue-length monitor (QLEN_MON_START < QLEN_MON_END). Keys of
// the other algorithms (HPCC, TIMELY, DCTCP, PINT) and DATA_RATE/LINK_DELAY are checked but
// have no effect, as in that simulator under CC_MODE 1.
//
// Throws InputError "CONFIG:LINE: KEY: what was expected, got what" (or naming the topology or
// flow file and its line).
HpccSetup LoadHpccConfig(const std::string& config_path);

// SimAI's ns-3 backend (aliyun/SimAI, HPCC's ns-3 underneath) reads the same keys from its
// SimAI.conf (-c), with these differences, as its entry (network_frontend/ns3/common.h) reads
// them: no TOPOLOGY_FILE (the topology is `topology_path`, a SimAI topology file,
// ns3/simai_topology.h), no flows (its workload makes them: FLOW_FILE and TRACE_FILE are read and
// unused), GLOBAL_T forced to 1, QLEN_MON_START/END replaced by MON_START/MON_END, and
// NIC_TOTAL_PAUSE_TIME and its monitors' keys (BW_MON_FILE, RATE_MON_FILE, CNP_MON_FILE,
// QP_MON_INTERVAL, QLEN_MON_INTERVAL, BW_MON_INTERVAL), checked and without effect (its
// monitors are never scheduled; a pause-time cap > 0 is warned about). The run ends with the
// job, and a SIMULATOR_STOP_TIME over 100 s (SimAI.conf's 4e13 s) is 100 s.
// The scenario has no flows; dcqcn simai adds the job (run/simai_run.h).
HpccSetup LoadSimaiConfig(const std::string& config_path, const std::string& topology_path);

// That simulator's frame sizes and timing (MODEL-NOTES "Wire size and serialization"), which
// LoadHpccConfig puts in the scenario's [wire].
WireFormat HpccWireFormat();

}  // namespace dcqcn
