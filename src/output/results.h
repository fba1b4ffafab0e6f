// The run's result files: flows.csv (one row per flow) and summary.json (the headline numbers).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "net/network.h"

namespace dcqcn {

struct RunInfo {
  Time sim_time = 0;  // when the run ended: the last flow's finish, or the duration
  double wall_time_s = 0;
  uint64_t events = 0;
  bool drained = false;  // the network emptied after the last flow finished
};

// `end`: when the run ended (for the average rate of unfinished flows).
std::string FlowsCsv(const Network& net, Time end);
nlohmann::json Summary(const Network& net, const RunInfo& info);

// Percentile by linear interpolation between closest ranks (numpy's default); 0 when empty.
double Percentile(std::vector<double> values, double pct);
// Jain's fairness index of the values (1 = all equal); 1 when empty.
double JainIndex(const std::vector<double>& values);
// Peak resident memory of this process so far, in MiB (getrusage's ru_maxrss).
double PeakRssMb();

}  // namespace dcqcn
