// SimAI's topology files (aliyun/SimAI, inputs/topo/gen_Topo_Template.py writes them; its ns-3
// backend reads them in common.h SetupNetwork): HPCC's topology format with GPUs and NVSwitch
// nodes.
//
// Line 1: "<nodes> <gpus_per_server> <nvswitches> <switches> <links> <gpu_type>" (switches
// excludes the NVSwitches). Line 2: the NVSwitch ids, then the switch ids; every other node is a
// GPU. Then one "<a> <b> <rate> <delay> <error_rate>" per link. SimAI treats ranks 0..G-1 as the
// GPUs, so they must be the file's first ids, and routes traffic between two GPUs of a server
// through their NVSwitch and everything else through the NICs.
//
// What dcqcn makes of it: hosts are the GPUs (host g = file id g), each with a NIC link to a
// switch (two for a dual-ToR GPU: a NIC with two ports); switches follow in the file's order
// (Topology::hpcc_ids keeps the file's ids for the output files). With topology.nvlink_model =
// "packet" the NVSwitches are switches among them and each GPU's NVSwitch link a port of its
// NIC, as SimAI runs them. With "fluid" (the default) each server's NVSwitch and its links
// become the server's NVLink domain (net/nvlink_fabric.h): the GPU links' rate per GPU and
// direction, and two links' delay from GPU to GPU (the NVSwitch's store-and-forward of a frame
// is left out: 25 ns for a 9 KB frame at 2880 Gb/s). So the NVSwitch links must then all have
// one rate and one delay, and each NVSwitch must join exactly the GPUs g with the same
// g / gpus_per_server.
// Refused, naming the file and line: a GPU with no NIC link, an NVSwitch cabled to a switch, a
// GPU id at or above the GPU count.
#pragma once

#include <string>
#include <vector>

#include "topology/topology_config.h"

namespace dcqcn {

// Reads SimAI topology file `path` into `topo` (type "simai_file", file = path, hosts, switches,
// links, hpcc_ids, gpus_per_server, nvlink_rate, nvlink_delay) as topo.nvlink_model says. Throws
// InputError "PATH:LINE: topology: ..."; appends to `warnings` what is not modelled (a link error
// rate > 0).
void ReadSimaiTopology(const std::string& path, TopologyConfig& topo,
                       std::vector<std::string>* warnings);

}  // namespace dcqcn
