// What `dcqcn check` says about the switch ports: which ECN thresholds, PFC alpha and headroom
// each got from its link (switch.ecn.by_rate, switch.pfc.by_rate, switch.pfc.headroom).
#pragma once

#include <string>

#include "net/network.h"

namespace dcqcn {

// One line per distinct setting (ports grouped by link rate and delay), or with `every_port`
// one line per switch port ("s0:3 -> h3 ...").
std::string PortSettingsText(const Network& net, bool every_port);

}  // namespace dcqcn
