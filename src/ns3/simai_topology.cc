// SimAI topology files: GPUs, NVSwitches (each server's NVLink domain, or switches) and switches.
#include "ns3/simai_topology.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/token_file.h"
#include "ns3/hpcc_files.h"
#include "topology/builders.h"

namespace dcqcn {

void ReadSimaiTopology(const std::string& path, TopologyConfig& topo,
                       std::vector<std::string>* warnings) {
  TokenFile in(path, "topology");
  const int nodes = static_cast<int>(in.Int("the number of nodes", 2, kMaxTopologyNodes));
  const int gps = static_cast<int>(in.Int("the GPUs per server", 1, nodes));
  const int nvswitches = static_cast<int>(in.Int("the number of NVSwitches", 0, nodes - 1));
  const int switches =
      static_cast<int>(in.Int("the number of switches (NVSwitches not counted)", 1, nodes - 1));
  const int64_t link_count = in.Int("the number of links", 1, 64LL * kMaxTopologyNodes);
  in.Next("the GPU type (A100, A800, H100 or H800)");
  const int gpus = nodes - nvswitches - switches;
  if (gpus < 1) {
    in.Fail(1, fmt::format("{} nodes but {} NVSwitches and {} switches: no GPUs", nodes, nvswitches,
                           switches));
  }
  if (gpus % gps != 0) {
    in.Fail(1, fmt::format("{} GPUs ({} nodes - {} NVSwitches - {} switches) are not whole "
                           "servers of {} GPUs",
                           gpus, nodes, nvswitches, switches, gps));
  }
  const std::vector<bool> is_nvswitch = ReadNodeIdList(in, nodes, nvswitches, "NVSwitch", nullptr);
  std::vector<bool> taken = is_nvswitch;
  const std::vector<bool> is_switch = ReadNodeIdList(in, nodes, switches, "switch", &taken);
  for (int id = 0; id < gpus; ++id) {
    if (is_nvswitch[id] || is_switch[id]) {
      throw InputError(fmt::format(
          "{}:2: topology: node {} is listed as a{} switch, but SimAI's ranks 0..{} are the "
          "GPUs: NVSwitch and switch ids must come after them",
          path, id, is_nvswitch[id] ? "n NV" : "", gpus - 1));
    }
  }

  // Packet-level NVLink keeps the NVSwitches as switches, each GPU's link to one a second port.
  const bool packet = topo.nvlink_model == TopologyConfig::NvlinkModel::kPacket;
  topo.type = "simai_file";
  topo.file = path;
  topo.hosts = gpus;
  topo.switches = switches + (packet ? nvswitches : 0);
  topo.gpus_per_server = gps;
  topo.hpcc_ids.clear();
  std::vector<int> ours(nodes, -1);
  for (int id = 0; id < gpus; ++id) {
    ours[id] = id;
    topo.hpcc_ids.push_back(id);
  }
  for (int id = gpus; id < nodes; ++id) {
    if (!is_switch[id] && !(packet && is_nvswitch[id])) continue;
    ours[id] = static_cast<int>(topo.hpcc_ids.size());
    topo.hpcc_ids.push_back(id);
  }

  topo.links.clear();
  std::vector<int> nic_line(gpus, 0);
  std::vector<int> nvlink_line(gpus, 0);
  std::vector<int> server_of_nvswitch(nodes, -1);
  const HpccLinkLine* first_nvlink = nullptr;
  const std::vector<HpccLinkLine> lines = ReadHpccLinkLines(in, path, nodes, link_count, warnings);
  for (const HpccLinkLine& l : lines) {
    const bool a_gpu = l.a < gpus;
    const bool b_gpu = l.b < gpus;
    if (a_gpu && b_gpu) {
      in.Fail(l.line, fmt::format("GPUs {} and {} are cabled to each other: a GPU's links go to "
                                  "its NVSwitch and to switches",
                                  l.a, l.b));
    }
    if (is_nvswitch[l.a] || is_nvswitch[l.b]) {
      const int nvswitch = is_nvswitch[l.a] ? l.a : l.b;
      const int gpu = is_nvswitch[l.a] ? l.b : l.a;
      if (gpu >= gpus) {
        in.Fail(l.line, fmt::format("NVSwitch {} is cabled to node {}, which is not a GPU: an "
                                    "NVSwitch joins the GPUs of one server",
                                    nvswitch, gpu));
      }
      if (packet) {
        nvlink_line[gpu] = l.line;
        topo.links.push_back(LinkSpec{ours[l.a], ours[l.b], l.rate, l.delay});
        continue;
      }
      if (nvlink_line[gpu] != 0) {
        in.Fail(l.line, fmt::format("GPU {} has a second NVSwitch link (the first is on line "
                                    "{}): the fluid NVLink domain is one NVSwitch per server "
                                    "(topology.nvlink_model = \"packet\" takes any)",
                                    gpu, nvlink_line[gpu]));
      }
      nvlink_line[gpu] = l.line;
      if (server_of_nvswitch[nvswitch] == -1) server_of_nvswitch[nvswitch] = gpu / gps;
      if (server_of_nvswitch[nvswitch] != gpu / gps) {
        in.Fail(l.line, fmt::format("NVSwitch {} joins GPU {} (server {}) to GPUs of server {}: "
                                    "the fluid NVLink domain is the GPUs g of one server g / {} "
                                    "(topology.nvlink_model = \"packet\" takes any)",
                                    nvswitch, gpu, gpu / gps, server_of_nvswitch[nvswitch], gps));
      }
      if (first_nvlink == nullptr) {
        first_nvlink = &l;
      } else if (l.rate != first_nvlink->rate || l.delay != first_nvlink->delay) {
        in.Fail(l.line,
                fmt::format("an NVSwitch link of {} and {}, but the one on line {} has {} "
                            "and {}: the fluid NVLink domain has one rate and delay "
                            "(topology.nvlink_model = \"packet\" takes any)",
                            FormatRate(l.rate), FormatTime(l.delay), first_nvlink->line,
                            FormatRate(first_nvlink->rate), FormatTime(first_nvlink->delay)));
      }
      continue;
    }
    // A GPU with a second NIC link (dual-ToR, Alibaba HPN) has a NIC with two ports.
    if (a_gpu || b_gpu) nic_line[a_gpu ? l.a : l.b] = l.line;
    topo.links.push_back(LinkSpec{ours[l.a], ours[l.b], l.rate, l.delay});
  }
  for (int g = 0; g < gpus; ++g) {
    if (nic_line[g] == 0) {
      throw InputError(fmt::format(
          "{}: topology: GPU {} has no link to a switch; dcqcn needs every GPU's NIC connected",
          path, g));
    }
  }
  // Each server's GPUs on one NVSwitch, or none on any.
  topo.nvlink_rate = 0;
  topo.nvlink_delay = 0;
  if (first_nvlink != nullptr && gps > 1 && !packet) {
    for (int g = 0; g < gpus; ++g) {
      if (nvlink_line[g] == 0) {
        throw InputError(fmt::format(
            "{}: topology: GPU {} has no NVSwitch link, but other GPUs have: dcqcn's NVLink "
            "domain joins every GPU of a server",
            path, g));
      }
    }
    topo.nvlink_rate = first_nvlink->rate;
    topo.nvlink_delay = 2 * first_nvlink->delay;
  }
  topo.link_rate = topo.links.front().rate;
  topo.link_delay = topo.links.front().delay;
}

}  // namespace dcqcn
