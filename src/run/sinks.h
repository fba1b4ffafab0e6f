// The outputs every run has: the sinks of a scenario, in the order the run walks them.
#pragma once

#include <memory>
#include <vector>

#include "run/output_sink.h"

namespace dcqcn {

// resolved.toml, flows.csv, links.csv, the packet capture ([output.pcap]), the time series
// ([output] timeseries) and, last, summary.json. `s` must outlive them.
std::vector<std::unique_ptr<OutputSink>> ScenarioSinks(const Scenario& s);

}  // namespace dcqcn
