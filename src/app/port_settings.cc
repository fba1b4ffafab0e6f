// Switch-port settings as the network built them, grouped or port by port.
#include "app/port_settings.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>

#include "core/units.h"

namespace dcqcn {
namespace {

std::string Settings(const SwitchNode& sw, int port) {
  const EcnConfig& e = sw.port_ecn(port);
  const std::string ecn = e.enabled ? fmt::format("ECN kmin {} kmax {} pmax {}", FormatSize(e.kmin),
                                                  FormatSize(e.kmax), e.pmax)
                                    : "ECN off";
  return fmt::format("{}, PFC alpha {}, headroom {}", ecn, sw.mmu().alpha(port),
                     FormatSize(sw.mmu().headroom(port)));
}

}  // namespace

std::string PortSettingsText(const Network& net, bool every_port) {
  const Topology& topo = net.config().topology;
  std::string out;
  if (every_port) {
    out += "switch ports (port -> peer, link, settings):\n";
    for (const auto& sw : net.switches()) {
      for (int p = 0; p < sw->num_ports(); ++p) {
        const Link& l = sw->port(p).link();
        out += fmt::format("  {}:{} -> {}  {} {}  {}\n", topo.node_name(sw->node_id()), p,
                           topo.node_name(net.peer(sw->node_id(), p).first), FormatRate(l.rate()),
                           FormatTime(l.delay()), Settings(*sw, p));
      }
    }
    return out;
  }
  // (rate, delay, settings) -> ports and switches.
  std::map<std::tuple<Rate, Time, std::string>, std::pair<int, std::set<int>>> groups;
  for (const auto& sw : net.switches()) {
    for (int p = 0; p < sw->num_ports(); ++p) {
      const Link& l = sw->port(p).link();
      auto& g = groups[{l.rate(), l.delay(), Settings(*sw, p)}];
      ++g.first;
      g.second.insert(sw->node_id());
    }
  }
  out += "switch ports by link (--ports lists each):\n";
  for (const auto& [key, g] : groups) {
    const auto& [rate, delay, settings] = key;
    out += fmt::format("  {} {}: {} port{} on {} switch{}: {}\n", FormatRate(rate),
                       FormatTime(delay), g.first, g.first == 1 ? "" : "s", g.second.size(),
                       g.second.size() == 1 ? "" : "es", settings);
  }
  return out;
}

}  // namespace dcqcn
